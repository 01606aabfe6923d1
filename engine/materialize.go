package engine

import (
	mat "github.com/ragforge/ragforge/materialize"
)

// WithMaterialization returns opts with the usage recorder and the
// materialization state wired in: every planned call's uses of computed
// fields are counted by rec (for the policy of `materialized: auto`), and
// the planner reads a stored property only where state says it is ready
// for this config's expression (docs/design.md, invariant 3). Either may be nil to
// leave that hook as it was. It exists so an application wires both with
// one call instead of knowing the hooks' shapes.
func WithMaterialization(opts Options, rec *mat.Recorder, state *mat.StateCache) Options {
	if rec != nil {
		opts.RecordUses = rec.RecordUses
	}
	if state != nil {
		opts.State = state.State
	}
	return opts
}

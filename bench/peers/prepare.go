package peers

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/materialize"
	"github.com/ragforge/ragforge/model"
)

// Setup is what [Prepare] did to run ragforge out of the box, for the
// report: nothing was tuned for the benchmark beyond what an operator
// following docs/serving.md does.
type Setup struct {
	// Indexes are the outcomes of `ragforge-plan schema apply`.
	Indexes []schemaapply.Outcome
	// Policy is the materialization policy the apply decided with.
	Policy model.Materialization
	// Rounds is how many times every workload ran, its uses counted by
	// the usage recorder, before `materialize apply` (min_uses).
	Rounds int
	// Materialization is what `materialize apply` did with each computed
	// field the policy decides (`materialized: auto` or true), with the
	// policy's reason.
	Materialization []materialize.Action
}

// Lines describes the set-up in a few lines (the report's preamble).
func (s *Setup) Lines() []string {
	made := map[schemaapply.Action]int{}
	for _, o := range s.Indexes {
		made[o.Action]++
	}
	out := []string{fmt.Sprintf("ragforge-plan schema apply: %d indexes and constraints created, %d already there",
		made[schemaapply.Created], made[schemaapply.Exists])}
	out = append(out, fmt.Sprintf("materialize apply (policy: min_uses %d, min_nodes %d) after every workload ran %d times, uses recorded:",
		s.Policy.MinUses, s.Policy.MinNodes, s.Rounds))
	for _, a := range s.Materialization {
		out = append(out, fmt.Sprintf("  %s.%s: %s; %s", a.Entity, a.Name, a.Did, strings.TrimPrefix(a.Reason, a.Name+": ")))
	}
	return out
}

// Prepare makes ragforge ready the way docs/serving.md tells an operator to:
// `ragforge-plan schema apply` creates the config's declared indexes and
// constraints; the engine runs with a usage recorder and a materialization
// state cache (engine.WithMaterialization); every workload is called
// min_uses times (the policy's threshold, the agent's first calls); then
// `materialize apply` stores and indexes the `auto` fields the policy
// picks, and the engine reads them from then on. On a graph too small for
// the policy (min_nodes), every computed field stays computed at query
// time; Setup says which.
func Prepare(ctx context.Context, d neo4j.DriverWithContext, db string, m *model.Model, ws []Workload, progress io.Writer) (*engine.Engine, *Setup, error) {
	s := &Setup{}
	var err error
	s.Indexes, err = schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: db})
	if err != nil {
		return nil, nil, fmt.Errorf("schema apply: %w", err)
	}
	cm, err := computed.CompileModel(m)
	if err != nil {
		return nil, nil, err
	}
	cache, err := materialize.NewStateCache(cm, d, db, materialize.StateCacheOptions{})
	if err != nil {
		return nil, nil, err
	}
	store := materialize.NewMemoryStore(nil)
	rec := materialize.NewRecorder(store, materialize.RecorderOptions{})
	e, err := engine.New(ctx, m, engine.WithMaterialization(engine.Options{Driver: d, Database: db, Computed: cm}, rec, cache))
	if err != nil {
		return nil, nil, err
	}
	s.Policy = m.Materialization
	s.Rounds = m.Materialization.MinUses
	say(progress, "recording uses: every workload %d times", s.Rounds)
	for range s.Rounds {
		for _, w := range ws {
			if _, err := e.Execute(ctx, w.Call); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", w.Key, err)
			}
		}
	}
	if err := rec.Flush(ctx); err != nil {
		return nil, nil, err
	}
	counts, err := store.Counts(ctx)
	if err != nil {
		return nil, nil, err
	}
	x, err := materialize.New(cm, d, materialize.Options{Database: db, Progress: progress, Invalidate: []func(){cache.Invalidate}})
	if err != nil {
		return nil, nil, err
	}
	say(progress, "materialize apply")
	actions, err := x.Apply(ctx, counts, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("materialize apply: %w", err)
	}
	for _, a := range actions {
		if f := m.Entity(a.Entity).ComputedField(a.Name); f != nil && f.Materialized != model.Never && f.Materialized != "" {
			s.Materialization = append(s.Materialization, a)
		}
	}
	return e, s, nil
}

// say writes one progress line when w is not nil.
func say(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "peers: "+format+"\n", args...)
	}
}

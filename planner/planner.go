package planner

import (
	"fmt"
	"sync"
	"time"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// Options configure a Planner. The zero value plans with the default limits,
// the default capabilities (full-text indexes present, APOC absent), UTC and
// the wall clock.
type Options struct {
	// Limits bound result sizes (zero fields take tools.DefaultLimits); the
	// planner clamps every limit to them even when the caller skipped
	// validation.
	Limits tools.Limits
	// Capabilities say which server features the fuzzy mode may use.
	Capabilities *tools.Capabilities
	// Now returns the current time for relative periods (time.Now if nil).
	Now func() time.Time
	// Location is the zone relative periods and precision truncation are
	// computed in (UTC if nil).
	Location *time.Location
	// MaxString, when positive, cuts every string a statement returns in
	// entity properties and computed values to MaxString+1 characters in
	// Cypher (left()), so a long text crosses the network only as far as
	// the engine shows it; the one extra character tells the engine the
	// text was cut. Zero returns strings whole (verbose calls).
	MaxString int
	// Computed is m's compiled computed fields, from whoever owns the model
	// (engine.New compiles once for its planners and write tools); nil
	// makes New compile them. Plan never compiles.
	Computed *computed.Model
}

// Planner plans tool calls for one model. It is safe for concurrent use.
type Planner struct {
	m      *model.Model
	opts   Options
	limits tools.Limits
	caps   tools.Capabilities
	loc    *time.Location
	// rels are the model's relationships, gathered once for Reachable.
	rels *tools.Relationships

	// entities holds, for each entity with computed fields, its compiled
	// fields; set by New, read-only after.
	entities map[string]*compiledEntity

	mu       sync.Mutex
	compiled map[string]map[string]ComputedCypher // by entity + ready set
}

// New returns a planner for m.
func New(m *model.Model, opts Options) (*Planner, error) {
	if m == nil {
		return nil, fmt.Errorf("planner: nil model")
	}
	entities, err := computedEntities(m, opts.Computed)
	if err != nil {
		return nil, err
	}
	p := &Planner{m: m, opts: opts, compiled: map[string]map[string]ComputedCypher{}, entities: entities, rels: tools.NewRelationships(m)}
	p.limits = opts.Limits.WithDefaults()
	p.caps = tools.Capabilities{FullText: true}
	if opts.Capabilities != nil {
		p.caps = *opts.Capabilities
	}
	p.loc = time.UTC
	if opts.Location != nil {
		p.loc = opts.Location
	}
	if p.opts.Now == nil {
		p.opts.Now = time.Now
	}
	return p, nil
}

// Call is a tool call whose arguments were parsed by tools.Catalog.Parse:
// Args is a pointer to the tool's argument type (e.g. *QueryEntitiesArgs).
type Call struct {
	Tool string
	Args any
}

// Plan plans one call with default options; see [Planner.Plan]. It
// compiles m's computed fields each time: to plan many calls, build one
// Planner.
func Plan(m *model.Model, call Call, state model.State) (*Statement, error) {
	p, err := New(m, Options{})
	if err != nil {
		return nil, err
	}
	return p.Plan(call, state)
}

// Plan turns a parsed call into one statement. The arguments must come
// from tools.Catalog.Parse, which is where a call is validated (once) and
// its defaults filled: the planner trusts their values and keeps only the
// checks that keep a statement safe whatever it is given. Every name is
// looked up in the model, so nothing else can become an identifier (a
// *tools.CallError naming the valid choices); operators, modes and
// directions go through fixed tables (an error for anything else); every
// limit, offset and depth is clamped.
func (p *Planner) Plan(call Call, state model.State) (st *Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			st, err = nil, fmt.Errorf("planner: internal error planning %s: %v", call.Tool, r)
		}
	}()
	return p.plan(call, state)
}

// unplannable is the error for a value outside the planner's fixed maps
// (an operator, a mode, a direction). Catalog.Parse lets none through, so
// it reports arguments that skipped Parse, not an agent's mistake.
func unplannable(tool, what string, v any) error {
	return fmt.Errorf("planner: %s: no plan for %s %v (arguments must come from tools.Catalog.Parse)", tool, what, v)
}

// entity looks an entity up in the model.
func (p *Planner) entity(tool, name, path string) (*model.Entity, error) {
	e := p.m.Entity(name)
	if e == nil {
		return nil, tools.Fail(tool, path, p.m.EntityNames(), "%q is not an entity", name)
	}
	return e, nil
}

// clamp bounds a limit to [1, max], using def for zero or less.
func clamp(n, def, max int) int {
	if n <= 0 {
		n = def
	}
	if n > max {
		n = max
	}
	return n
}

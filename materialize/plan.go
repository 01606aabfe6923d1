package materialize

import (
	"context"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
)

// Facts is what the server says about a config's computed fields: the
// state nodes and each entity label's node count. A plan without a
// server has none, and says so.
type Facts struct {
	States []FieldState
	// Nodes is each entity's node count, by entity name.
	Nodes map[string]int64
}

// ReadFacts reads the state nodes and the node count of every entity
// that has computed fields (counts come from Neo4j's count store, so this
// is cheap on any size of graph).
func ReadFacts(ctx context.Context, driver neo4j.DriverWithContext, db string, m *model.Model) (*Facts, error) {
	states, err := ReadStates(ctx, driver, db)
	if err != nil {
		return nil, err
	}
	f := &Facts{States: states, Nodes: map[string]int64{}}
	for _, e := range m.Entities {
		if len(e.Computed) == 0 {
			continue
		}
		label, err := quote("entity", e.Name)
		if err != nil {
			return nil, err
		}
		res, err := neo4jtx.Query(ctx, driver, db, neo4j.AccessModeRead, "MATCH (n:"+label+") RETURN count(n) AS n", nil)
		if err != nil {
			return nil, fmt.Errorf("materialize: counting %s nodes: %w", e.Name, err)
		}
		n, _ := res[0].Get("n")
		f.Nodes[e.Name], _ = n.(int64)
	}
	return f, nil
}

// state returns the state node of ref, or nil.
func (f *Facts) state(ref model.FieldRef) *FieldState {
	if f == nil {
		return nil
	}
	for i := range f.States {
		if f.States[i].Ref() == ref {
			return &f.States[i]
		}
	}
	return nil
}

// FieldPlan is one computed field with everything the decision rests on:
// what `ragforge-plan plan` and `materialize plan` print, and what apply
// carries out.
type FieldPlan struct {
	Entity   string
	Name     string
	Property string
	// Hash is the config's expression hash (Hashes).
	Hash string
	// Fragment is the runtime Cypher (every dependency inlined).
	Fragment computed.Fragment
	Usage    Usage
	// Nodes is the label's node count, -1 when unknown.
	Nodes int64
	// State is the field's state node; nil when there is none, or when
	// StateKnown is false (no server).
	State      *FieldState
	StateKnown bool
	// Current is true when the planner reads the stored property now:
	// the state is ready for this hash and property.
	Current bool
	Verdict
	field  *computed.Field
	entity *computed.Entity
}

// Ref names the field.
func (p *FieldPlan) Ref() model.FieldRef { return model.FieldRef{Entity: p.Entity, Field: p.Name} }

// StateLabel is the state in one word for tables: unknown (no server),
// none, building, dropping, ready, or stale (ready for another expression
// hash or property).
func (p *FieldPlan) StateLabel() string {
	switch {
	case !p.StateKnown:
		return "unknown"
	case p.State == nil:
		return "none"
	case p.State.Status == StatusReady && !p.Current:
		return "stale"
	}
	return string(p.State.Status)
}

// Plan decides every computed field cm compiled, in config order, from
// usage counts and, when facts is not nil, the server's state and node
// counts.
func Plan(cm *computed.Model, counts []Count, facts *Facts, now time.Time) ([]*FieldPlan, error) {
	m := cm.Model()
	hashes, err := Hashes(cm)
	if err != nil {
		return nil, err
	}
	usage := Summarize(counts, m.Materialization.Window, now)
	var out []*FieldPlan
	for _, e := range m.Entities {
		ce := cm.Entity(e.Name)
		for _, f := range ce.Fields {
			ref := model.FieldRef{Entity: e.Name, Field: f.Config.Name}
			frag, err := f.Fragment(computed.Options{})
			if err != nil {
				return nil, fmt.Errorf("materialize: %s.%s: %w", e.Name, f.Config.Name, err)
			}
			u := usage[ref]
			u.WindowDays = days(m.Materialization.Window)
			p := &FieldPlan{Entity: e.Name, Name: f.Config.Name, Property: f.CacheProperty(), Hash: hashes[ref],
				Fragment: frag, Usage: u, Nodes: -1, field: f, entity: ce}
			if facts != nil {
				p.StateKnown = true
				p.State = facts.state(ref)
				if n, ok := facts.Nodes[e.Name]; ok {
					p.Nodes = n
				}
				p.Current = p.State != nil && p.State.Status == StatusReady && p.State.Hash == p.Hash && p.State.Property == p.Property
			}
			p.Verdict = Decide(m.Materialization, Input{Field: f, Entity: ce, Usage: u, Nodes: p.Nodes, State: p.State}, now)
			out = append(out, p)
		}
	}
	return out, nil
}

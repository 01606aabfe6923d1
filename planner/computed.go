package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// ComputedCypher is the query-time Cypher of one computed field, from
// package computed: an expression over the entity node `n`, after the
// CALL subqueries of the raw-Cypher fields it reads; or, when the field is
// materialized and ready, the cache property it is read from.
type ComputedCypher struct {
	// Expr is a Cypher expression in which the entity node is `n`.
	Expr string
	// Subqueries are CALL clauses that must precede Expr, each binding the
	// variable at the same index of Aliases.
	Subqueries []string
	Aliases    []string
	// Stored is the cache property when the field is read from it.
	Stored string
}

// VarName is the Cypher variable (unescaped) that holds computed field
// name's value inside a statement. The prefix keeps computed values from
// clashing with the node variables of a statement (n, t) and with the
// __rf_ aliases of package computed.
func VarName(field string) string { return computed.Variable("cf_", field) }

// compiledEntity is an entity's checked computed fields and, per raw
// cypher field, the alias its subquery clause binds.
type compiledEntity struct {
	ce      *computed.Entity
	aliases map[string]string // subquery clause → alias
}

// computedEntities returns every entity's compiled computed fields with
// their subquery aliases, and the compiled model they come from: cm, or m
// compiled when cm is nil.
func computedEntities(m *model.Model, cm *computed.Model) (map[string]*compiledEntity, *computed.Model, error) {
	if cm == nil {
		var err error
		if cm, err = computed.CompileModel(m); err != nil {
			return nil, nil, fmt.Errorf("planner: computed fields: %w", err)
		}
	} else if cm.Model() != m {
		return nil, nil, fmt.Errorf("planner: Options.Computed was compiled from another model")
	}
	out := map[string]*compiledEntity{}
	for _, e := range m.Entities {
		if len(e.Computed) == 0 {
			continue
		}
		c := cm.Entity(e.Name)
		ce := &compiledEntity{ce: c, aliases: map[string]string{}}
		for _, f := range c.Fields {
			if f.Config.Cypher == "" {
				continue
			}
			sq, err := f.Subquery("n")
			if err != nil {
				return nil, nil, fmt.Errorf("planner: computed field %s.%s: %w", e.Name, f.Config.Name, err)
			}
			ce.aliases[sq] = computed.Alias("n", f.Config.Name)
		}
		out[e.Name] = ce
	}
	return out, cm, nil
}

// inlineComputed is the fieldRef of computed field f over the variable v
// (a relationship's, or a related entity's): its fragment, written
// inline, computed per query with no subquery and no state. A field that
// reads a raw cypher field cannot be inlined (at names it in the error):
// its subquery would have to run per related entity inside the test. A
// relationship's computed fields are expressions over the relationship
// and its ends, which always inline.
func (b *builder) inlineComputed(f *computed.Field, v, at string) (fieldRef, error) {
	fr, err := f.Fragment(computed.Options{Node: v})
	if err != nil {
		return fieldRef{}, fmt.Errorf("planner: computed field %s.%s: %w", f.Entity(), f.Config.Name, err)
	}
	if len(fr.Subqueries) > 0 {
		return fieldRef{}, tools.Fail(b.tool, at, nil, "%s.%s reads a cypher computed field, which is computed only for the entity a call is about, not for related ones", f.Entity(), f.Config.Name)
	}
	return fieldRef{f: &f.Config.Field, node: v, inline: fr.Cypher}, nil
}

// computedFor returns the Cypher of e's computed fields under the given
// state, writing it once per entity and ready set.
func (p *Planner) computedFor(e *model.Entity, state model.State) (map[string]ComputedCypher, error) {
	if len(e.Computed) == 0 {
		return nil, nil
	}
	ce := p.entities[e.Name]
	if ce == nil {
		return nil, fmt.Errorf("planner: %s is not an entity of the planner's model", e.Name)
	}
	var ready []string
	for _, c := range e.Computed {
		if state.Ready(e.Name, c.Name) {
			ready = append(ready, c.Name)
		}
	}
	key := e.Name + "\x00" + strings.Join(ready, "\x00")
	p.mu.Lock()
	cc, ok := p.compiled[key]
	p.mu.Unlock()
	if ok {
		return cc, nil
	}
	mat := map[string]bool{}
	for _, r := range ready {
		mat[r] = true
	}
	cc = map[string]ComputedCypher{}
	for _, f := range ce.ce.Fields {
		name := f.Config.Name
		if slices.Contains(ready, name) {
			cc[name] = ComputedCypher{Stored: f.CacheProperty()}
			continue
		}
		fr, err := f.Fragment(computed.Options{Materialized: mat})
		if err != nil {
			return nil, fmt.Errorf("planner: computed field %s.%s: %w", e.Name, name, err)
		}
		x := ComputedCypher{Expr: fr.Cypher, Subqueries: fr.Subqueries}
		for _, sq := range fr.Subqueries {
			alias, ok := ce.aliases[sq]
			if !ok {
				return nil, fmt.Errorf("planner: computed field %s.%s: a subquery binds no known alias", e.Name, name)
			}
			x.Aliases = append(x.Aliases, alias)
		}
		cc[name] = x
	}
	p.mu.Lock()
	p.compiled[key] = cc
	p.mu.Unlock()
	return cc, nil
}

// relatedComputed is computed field name of the related entity in scope s
// (a relationship test's or an aggregate's over), inlined over its
// variable.
func (b *builder) relatedComputed(s scope, name, at string) (fieldRef, error) {
	var f *computed.Field
	if ce := b.p.entities[s.e.Name]; ce != nil {
		f = ce.ce.Field(name)
	}
	if f == nil {
		return fieldRef{}, fmt.Errorf("planner: computed field %s.%s is not compiled", s.e.Name, name)
	}
	return b.inlineComputed(f, s.v, at)
}

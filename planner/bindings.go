package planner

import (
	"maps"
	"slices"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// Named relationship tests (tools.Condition.As, checked by Parse: see
// tools/bindings.go). The first `some` test that gives a name in an ANDed
// list binds its related entity to its subquery's variable; the
// conditions after it in that list that give the name anywhere inside
// them are written inside that subquery, where the variable is in scope,
// and a test naming a bound entity matches its relationship to that
// variable instead of to a new one:
//
//	[{via: ACTED_IN, as: m}, {via: DIRECTED, as: m}]
//	EXISTS { MATCH (n)-[r0:ACTED_IN]->(m0) WHERE m0:Movie AND
//	         EXISTS { MATCH (n)-[r1:DIRECTED]->(m0) WHERE m0:Movie } }
//
// Moving a condition of an AND into the EXISTS of another is exact: A
// and (some m: P(m)) and Q(m) is some m: P(m) and Q(m), and A. Every
// node a named test binds is matched by its own hop, labels and tenant
// predicate included, so the tenant rule holds for it as for any hop.

// names is the state of the names while a statement is written.
type names struct {
	// bound maps a name to the variable and entity of the test that
	// binds it, while the statement is inside that test's list.
	bound map[string]boundName
	// binder maps a name to the pointer of the test that binds it,
	// declared by the list (conjunction) before the test is written.
	binder map[string]string
	// deps maps a name to the conditions of its list that are written
	// inside its test.
	deps map[string][]namedDep
	// inside counts the binding tests being written: a test inside one
	// is not a top-level test, whatever its depth says.
	inside int
}

type boundName struct {
	v string
	e *model.Entity
}

type namedDep struct {
	c  tools.Condition
	at string
}

// placeNames declares the tests of list conds (at pointer at) that bind
// a name, and files the conditions that use one under the test they go
// inside; skip marks those, which the list does not write itself, and
// declared lists the names, for forgetNames once the list is written.
// A condition using the names of several binding tests goes inside the
// last of them, which goes inside the others.
func (b *builder) placeNames(conds []tools.Condition, at string) (skip []bool, declared []string) {
	binders := map[string]int{}
	for i, c := range conds {
		_, bound := b.names.bound[c.As]
		_, dup := binders[c.As]
		if c.BindsName() && !bound && !dup {
			binders[c.As] = i
			declared = append(declared, c.As)
		}
	}
	if len(declared) == 0 {
		return nil, nil
	}
	need := make([][]int, len(conds))
	for i, c := range conds {
		for _, name := range mentioned(c, nil) {
			if j, ok := binders[name]; ok && j < i && !slices.Contains(need[i], j) {
				need[i] = append(need[i], j)
			}
		}
	}
	if b.names.bound == nil {
		b.names = names{bound: map[string]boundName{}, binder: map[string]string{}, deps: map[string][]namedDep{}}
	}
	skip = make([]bool, len(conds))
	parent := make([]int, len(conds))
	for i := len(conds) - 1; i >= 0; i-- {
		parent[i] = -1
		if len(need[i]) == 0 {
			continue
		}
		last := slices.Max(need[i])
		parent[i], skip[i] = last, true
		for _, j := range need[i] {
			if j != last && !slices.Contains(need[last], j) {
				need[last] = append(need[last], j)
			}
		}
	}
	for i, p := range parent {
		if p >= 0 {
			name := conds[p].As
			b.names.deps[name] = append(b.names.deps[name], namedDep{c: conds[i], at: at + "/" + itoa(i)})
		}
	}
	for name, j := range binders {
		b.names.binder[name] = at + "/" + itoa(j)
	}
	return skip, declared
}

// forgetNames ends the scope of names declared by placeNames.
func (b *builder) forgetNames(declared []string) {
	for _, name := range declared {
		delete(b.names.bound, name)
		delete(b.names.binder, name)
		delete(b.names.deps, name)
	}
}

// mentioned appends the names condition c gives, itself or anywhere
// inside it.
func mentioned(c tools.Condition, out []string) []string {
	if c.As != "" {
		out = append(out, c.As)
	}
	for _, list := range [][]tools.Condition{c.Conditions, c.AnyOf, c.Not} {
		for _, d := range list {
			out = mentioned(d, out)
		}
	}
	return out
}

// nameHop gives hop h, the test at pointer at to entity, the name as:
// the variable of the entity bound under it, or, for the test its list
// declared as binding it, h's own variable, which it binds.
func (b *builder) nameHop(h *hop, as, entity, at string) error {
	if x, ok := b.names.bound[as]; ok {
		if x.e.Name != entity {
			return tools.Fail(b.tool, at+"/as", nil, "%q is bound to a %s, and this test reaches %s", as, x.e.Name, entity)
		}
		h.m = x.v
		return nil
	}
	if b.names.binder[as] != at {
		return tools.Fail(b.tool, at+"/as", slices.Sorted(maps.Keys(b.names.bound)), "%q is not bound here: the first some test that gives a name, in a list whose conditions all hold, binds it for the tests after it", as)
	}
	e := b.p.m.Entity(entity)
	if e == nil {
		return tools.Fail(b.tool, at+"/entity", nil, "as binds one entity: name its entity type")
	}
	b.names.bound[as] = boundName{v: h.m, e: e}
	return nil
}

// namedDeps writes the conditions filed under the name a binding test bound,
// in scope s at depth (the list's), for the test's own subquery: its
// WHERE, where a test on a missing value keeps no row, so not null-safe.
func (b *builder) namedDeps(s scope, as string, depth int) ([]string, []fieldRef, error) {
	outer := b.definite
	b.definite = false
	b.names.inside++
	defer func() { b.definite = outer; b.names.inside-- }()
	var preds []string
	var refs []fieldRef
	for _, d := range b.names.deps[as] {
		p, rs, err := b.test(s, d.c, d.at, depth)
		if err != nil {
			return nil, nil, err
		}
		preds = append(preds, p)
		refs = append(refs, rs...)
	}
	return preds, refs, nil
}

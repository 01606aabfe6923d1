package tools

import (
	"maps"
	"slices"
)

// A relationship test's `as` names its related entity, so that several
// tests are about one entity: "acted in and directed the same movie" is
// [{via: ACTED_IN, as: m}, {via: DIRECTED, as: m}], where two tests
// without the name would each hold on its own (some movie acted in, some
// movie directed). One property, on the test an agent already writes,
// with one rule: the same name is the same entity. A name is bound by the
// first test that gives it, which must be able to bind one entity (a
// `some` test, the default, without count, in a list whose conditions
// all hold); it reaches the tests after that one in its list and
// everything inside them, its own conditions included (a test there
// naming it goes back to it). The planner compiles a test naming a bound
// entity into the binding test's subquery (planner/bindings.go).

// binding is a name bound by a relationship test: the entity type it
// reaches and where the test is.
type binding struct{ entity, at string }

// bindingWalk checks the names of one argument's conditions.
type bindingWalk struct {
	p *problems
	// bound holds every name bound so far, visible at the test or not.
	bound map[string]binding
}

// checkBindings checks the names (as) of conditions at pointer at, whose
// hops checkConds has resolved (entity filled when only one fits).
func checkBindings(conds []Condition, at string, p *problems) {
	w := &bindingWalk{p: p, bound: map[string]binding{}}
	w.list(conds, at, map[string]binding{}, true)
}

// list checks one list of conditions, which all hold unless it is an
// any_of; visible are the names bound around it.
func (w *bindingWalk) list(conds []Condition, at string, visible map[string]binding, all bool) {
	visible = maps.Clone(visible)
	for i := range conds {
		c := &conds[i]
		cat := at + Pointer(i)
		if c.As != "" {
			w.name(c, cat, visible, all)
		}
		w.list(c.Conditions, cat+"/conditions", visible, true)
		w.list(c.AnyOf, cat+"/any_of", visible, false)
		w.list(c.Not, cat+"/not", visible, true)
	}
}

// BindsName reports whether c has the form of a test that binds its
// name: a relationship test with as, some (the default), without count
// or aggregate. name reports which part a test that does not lacks.
func (c *Condition) BindsName() bool {
	return c.Via != "" && c.As != "" && c.Count == nil && c.Aggregate == "" && (c.Quantifier == "" || c.Quantifier == QuantifierSome)
}

// name checks the name test c gives at pointer at: a reference to a
// visible binding of the same entity type, or a new binding, which it
// adds to visible.
func (w *bindingWalk) name(c *Condition, at string, visible map[string]binding, all bool) {
	b, seen := visible[c.As]
	other, elsewhere := w.bound[c.As]
	switch {
	case c.Via == "":
		w.p.add(at+"/as", "as names the related entity of a relationship test (via, …); a field test has none")
	case c.Aggregate != "":
		w.p.add(at+"/as", "as names one related entity; an aggregate test is over many: name the entity on a test without aggregate")
	case seen && (c.Count != nil || c.Quantifier == QuantifierAll):
		w.p.add(at, "a test of the one entity bound as %q (at %s) is some or none; count and all apply to many", c.As, b.at)
	case seen && c.Entity == "":
		w.p.add(at+"/entity", "name the entity type of %q: %s, as bound at %s", c.As, b.entity, b.at)
	case seen && c.Entity != b.entity:
		w.p.choose(at+"/as", namesOf(visible, c.Entity), "%q is the %s bound at %s, and this test reaches %s: give a name bound to a %s, or a new name", c.As, b.entity, b.at, c.Entity, c.Entity)
	case seen:
	case elsewhere:
		w.p.choose(at+"/as", namesOf(visible, c.Entity), "%q is bound at %s, which does not hold this test: a name reaches the tests after the one that binds it, in its list, and everything inside them", c.As, other.at)
	case !all:
		w.p.add(at+"/as", "%q cannot be bound directly in any_of: bind it in a list whose conditions all hold (the conditions, a relationship test's conditions, not)", c.As)
	case c.Count != nil || c.Quantifier != QuantifierSome:
		w.p.add(at+"/as", "%q is used before it is bound: the first test that gives a name binds it, and must be a some test (the default) without count; put that test first", c.As)
	case c.Entity == "":
		w.p.add(at+"/entity", "as binds one entity: name its entity type")
	default:
		b = binding{entity: c.Entity, at: at}
		visible[c.As], w.bound[c.As] = b, b
	}
}

// namesOf lists the names visible that are bound to an entity type.
func namesOf(visible map[string]binding, entity string) []string {
	var out []string
	for name, b := range visible {
		if b.entity == entity {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

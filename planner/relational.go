package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// maxConditionDepth bounds how deeply groups and relationship tests nest,
// so a call that skipped validation still plans a statement of bounded
// size.
const maxConditionDepth = 4

// scope is what the fields of a condition belong to: the builder's entity
// (n, computed fields included), a related entity (stored fields and
// computed expression fields, inline over its variable), or a
// relationship (its declared properties and computed fields).
type scope struct {
	v string
	// e is the entity of v; nil for a relationship.
	e *model.Entity
	// rel lists the properties of a relationship variable.
	rel []*model.Field
	// relc are the computed fields of a relationship variable's type.
	relc *computed.Relationship
	name string // entity or relationship type, for messages
}

// relScope is the scope of relationship variable v of type typ: its
// properties and its computed fields.
func (p *Planner) relScope(v, typ string) scope {
	return scope{v: v, rel: relFields(p.m, typ), relc: p.cm.Relationship(typ), name: typ}
}

func (b *builder) mainScope() scope { return scope{v: "n", e: b.e, name: b.e.Name} }

// field resolves a field of the scope.
func (s scope) field(b *builder, name, at string) (fieldRef, error) {
	if s.v == "n" {
		return b.field(name, at)
	}
	var valid []string
	if s.e != nil {
		for _, f := range s.e.Fields {
			if b.p.tenantField(f.Name) {
				continue
			}
			if f.Name == name {
				return fieldRef{f: f, node: s.v}, nil
			}
			valid = append(valid, f.Name)
		}
		if s.e.ComputedField(name) != nil {
			return b.relatedComputed(s, name, at)
		}
		for _, c := range s.e.Computed {
			if c.Cypher == "" {
				valid = append(valid, c.Name)
			}
		}
		return fieldRef{}, tools.Fail(b.tool, at, valid, "%q is not a field of %s", name, s.name)
	}
	for _, f := range s.rel {
		if f.Name == name {
			return fieldRef{f: f, node: s.v}, nil
		}
		valid = append(valid, f.Name)
	}
	if c := s.relc.Field(name); c != nil {
		return b.inlineComputed(c, s.v, at)
	}
	if s.relc != nil {
		for _, c := range s.relc.Fields {
			valid = append(valid, c.Config.Name)
		}
	}
	return fieldRef{}, tools.Fail(b.tool, at, valid, "%q is not a property of %s", name, s.name)
}

// test renders one condition in scope s: a field test, a relationship
// test or a group. refs are the builder-entity fields it reads (so a
// predicate on a runtime computed field waits for its value).
func (b *builder) test(s scope, c tools.Condition, at string, depth int) (string, []fieldRef, error) {
	if depth > maxConditionDepth {
		return "", nil, tools.Fail(b.tool, at, nil, "conditions nest at most %d levels deep", maxConditionDepth)
	}
	switch {
	case c.Field != "":
		r, err := s.field(b, c.Field, at+"/field")
		if err != nil {
			return "", nil, err
		}
		pred, err := b.condition(r, c, at)
		if err != nil {
			return "", nil, err
		}
		if slices.Contains(rangeOperators, c.Operator) {
			b.ordersText(s, r)
		}
		pred = b.nullSafe(pred)
		if r.node != "" {
			return pred, nil, nil
		}
		return pred, []fieldRef{r}, nil
	case c.Via != "":
		if s.e == nil {
			return "", nil, unplannable(b.tool, at[1:], "a relationship test on a relationship")
		}
		if c.Aggregate != "" {
			return b.aggregateTest(s, c, at, depth)
		}
		return b.via(s, c, at, depth)
	case len(c.AnyOf) > 0:
		preds, refs, err := b.tests(s, c.AnyOf, at+"/any_of", depth)
		if err != nil {
			return "", nil, err
		}
		return "(" + strings.Join(preds, " OR ") + ")", refs, nil
	case len(c.Not) > 0:
		outer := b.definite
		b.definite = true
		preds, refss, err := b.conjunction(s, c.Not, at+"/not", depth+1)
		b.definite = outer
		if err != nil {
			return "", nil, err
		}
		return negate(preds), slices.Concat(refss...), nil
	}
	return "", nil, unplannable(b.tool, at[1:], "an empty condition")
}

// nullSafe makes a field test's predicate false where it would be null
// (a missing value) while b.definite.
func (b *builder) nullSafe(pred string) string {
	if !b.definite {
		return pred
	}
	return "coalesce(" + pred + ", false)"
}

// negate renders NOT of the conjunction preds, written with b.definite
// set. The test on a missing value is null; written null-safe it is
// false, so a not keeps the entities without the value. Only the field
// tests are fenced, never the whole conjunction: an EXISTS inside
// coalesce(…) is an expression Neo4j evaluates per row, where the plan
// proof of tenant scoping (internal/cypher/scope) cannot see the nodes it
// reads, while NOT (… EXISTS { } …) is planned as (anti) semi-apply.
// Fencing the tests alone means the same: AND and OR of tests that are
// false where null are false exactly where the whole would be null or
// false (a conjunction of AND and OR is true with nulls only when it is
// true whatever they are).
func negate(preds []string) string {
	if len(preds) == 1 {
		return "NOT " + preds[0]
	}
	return "NOT (" + joinAnd(preds) + ")"
}

// tests renders a list of conditions one level deeper.
func (b *builder) tests(s scope, conds []tools.Condition, at string, depth int) ([]string, []fieldRef, error) {
	var preds []string
	var refs []fieldRef
	for i, c := range conds {
		p, rs, err := b.test(s, c, at+"/"+itoa(i), depth+1)
		if err != nil {
			return nil, nil, err
		}
		preds = append(preds, p)
		refs = append(refs, rs...)
	}
	return preds, refs, nil
}

// hop is a resolved relationship step from a scope: the MATCH pattern
// from the scope's variable to the related variable m (over relationship
// variable r) and the predicates every related entity must pass (its
// labels and tenant, then the call's conditions).
type hop struct {
	m, r    string
	pattern string
	// step is the pattern's relationship with its arrows, -[r:TYPE]->.
	step   string
	base   []string // labels and tenant of m
	tenant string   // the tenant predicate of m ("" without a tenant)
	conds  []string // the call's conditions on m and r
	// pin holds the call's conditions on m, and back the hop's
	// relationship seen from m, -[:TYPE]-> or its reverse, so that
	// hubChoice can count the relationships of the entities they pin
	// under a variable of its own.
	pin    []tools.Condition
	back   string
	entity *model.Entity
	// next is a some-test among the call's conditions on m (a top-level
	// one: an element of conds, nextPred) that the statement can start
	// from, pinned itself or through a test nested in it; match walks
	// the chain from the pinned end (builder.walk).
	next     *hop
	nextPred string
	// rel is the hop as the call gave it, to render it again under new
	// variables.
	rel tools.Related
}

// related resolves a hop from scope s: the relationship type, its
// direction (the stored one when the type leads from the entity one way
// only, else both), the related entity (or every target when the call
// names none and sets no conditions on it) and the conditions.
//
// negated says the caller negates the conditions (an all-test's
// failure), so they are written null-safe (negate); otherwise they are a
// subquery's own WHERE, where a null test keeps no entity.
func (b *builder) related(s scope, r tools.Related, at string, depth int, negated bool) (*hop, error) {
	return b.relatedAs(s, r, "", at, depth, negated)
}

// path resolves hops, each a relationship test from the entity the one
// before reaches (the first from s), as related resolves one; at names
// hop i's argument path. A hop after one that may reach several entity
// types is refused: the hop before must name its entity.
func (b *builder) path(s scope, hops []tools.Related, at func(i int) string, depth int) ([]*hop, error) {
	path := make([]*hop, 0, len(hops))
	for i, r := range hops {
		if s.e == nil {
			return nil, tools.Fail(b.tool, at(i-1)+"/entity", nil, "a hop another hop follows continues from one entity type: name it")
		}
		h, err := b.related(s, r, at(i), depth, false)
		if err != nil {
			return nil, err
		}
		path = append(path, h)
		s = scope{v: h.m, e: h.entity}
		if h.entity != nil {
			s.name = h.entity.Name
		}
	}
	return path, nil
}

// relatedAs is related for a test that names its related entity as (none
// when ""): see nameHop.
func (b *builder) relatedAs(s scope, r tools.Related, as, at string, depth int, negated bool) (*hop, error) {
	// Parse chose the direction and checked the hop; the type and the
	// related entity are still looked up, since they become a relationship
	// type and a label in the statement.
	typ, dir := r.Via, r.Direction
	arrow, ok := arrows[dir]
	if !ok {
		return nil, unplannable(b.tool, "direction", dir)
	}
	reach := b.p.rels.Reachable(s.e.Name, []string{typ}, dir, 1)
	if len(reach) == 0 {
		return nil, tools.Fail(b.tool, at+"/via", relationshipTypesOf(b.p.m), "%s has no %s %s relationship", s.e.Name, dir, typ)
	}
	h := &hop{m: "m" + itoa(b.nv), r: "r" + itoa(b.nv), rel: r}
	b.nv++
	switch {
	case r.Entity != "":
		if !slices.Contains(reach, r.Entity) {
			return nil, tools.Fail(b.tool, at+"/entity", reach, "%s --[%s]-- (%s) does not reach %q", s.e.Name, typ, dir, r.Entity)
		}
		reach = []string{r.Entity}
	}
	if as != "" {
		if err := b.nameHop(h, as, r.Entity, at); err != nil {
			return nil, err
		}
	}
	labels := make([]string, len(reach))
	for i, name := range reach {
		labels[i] = h.m + ":" + b.q(name)
	}
	if len(reach) == 1 {
		h.entity = b.p.m.Entity(reach[0])
		h.base = []string{labels[0]}
	} else {
		h.base = []string{"(" + strings.Join(labels, " OR ") + ")"}
	}
	if h.tenant = b.tenantWhere(h.m); h.tenant != "" {
		h.base = append(h.base, h.tenant)
	}
	h.step = arrow[0] + "[" + h.r + ":" + b.q(typ) + "]" + arrow[1]
	back := arrows[reversed[dir]]
	h.back = back[0] + "[:" + b.q(typ) + "]" + back[1]
	h.pattern = "(" + s.v + ")" + h.step + "(" + h.m + ")"
	outer := b.definite
	b.definite = negated
	defer func() { b.definite = outer }()
	if h.entity != nil {
		ms := scope{v: h.m, e: h.entity, name: h.entity.Name}
		preds, _, err := b.conjunction(ms, r.Conditions, at+"/conditions", depth+1)
		if err != nil {
			return nil, err
		}
		h.conds, h.pin = preds, r.Conditions
		for _, p := range preds {
			if in := b.starts[p]; in != nil && h.next == nil {
				h.next, h.nextPred = in, p
			}
		}
	}
	rs := b.p.relScope(h.r, typ)
	for i, c := range r.RelationshipConditions {
		p, _, err := b.test(rs, c, at+"/relationship_conditions/"+itoa(i), depth+1)
		if err != nil {
			return nil, err
		}
		h.conds = append(h.conds, p)
	}
	return h, nil
}

// exists renders EXISTS { MATCH pattern WHERE preds }.
func (h *hop) exists(preds []string) string {
	return "EXISTS { MATCH " + h.pattern + " WHERE " + joinAnd(preds) + " }"
}

// via renders a relationship test: EXISTS for some, NOT EXISTS for none,
// "one exists and none fails" for all, COUNT { } for count.
//
// A test that gives a name (as) either binds it, and the conditions that
// use the name go inside its EXISTS (namedDeps), or names an entity bound
// before, whose relationship it tests, some or none.
func (b *builder) via(s scope, c tools.Condition, at string, depth int) (string, []fieldRef, error) {
	_, ref := b.names.bound[c.As]
	if ref && (c.Count != nil || c.Quantifier == tools.QuantifierAll) {
		return "", nil, unplannable(b.tool, at[1:], "count or all on a bound entity")
	}
	h, err := b.relatedAs(s, c.Hop(), c.As, at, depth, c.Quantifier == tools.QuantifierAll && c.Count == nil)
	if err != nil {
		return "", nil, err
	}
	all := append(slices.Clone(h.base), h.conds...)
	var refs []fieldRef
	if c.As != "" && !ref {
		preds, rs, err := b.namedDeps(s, c.As, depth)
		if err != nil {
			return "", nil, err
		}
		all, refs = append(all, preds...), rs
	}
	pred, err := b.quantified(s, c, h, all, depth)
	return pred, refs, err
}

// quantified renders relationship test c over hop h whose related
// entities must pass preds (all).
func (b *builder) quantified(s scope, c tools.Condition, h *hop, all []string, depth int) (string, error) {
	if c.Count != nil {
		op, ok := condOps[c.Count.Operator]
		if !ok || !slices.Contains(tools.CountOperators, c.Count.Operator) {
			return "", unplannable(b.tool, "count operator", c.Count.Operator)
		}
		// Parallel relationships to one entity count it once.
		return countRelated(h.pattern, all, h.m) + " " + op + " " + b.param(c.Count.Value), nil
	}
	switch c.Quantifier {
	case "", tools.QuantifierSome:
		pred := h.exists(all)
		// Registered at any depth: a test nested in another is a start
		// only as a top-level condition of its enclosing hop (related
		// links it as next there), and the statement's own only at the
		// top level (match reads the MATCH's predicates). A test that
		// gives a name, uses one bound outside it or is written inside a
		// binding test (namedDeps) is none: the walk would write it
		// again under new variables, away from the binding test's (names
		// bound and used inside the test go with it).
		named := c.As != "" || b.names.inside > 0 || slices.ContainsFunc(mentioned(c, nil), func(name string) bool {
			_, bound := b.names.bound[name]
			return bound
		})
		if !named && (pins(h.entity, c.Conditions) || h.next != nil) {
			b.starts[pred] = h
		}
		if s.v == "n" && depth == 0 && !named {
			for x := h; x != nil; x = x.next {
				for _, pc := range x.rel.Conditions {
					if x.entity != nil && pc.Operator == "=" && !pc.IgnoreCase {
						b.pins = append(b.pins, pin(x.entity, pc.Field, pc.Value)...)
					}
				}
			}
		}
		return pred, nil
	case tools.QuantifierNone:
		return "NOT " + h.exists(all), nil
	case tools.QuantifierAll:
		if len(h.conds) == 0 {
			return h.exists(h.base), nil
		}
		fails := append(slices.Clone(h.base), negate(h.conds))
		return "(" + h.exists(h.base) + " AND NOT " + h.exists(fails) + ")", nil
	}
	return "", unplannable(b.tool, "quantifier", c.Quantifier)
}

// pinOperators are the operators a range index answers with a seek (an
// equality, a list of them, a prefix).
var pinOperators = []string{"=", "IN", "STARTS WITH"}

// pins reports whether conds, the conditions a relationship test sets on
// its related entity e, pin it through an index: one of them, at the top
// level, compares e's unique field or an indexed field with a pinOperator,
// case-sensitively (toLower hides the property from the index).
func pins(e *model.Entity, conds []tools.Condition) bool {
	if e == nil {
		return false
	}
	for _, c := range conds {
		f := e.Field(c.Field)
		if f != nil && !c.IgnoreCase && slices.Contains(pinOperators, c.Operator) && (f.Indexed || f.Name == e.UniqueField) && !f.NumberText() {
			return true
		}
	}
	return false
}

// relationshipTypesOf lists the model's relationship types in declaration
// order.
func relationshipTypesOf(m *model.Model) []string {
	var out []string
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			if !slices.Contains(out, r.Type) {
				out = append(out, r.Type)
			}
		}
	}
	return out
}

// relFields lists the declared properties of relationship type typ (each
// name once, first declaration wins).
func relFields(m *model.Model, typ string) []*model.Field {
	var out []*model.Field
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			if r.Type != typ {
				continue
			}
			for _, p := range r.Properties {
				if !slices.ContainsFunc(out, func(f *model.Field) bool { return f.Name == p.Name }) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// relFieldsOf lists the declared properties of the relationship types
// (each name once, first declaration wins).
func relFieldsOf(m *model.Model, types []string) []*model.Field {
	var out []*model.Field
	for _, t := range types {
		for _, f := range relFields(m, t) {
			if !slices.ContainsFunc(out, func(g *model.Field) bool { return g.Name == f.Name }) {
				out = append(out, f)
			}
		}
	}
	return out
}

// relProjection renders the declared properties of relationship variable v,
// whose type is one of types: a map projection, chosen by type(v) when the
// types declare different properties (type names are parameters).
func (b *builder) relProjection(v string, types []string) string {
	proj := func(t string) string {
		fs := relFields(b.p.m, t)
		items := make([]string, len(fs))
		for i, f := range fs {
			items[i] = "." + b.q(f.Name)
		}
		// A computed field's value shows beside the properties it reads.
		if rc := b.p.cm.Relationship(t); rc != nil {
			for _, c := range rc.Fields {
				r, err := b.inlineComputed(c, v, "")
				if err != nil {
					b.fail(err)
					continue
				}
				items = append(items, b.q(c.Config.Name)+": "+r.inline)
			}
		}
		return v + " {" + strings.Join(items, ", ") + "}"
	}
	first := proj(types[0])
	same := true
	for _, t := range types[1:] {
		same = same && proj(t) == first
	}
	if same {
		return first
	}
	var whens []string
	for _, t := range types {
		whens = append(whens, "WHEN "+b.named("type_"+itoa(len(whens)), t)+" THEN "+proj(t))
	}
	return "CASE type(" + v + ") " + strings.Join(whens, " ") + " END"
}

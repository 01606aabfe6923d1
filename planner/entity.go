package planner

import (
	"fmt"
	"github.com/ragforge/ragforge/model"
	"slices"
	"strings"
)

// allComputed lists every computed field of the entity.
func (b *builder) allComputed() []fieldRef {
	out := make([]fieldRef, len(b.e.Computed))
	for i, c := range b.e.Computed {
		out[i] = fieldRef{f: &c.Field, c: c}
	}
	return out
}

// search is the common plan of the single-field search tools: the
// predicate on the field (stored: in the MATCH; computed: after computing
// it), an order, a limit, and entity rows that carry the field's computed
// value when it is computed.
type search struct {
	tool   string
	entity string
	field  string
	limit  int
	// pred renders the predicate(s) given the field's Cypher.
	pred func(b *builder, r fieldRef, x string) ([]string, error)
	// orders renders the sort given the field's Cypher; the unique field is
	// appended as tie-break.
	orders func(b *builder, x string) []order
	// extra are additional RETURN items (expr AS name) given the field's
	// Cypher, with their names for the shape.
	extra      func(b *builder, x string) []string
	extraNames []string
	// notNull adds `x IS NOT NULL` to the stored predicates.
	notNull bool
	// alts, when set and not nil for the field, splits pred into
	// alternatives (the temporal types of a datetime span) that search
	// pages one by one (see search).
	alts func(b *builder, r fieldRef) []string
	// before, when set, writes clauses ahead of the entity's MATCH
	// (distance_search's origin), adding what they carry to b.scope;
	// after writes clauses behind the RETURN (a UNION part).
	before func(b *builder) error
	after  func(b *builder)
}

func (p *Planner) search(s search, state model.State) (*Statement, error) {
	e, err := p.entity(s.tool, s.entity, "/entity_type")
	if err != nil {
		return nil, err
	}
	b, err := p.newBuilder(s.tool, e, state)
	if err != nil {
		return nil, err
	}
	r, err := b.field(s.field, "/field")
	if err != nil {
		return nil, err
	}
	b.use(r, model.UseFilter)
	if s.before != nil {
		if err := s.before(b); err != nil {
			return nil, err
		}
	}
	x := b.expr(r)
	var notNull []string
	if s.notNull {
		notNull = []string{x + " IS NOT NULL"}
	}
	// The predicate first: the order may read what it set up (distance's
	// center).
	var alts, list []string
	if s.alts != nil && !b.runtime(r) {
		alts = s.alts(b, r)
	}
	if alts == nil {
		if list, err = s.pred(b, r, x); err != nil {
			return nil, err
		}
	}
	var orders []order
	if s.orders != nil {
		orders = s.orders(b, x)
		b.use(r, model.UseOrder)
	}
	orders = append(orders, b.idOrder())
	limit := clamp(s.limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	pLimit := b.pageSize(limit)
	if alts != nil {
		orders = b.pagedUnion(notNull, alts, orders, pLimit)
	} else {
		var ps preds
		for _, pr := range append(notNull, list...) {
			ps.add(b, r, pr)
		}
		b.match(ps.stored)
		if err := b.ensure(ps.refs...); err != nil {
			return nil, err
		}
		b.filterScope(ps.computed)
	}
	b.line("WITH %s\nORDER BY %s\nLIMIT %s", b.carried(), orderList(orders), pLimit)
	var computed []fieldRef
	if r.c != nil {
		computed = append(computed, r)
	}
	var extra []string
	if s.extra != nil {
		extra = s.extra(b, x)
	}
	if err := b.returnEntities(b.defaultStored(), computed, extra, orders); err != nil {
		return nil, err
	}
	if s.after != nil {
		s.after(b)
	}
	return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: limit, Extra: s.extraNames})
}

// pagedUnion starts a statement whose predicate is a disjunction of
// alternatives on stored properties (alts, each ANDed with preds) that
// each a range index seeks in order: one page per alternative, each in
// the statement's order, so every seek stops at the page, then the pages
// merged by the caller's ORDER BY … LIMIT. With the alternatives ORed in
// one MATCH, Neo4j seeks them as a union that loses the index order and
// sorts every entity in the span. The pages hold the first limit entities
// of the whole order, since each entity passes one alternative or none.
// Each page carries its sort keys (page_key0, …), which the merge and the
// RETURN read (builder.held) instead of n's properties, whose cache a
// node leaving the union has lost; it returns the orders on them.
func (b *builder) pagedUnion(preds, alts []string, orders []order, limit string) []order {
	keys := make([]string, len(orders))
	items := make([]string, len(orders))
	paged := slices.Clone(orders)
	b.held = map[string]string{}
	for i, o := range orders {
		keys[i] = fmt.Sprintf("page_key%d", i)
		items[i] = o.expr + " AS " + keys[i]
		b.held[o.expr] = keys[i]
		paged[i].expr = keys[i]
	}
	b.line("CALL () {")
	for i, alt := range alts {
		if i > 0 {
			b.line("UNION ALL")
		}
		b.match(append(slices.Clone(preds), alt))
		b.line("WITH n, %s\nORDER BY %s\nLIMIT %s\nRETURN n, %s", strings.Join(items, ", "), orderList(paged), limit, strings.Join(keys, ", "))
	}
	b.line("}")
	b.reset(keys...)
	return paged
}

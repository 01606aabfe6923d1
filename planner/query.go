package planner

import (
	"github.com/ragforge/ragforge/tools"
)

// queryEntities plans query_entities:
//
//	MATCH (n:L) WHERE <stored predicates>
//	<computed fields the filter or sort needs>
//	WITH … WHERE <computed predicates>
//	WITH … ORDER BY <sort IS NULL>, <sort>, <unique field> SKIP $offset LIMIT $limit
//	<computed fields only returned>
//	RETURN id, properties, computed ORDER BY …
//
// Entities without a sort value come last in both directions. A sort on a
// stored property (or a ready materialized one) is paged by
// nullsLastFromIndex instead, so a range index on it still gives the order.
func (p *Planner) queryEntities(a *tools.QueryEntitiesArgs, state State) (*Statement, error) {
	e, err := p.entity(tools.QueryEntities, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	b, err := p.newBuilder(tools.QueryEntities, e, state)
	if err != nil {
		return nil, err
	}
	var ps preds
	if err := b.conditions(a.Conditions, "conditions", &ps); err != nil {
		return nil, err
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	offset := a.Offset
	if offset < 0 {
		offset = 0
	}
	if offset > p.limits.MaxOffset {
		offset = p.limits.MaxOffset
	}
	orders, sortRefs, err := b.orderBy(a.OrderBy, &ps)
	if err != nil {
		return nil, err
	}
	pOffset, pLimit := b.named("offset", int64(offset)), b.named("limit", int64(limit))
	if len(sortRefs) == 1 && !b.runtime(sortRefs[0]) {
		if err := b.nullsLastFromIndex(ps, b.expr(sortRefs[0]), orders[1:], pOffset, pLimit); err != nil {
			return nil, err
		}
	} else {
		b.match(ps.stored)
		if err := b.ensure(ps.refs...); err != nil {
			return nil, err
		}
		b.filterScope(ps.computed)
		b.line("WITH %s\nORDER BY %s\nSKIP %s LIMIT %s", b.carried(), orderList(orders), pOffset, pLimit)
	}

	stored, computed := b.defaultStored(), []fieldRef(nil)
	if len(a.Fields) > 0 {
		stored = nil
		for i, name := range a.Fields {
			r, err := b.field(name, "/fields/"+itoa(i))
			if err != nil {
				return nil, err
			}
			if r.c != nil {
				computed = append(computed, r)
			} else if r.f.Name != e.UniqueField {
				stored = append(stored, r)
			}
		}
	}
	// Computed fields the call filtered or sorted on answer "why was this
	// entity chosen": return them, computed or read from their property.
	for _, r := range ps.chosen {
		if !containsRef(computed, r) {
			computed = append(computed, r)
		}
	}
	if err := b.returnEntities(stored, computed, nil, orders); err != nil {
		return nil, err
	}
	return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: limit})
}

// orderBy renders the sort keys of the builder's entity, each with
// entities without a value last (Cypher puts nulls first when
// descending), then the unique field as tie-break unless a key is the
// unique field. It returns the fields sorted on; their computed fields
// join ps so they are computed and returned.
func (b *builder) orderBy(keys tools.OrderByList, ps *preds) ([]order, []fieldRef, error) {
	var orders []order
	var refs []fieldRef
	unique := false
	for i, k := range keys {
		r, err := b.field(k.Field, "/order_by/"+itoa(i)+"/field")
		if err != nil {
			return nil, nil, err
		}
		b.use(r, UseOrder)
		if r.c != nil && !containsRef(ps.chosen, r) {
			ps.chosen = append(ps.chosen, r)
		}
		if b.runtime(r) {
			ps.refs = append(ps.refs, r)
		}
		refs = append(refs, r)
		x := b.expr(r)
		// Entities never tie on the unique field: it ranks, but is no key
		// to compare at the cut.
		unique = r.f.Name == b.e.UniqueField && r.c == nil
		key := fieldKey(r.f)
		if unique {
			key = nil
		}
		orders = append(orders, order{expr: x + " IS NULL"}, order{expr: x, desc: k.Direction == "DESC", key: key})
		if unique {
			break
		}
	}
	if !unique {
		orders = append(orders, b.idOrder())
	}
	return orders, refs, nil
}

func containsRef(rs []fieldRef, r fieldRef) bool {
	for _, x := range rs {
		if x.f == r.f {
			return true
		}
	}
	return false
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

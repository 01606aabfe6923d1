package planner

import (
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// orderBy renders the sort keys of the builder's entity (its fields or
// the aggregates its conditions computed), each with
// entities without a value last (Cypher puts nulls first when
// descending), then the unique field as tie-break unless a key is the
// unique field. It returns the fields sorted on; their computed fields
// join ps so they are computed and returned.
func (b *builder) orderBy(keys tools.OrderByList, ps *preds) ([]order, []fieldRef, error) {
	var orders []order
	var refs []fieldRef
	unique := false
	for i, k := range keys {
		r, err := b.sortField(k, "/order_by/"+itoa(i))
		if err != nil {
			return nil, nil, err
		}
		b.use(r, model.UseOrder)
		b.ordersText(b.mainScope(), r)
		if r.c != nil && !containsRef(ps.chosen, r) {
			ps.chosen = append(ps.chosen, r)
		}
		if b.runtime(r) {
			ps.refs = append(ps.refs, r)
		}
		refs = append(refs, r)
		x, key := b.sortExpr(r)
		// Entities never tie on the unique field: it ranks, but is no key
		// to compare at the cut.
		unique = r.f.Name == b.e.UniqueField && r.c == nil && r.agg == nil
		if unique {
			key = nil
		}
		orders = append(orders, order{expr: x, nullTest: true}, order{expr: x, desc: k.Direction == "DESC", key: key})
		if unique {
			break
		}
	}
	if !unique {
		orders = append(orders, b.idOrder())
	}
	return orders, refs, nil
}

// sortField resolves sort key k at pointer at: the key of an aggregate
// test of the call's conditions, or a field.
func (b *builder) sortField(k tools.OrderBy, at string) (fieldRef, error) {
	for _, ra := range b.aggs {
		if ra.key == k.Field {
			return fieldRef{f: ra.f, agg: ra}, nil
		}
	}
	return b.field(k.Field, at+"/field")
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

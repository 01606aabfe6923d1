package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// The columns of entity rows (Shape ShapeEntities).
const (
	ColID         = "id"
	ColProperties = "properties"
	ColComputed   = "computed"
	ColLabels     = "labels"
)

// The columns of relationship rows (Shape ShapeRelationships): the type,
// the properties (ColProperties), and each end's entity columns (ColID,
// ColLabels, ColProperties) prefixed by ColFrom or ColTo.
const (
	ColType = "type"
	ColFrom = "from_"
	ColTo   = "to_"
)

// defaultStored lists the stored fields an entity result carries when the
// call names none: all of them but the unique field, which is the id.
func (b *builder) defaultStored() []fieldRef {
	var out []fieldRef
	for _, f := range b.e.Fields {
		if f.Name != b.e.UniqueField && !b.p.tenantField(f.Name) {
			out = append(out, fieldRef{f: f})
		}
	}
	return out
}

// order is an ORDER BY item already rendered. key is set on the items
// that rank (what the agent sorts by, a score, a distance), not on the
// null-placement and tie-break items: returnEntities returns those keys
// so the engine can tell a tie at the cut.
type order struct {
	expr string
	desc bool
	key  *SortKey
	// nullTest makes the item expr IS NULL: the entities without a value
	// of expr after those with one.
	nullTest bool
}

// String renders the item as Cypher: the expression (or its null test),
// then DESC when descending.
func (o order) String() string {
	x := o.expr
	if o.nullTest {
		x += " IS NULL"
	}
	if o.desc {
		return x + " DESC"
	}
	return x
}

func orderList(os []order) string {
	parts := make([]string, len(os))
	for i, o := range os {
		parts[i] = o.String()
	}
	return strings.Join(parts, ", ")
}

// idOrder is the tie-break every sorted entity statement ends with, so
// equal sort keys come back in one stable order and offset paging neither
// repeats nor skips entities.
func (b *builder) idOrder() order {
	return order{expr: b.prop("n", b.e.UniqueField)}
}

// returnEntities computes the computed fields to return (after any ORDER
// BY … LIMIT, so only returned rows pay for them) and emits the RETURN of
// entity rows, re-stating the order because later clauses need not keep it.
// The id, computed fields and orders read a value the page holds in a
// variable from there (builder.held).
func (b *builder) returnEntities(stored, computed []fieldRef, extra []string, orders []order) error {
	if err := b.ensure(computed...); err != nil {
		return err
	}
	fields := make([]*model.Field, len(stored))
	for i, r := range stored {
		b.use(r, model.UseProject)
		fields[i] = r.f
	}
	comps := make([]string, 0, len(computed))
	for _, r := range computed {
		b.use(r, model.UseProject)
		comps = append(comps, b.q(r.f.Name)+": "+b.cut(r.f, b.read(b.expr(r))))
	}
	orders = slices.Clone(orders)
	for i := range orders {
		orders[i].expr = b.read(orders[i].expr)
	}
	cols := []string{
		b.read(b.prop("n", b.e.UniqueField)) + " AS " + ColID,
		b.projection("n", fields) + " AS " + ColProperties,
		"{" + strings.Join(comps, ", ") + "} AS " + ColComputed,
	}
	cols = append(cols, extra...)
	cols = append(cols, b.sortKeyColumns(orders)...)
	b.line("RETURN %s", strings.Join(cols, ", "))
	if len(orders) > 0 {
		b.line("ORDER BY %s", orderList(orders))
	}
	return nil
}

// ColTextCut is the parameter holding the length long strings are cut to
// in Cypher (Options.MaxString + 1).
const ColTextCut = "text_cut"

// cut wraps x, the Cypher of field f's value, in left(x, $text_cut) when
// f is a string field and the planner cuts long strings, or in
// substring(x, $offset, $length) when f is the page the call reads.
func (b *builder) cut(f *model.Field, x string) string {
	if b.page != nil && b.page.f == f {
		return "substring(" + x + ", " + b.page.from + ", " + b.page.length + ")"
	}
	if b.p.opts.MaxString <= 0 || f.Type.Kind() != model.String {
		return x
	}
	return "left(" + x + ", " + b.named(ColTextCut, int64(b.p.opts.MaxString+1)) + ")"
}

// projection renders a map projection of node variable v's stored fields,
// string fields cut: v {.a, b: left(v.b, $text_cut)}.
func (b *builder) projection(v string, fields []*model.Field) string {
	return v + " {" + strings.Join(b.projectionItems(v, fields), ", ") + "}"
}

// projectionItems are the items of projection's map.
func (b *builder) projectionItems(v string, fields []*model.Field) []string {
	items := make([]string, len(fields))
	for i, f := range fields {
		x := b.prop(v, f.Name)
		// A value the page carries (builder.held) is not read again.
		if h := b.read(x); h != x {
			items[i] = b.q(f.Name) + ": " + b.cut(f, h)
		} else if c := b.cut(f, x); c != x {
			items[i] = b.q(f.Name) + ": " + c
		} else {
			items[i] = "." + b.q(f.Name)
		}
	}
	return items
}

// sortKeyColumns records the ranking keys of orders for the shape and
// returns the RETURN items of those that no other column holds.
func (b *builder) sortKeyColumns(orders []order) []string {
	var cols []string
	for _, o := range orders {
		if o.key == nil {
			continue
		}
		k := *o.key
		if k.Column == "" {
			k.Column = ColSortKey + itoa(len(cols))
			cols = append(cols, o.expr+" AS "+k.Column)
		}
		b.sortKeys = append(b.sortKeys, k)
	}
	return cols
}

// fieldKey is the sort key of a field's value: an instant in epoch units
// when an epoch storage holds it.
func fieldKey(f *model.Field) *SortKey {
	k := &SortKey{Name: f.Name}
	if f.Type.Kind() == model.Datetime {
		k.Epoch = epochUnit(f.StoredAs)
	}
	return k
}

// epochUnit is the unit of an epoch storage ("s" or "ms"), "" for others.
func epochUnit(s model.DatetimeStorage) string {
	switch s {
	case model.EpochSeconds:
		return "s"
	case model.EpochMillis:
		return "ms"
	}
	return ""
}

// scoreOrder ranks by the score column, x being its Cypher, highest first.
func scoreOrder(x string) order {
	return order{expr: x, desc: true, key: &SortKey{Name: "score", Column: "score"}}
}

// anyNode is a node variable that may be of several entity types, as
// Cypher: the label test, the unique field's value and the stored fields
// but the unique and tenant ones (each chosen by label when the types
// are several).
type anyNode struct {
	label, id, props string
}

// anyEntity renders node variable v of one of the entity types names
// (explore_relationships' targets, query_relationships' ends).
func (b *builder) anyEntity(v string, names []string) anyNode {
	var out, ids, projs []string
	for _, name := range names {
		e := b.p.m.Entity(name)
		var fs []*model.Field
		for _, f := range e.Fields {
			if f.Name != e.UniqueField && !b.p.tenantField(f.Name) {
				fs = append(fs, f)
			}
		}
		label := v + ":" + b.q(name)
		out = append(out, label)
		ids = append(ids, b.prop(v, e.UniqueField))
		projs = append(projs, b.projection(v, fs))
	}
	if len(names) == 1 {
		return anyNode{label: out[0], id: ids[0], props: projs[0]}
	}
	byLabel := func(xs []string) string {
		whens := make([]string, len(xs))
		for i, x := range xs {
			whens[i] = "WHEN " + out[i] + " THEN " + x
		}
		return "CASE " + strings.Join(whens, " ") + " END"
	}
	return anyNode{label: "(" + strings.Join(out, " OR ") + ")", id: byLabel(ids), props: byLabel(projs)}
}

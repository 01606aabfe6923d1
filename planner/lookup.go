package planner

import (
	"fmt"

	"github.com/ragforge/ragforge/model"
)

// colMissing is the column of Shape.Missing.
const colMissing = "missing"

// lookup is the predicate that pins node variable v, an e, by its unique
// field to value (the parameter named param, given at path): an index
// seek, since every entity's unique field has a constraint. Uses of the
// field are recorded for n only, the builder's entity.
func (b *builder) lookup(e *model.Entity, v, param string, value any, path string) (string, error) {
	r := fieldRef{f: e.Field(e.UniqueField), node: v}
	if v == "n" {
		r.node = ""
		b.use(r, model.UseFilter)
	}
	val, err := b.value(r, value, path)
	if err != nil {
		return "", err
	}
	return b.prop(v, r.f.Name) + " = " + b.named(param, val), nil
}

// notFound is the note of a result that lacks the e whose unique field is
// id: `no Airport has code "XXX"`.
func notFound(e *model.Entity, id any) string { return noneHas(e.Name, e.UniqueField, id) }

// noneHas says that no entity has the value in the field: `no Supplier
// has companyName "Plutzer"`.
func noneHas(entity, field string, v any) string {
	if s, ok := v.(string); ok {
		v = fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("no %s has %s %v", entity, field, v)
}

// pin is the Pin of field = v on e when the field holds text (the closest
// values of a number or date say little), else nil.
func pin(e *model.Entity, field string, v any) []Pin {
	f := e.Field(field)
	s, ok := v.(string)
	if f == nil || !ok || f.Type.Kind() != model.String {
		return nil
	}
	return []Pin{{Entity: e.Name, Field: field, Value: s, Note: noneHas(e.Name, field, s)}}
}

// textPage is the page of one string field a call reads whole
// (get_entity_by_id's field, textPage): the field and the parameters of its first
// character and length.
type textPage struct {
	f            *model.Field
	from, length string
}

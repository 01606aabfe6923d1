package planner

import (
	"slices"

	"github.com/ragforge/ragforge/model"
)

// TextOrder is a stored text field a statement compares with <, <=, >,
// >= or sorts by (Shape.TextOrdered): Neo4j orders text character by
// character, so "10" < "9" and "2024-1-5" > "2024-10-01". The engine
// samples the field and, when its values look like numbers or dates,
// says the answer compared them as text.
type TextOrder struct {
	// Owner is the entity, or the relationship type when Relationship.
	Owner        string `json:"owner"`
	Field        string `json:"field"`
	Relationship bool   `json:"relationship,omitempty"`
}

// rangeOperators are the comparisons that order their operands.
var rangeOperators = []string{"<", "<=", ">", ">="}

// ordersText records that the statement orders field r of scope s as
// text, when r is a stored string field (an enum's values are words).
func (b *builder) ordersText(s scope, r fieldRef) {
	if r.c != nil || r.f.Type.Kind() != model.String || r.f.Type == model.Enum {
		return
	}
	t := TextOrder{Owner: s.name, Field: r.f.Name, Relationship: s.e == nil}
	if !slices.Contains(b.textOrdered, t) {
		b.textOrdered = append(b.textOrdered, t)
	}
}

package tools

import (
	"slices"

	"github.com/ragforge/ragforge/model"
)

// EntitiesOf lists the entities of offers.
func EntitiesOf(offers []*EntityOffer) []*model.Entity {
	out := make([]*model.Entity, len(offers))
	for i, o := range offers {
		out[i] = o.Entity
	}
	return out
}

// fuzzySupported reports whether the server can run fuzzy matching on a
// field: through APOC on any string field, or through the full-text index
// that covers it.
func (c *Catalog) fuzzySupported(e *model.Entity, f *FieldOffer) bool {
	if c.caps.APOC {
		return true
	}
	return c.caps.FullText && f.Computed == nil && e.FullTextIndex != nil && slices.Contains(e.FullTextIndex.Fields, f.Field.Name)
}

// SpecializedHead is the common schema head of the specialized tools:
// entity_type and field.
func SpecializedHead(offers []*EntityOffer) []Prop {
	return []Prop{EntityTypeProp(OfferEntities(offers)), FieldProp("field")}
}

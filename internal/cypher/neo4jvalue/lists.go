package neo4jvalue

import (
	"slices"
	"sort"

	"github.com/ragforge/ragforge/model"
)

// ListProperties are the properties m declares as list fields, on
// entities and relationships, sorted: a declared list of numbers is data
// the agent asked for, returned whole however long, never taken for an
// embedding.
func ListProperties(m *model.Model) []string {
	var out []string
	add := func(fs []*model.Field) {
		for _, f := range fs {
			if f.Type.Kind() == model.List && !slices.Contains(out, f.Name) {
				out = append(out, f.Name)
			}
		}
	}
	for _, e := range m.Entities {
		add(e.Fields)
		for _, r := range e.Relationships {
			add(r.Properties)
		}
	}
	sort.Strings(out)
	return out
}

// embeddingLike reports whether the list xs read from name is left out as
// an embedding: long enough and all numbers, and not a declared list.
func (c *Converter) embeddingLike(name string, xs []any) bool {
	return c != nil && embedding(xs) && !slices.Contains(c.Lists, name)
}

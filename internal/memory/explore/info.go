package explore

import (
	"slices"

	"github.com/ragforge/ragforge/model"
)

// textMode is how an entity is searched by name.
type textMode int

const (
	// textNone: the entity has no text to match (found only as a
	// neighbour or by meaning).
	textNone textMode = iota
	// textFullText: fuzzy terms through the entity's full-text index.
	textFullText
	// textFields: a case-insensitive match on a few string fields.
	textFields
)

// entityInfo is what explore needs of one entity.
type entityInfo struct {
	e *model.Entity
	// top is the config's count of hits kept (before a call's override).
	top  int
	text textMode
	// textFields are matched when text is textFields: the indexed string
	// fields, else the string display fields.
	textFields []string
	// display are the fields a hit or neighbour shows (exposed, never the
	// tenant field nor an embedding), the unique field apart.
	display []string
	// recency is the recency field when the entity has it, else nil.
	recency *model.Field
}

func newEntityInfo(m *model.Model, e *model.Entity) *entityInfo {
	ex := m.Explore
	ei := &entityInfo{e: e, top: ex.DefaultTop}
	if ei.top <= 0 {
		ei.top = fallbackTop
	}
	if n, ok := ex.Top[e.Name]; ok && n > 0 {
		ei.top = n
	}
	ei.top = min(ei.top, MaxTop)
	hidden := func(f *model.Field) bool { return !m.Shown(e, f) }
	// A hit shows what names and describes its node (model.DisplayFields),
	// so an agent can tell hits apart without a second call.
	ei.display = m.DisplayFields(e)
	if f := e.Field(ex.RecencyField); f != nil && f.Type.Kind() == model.Datetime {
		ei.recency = f
		if !hidden(f) && !slices.Contains(ei.display, f.Name) {
			ei.display = append(ei.display, f.Name)
		}
	}
	switch {
	case e.FullTextIndex != nil:
		ei.text = textFullText
	default:
		for _, f := range e.Fields {
			if f.Indexed && f.Type.Kind() == model.String && !hidden(f) {
				ei.textFields = append(ei.textFields, f.Name)
			}
		}
		if len(ei.textFields) == 0 {
			for _, name := range ei.display {
				if e.Field(name).Type.Kind() == model.String {
					ei.textFields = append(ei.textFields, name)
				}
			}
		}
		if len(ei.textFields) > 0 {
			ei.text = textFields
		}
	}
	return ei
}

// relInfo describes the declared relationship types: edges of other types
// are not the graph's and are never returned.
type relInfo struct {
	types []string
	// props are each type's declared properties (the first declaration of
	// a name wins when several entities declare the type).
	props map[string][]*model.Field
	// relevance is the property that ranks edges ("" when no type
	// declares one); dates rank edges next, the first set one counting.
	relevance string
	dates     []string
}

// relevanceProperty is the relationship property whose value ranks edges.
const relevanceProperty = "relevance"

func newRelInfo(m *model.Model) *relInfo {
	ri := &relInfo{props: map[string][]*model.Field{}}
	updated, created := "updated_at", "created_at"
	if p := m.Provenance; p != nil {
		if p.UpdatedAt != "" {
			updated = p.UpdatedAt
		}
		if p.CreatedAt != "" {
			created = p.CreatedAt
		}
	}
	ri.dates = []string{updated, created}
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			if !slices.Contains(ri.types, r.Type) {
				ri.types = append(ri.types, r.Type)
			}
			for _, p := range r.Properties {
				if !slices.ContainsFunc(ri.props[r.Type], func(f *model.Field) bool { return f.Name == p.Name }) {
					ri.props[r.Type] = append(ri.props[r.Type], p)
				}
				if p.Name == relevanceProperty && p.Type.Kind() == model.Number {
					ri.relevance = relevanceProperty
				}
			}
		}
	}
	return ri
}

// prop returns the declared property name of type typ, or nil.
func (ri *relInfo) prop(typ, name string) *model.Field {
	i := slices.IndexFunc(ri.props[typ], func(f *model.Field) bool { return f.Name == name })
	if i < 0 {
		return nil
	}
	return ri.props[typ][i]
}

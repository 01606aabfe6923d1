package model

import "slices"

// conventionalDisplay are the fields that name and describe a node when an
// entity has them, in the order a result shows them.
var conventionalDisplay = []string{"name", "title", "canonical_name", "type", "content_type", "kind", "description", "summary"}

// Shown reports whether a result may show field f of e beside e's unique
// field: f is exposed to tools, and is neither the unique field, the
// tenant field (which no agent sees) nor the property of one of e's
// embeddings.
func (m *Model) Shown(e *Entity, f *Field) bool {
	return f.Exposed && f.Name != e.UniqueField && (m.Tenant == nil || f.Name != m.Tenant.Field) &&
		!slices.ContainsFunc(e.VectorIndexes, func(vi *VectorIndex) bool { return vi.VectorProperty() == f.Name })
}

// DisplayFields are the fields a tool shows beside an entity's unique
// field so that an agent can tell which node a result names without a
// second call (the explore and history tools): the fields the config's
// analytics blocks show for e when they name any (the config's own choice
// of what identifies its nodes: code-rag's Scope shows name, type and
// file), else the conventional naming fields e has (name, title,
// canonical_name, type, content_type, kind, description, summary); only
// fields Shown allows.
func (m *Model) DisplayFields(e *Entity) []string {
	var out []string
	add := func(name string) {
		if f := e.Field(name); f != nil && m.Shown(e, f) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	if a := m.Analytics; a != nil {
		graphs := a.Importance
		for _, c := range a.Clusters {
			graphs = append(graphs[:len(graphs):len(graphs)], &c.AnalyticsGraph)
		}
		for _, g := range graphs {
			if g.Entity == e.Name {
				for _, name := range g.Show {
					add(name)
				}
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, name := range conventionalDisplay {
		add(name)
	}
	return out
}

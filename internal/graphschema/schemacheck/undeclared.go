package schemacheck

import (
	"fmt"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/internal/graphschema/introspect"
	"github.com/ragforge/ragforge/model"
)

// undeclared warns about what the graph holds and the config leaves out:
// labels no entity names, relationship types no relationship, tree or
// change history names, and properties of declared labels and types no
// field covers, each with how many nodes or relationships hold it. No tool
// reaches them, so an agent would conclude, wrongly, that the graph has no
// such data (issue 30: a movies config without PRODUCED made producers look
// unconnected). The findings sit at the config's first entity (or the
// declaring entity or relationship), since no line declares them.
func (c *checker) undeclared(m *model.Model, cm *computed.Model) {
	if len(m.Entities) == 0 {
		return
	}
	at := model.Pos{File: m.Entities[0].Pos.File}
	// types holds each declared relationship type's first declaration and
	// its path; entities each entity's path.
	types := map[string]*model.Relationship{}
	paths := map[string]string{}
	for i, e := range m.Entities {
		paths[e.Name] = fmt.Sprintf("entities.%d", i)
		for j, r := range e.Relationships {
			if types[r.Type] == nil {
				types[r.Type], paths[r.Type] = r, fmt.Sprintf("entities.%d.relationships.%d", i, j)
			}
		}
	}
	known := map[string]bool{}
	for _, t := range m.Trees {
		known[t.Contains] = true
	}
	if m.ChangeTracking != nil {
		r := m.ChangeTracking.Resolved()
		known[r.Relationship] = true
		if m.Entity(r.Label) == nil {
			known[r.Label] = true // its properties are change_tracking's own
		}
	}
	for _, name := range c.s.DataLabels() {
		e := m.Entity(name)
		if e == nil {
			if !known[name] && !c.suggested["\x00"+name] {
				c.add(Warning, at, "entities", "the graph has %d %s node(s) the config declares no entity for: no tool reaches them; declare the entity or leave them out knowingly",
					c.s.Labels[name].Count, name)
			}
			continue
		}
		c.undeclaredProperties(e.Pos, paths[name], "NODE", name, c.s.Labels[name].Properties, nodeProperties(m, e, cm.Entity(e.Name)))
	}
	for _, name := range c.s.RelTypeNames() {
		t := c.s.RelTypes[name]
		r := types[name]
		if r == nil {
			if !known[name] && !c.suggested["\x00"+name] {
				c.add(Warning, at, "entities", "the graph has %d %s relationship(s) (%s) the config declares no relationship for: explore_relationships and the related conditions cannot follow them, so their ends look unconnected",
					t.Count, name, endpoints(t))
			}
			continue
		}
		declared := map[string]bool{}
		for _, e := range m.Entities {
			for _, rr := range e.Relationships {
				if rr.Type == name {
					for _, p := range rr.Properties {
						declared[p.Name] = true
					}
				}
			}
		}
		c.undeclaredProperties(r.Pos, paths[name], "RELATIONSHIP", name, t.Properties, declared)
	}
}

// undeclaredProperties warns about each property of a label or
// relationship type that declared does not hold, with how many nodes or
// relationships hold it.
func (c *checker) undeclaredProperties(pos model.Pos, path, entityType, owner string, props map[string]*introspect.Property, declared map[string]bool) {
	for _, p := range introspect.PropertyNames(props) {
		what := "node"
		if entityType == "RELATIONSHIP" {
			what = "relationship"
		}
		if declared[p] || c.suggested[owner+" "+what+"\x00"+p] {
			continue
		}
		n, err := introspect.CountHolding(c.ctx, c.d, c.db, entityType, owner, p)
		if err != nil {
			if c.err == nil {
				c.err = err
			}
			return
		}
		if n == 0 {
			continue // the schema procedures still list a property no node holds any more
		}
		c.add(Warning, pos, path, "%d %s %s(s) hold the property %s (%s), which the config does not declare: no tool filters on it or returns it",
			n, owner, what, p, orNone(props[p].Types))
	}
}

// nodeProperties are the properties of an entity's nodes the config
// accounts for: its fields, the tenant and provenance properties, stored
// computed values, embeddings and their text hashes, and tree fields.
func nodeProperties(m *model.Model, e *model.Entity, ce *computed.Entity) map[string]bool {
	known := map[string]bool{e.UniqueField: true}
	for _, f := range e.Fields {
		known[f.Name] = true
	}
	if m.Tenant != nil {
		known[m.Tenant.Field] = true
	}
	if p := m.Provenance; p != nil {
		for _, name := range []string{p.SourceField, p.ConfidenceField, p.UpdatedAt, p.CreatedAt} {
			known[name] = true
		}
	}
	for _, cf := range e.Computed {
		known[cf.Name] = true
		if ce != nil && ce.Field(cf.Name) != nil {
			known[ce.Field(cf.Name).CacheProperty()] = true
		}
	}
	for _, v := range e.VectorIndexes {
		known[v.VectorProperty()], known[v.HashProperty()] = true, true
	}
	for _, t := range m.Trees {
		known[t.Path], known[t.Size], known[t.Language] = true, true, true
	}
	return known
}

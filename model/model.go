// Package model holds the typed, validated description of a graph that every
// other ragforge package reads: entities, their fields, computed fields,
// relationships and indexes, with the tool modes and query operators the CUE
// schema derived for each field.
//
// A Model is produced by config.Load and is read-only afterwards; nothing in
// it comes from an agent, so its identifiers are the only names that may
// appear (escaped) in generated Cypher.
package model

import "time"

// Model is a whole validated config.
type Model struct {
	// Entities in config order; tools list them in this order.
	Entities []*Entity
	// Materialization is the policy for `materialized: auto` computed fields,
	// with the schema's defaults filled in.
	Materialization Materialization
	// ToolDocs holds extra retrieval keywords and examples, keyed by tool or
	// entity name.
	ToolDocs map[string]ToolDoc
	// Trees are the declared containment trees; each adds the tree tools.
	Trees []*Tree
	// Tenant, when set, scopes every tool to the tenant bound to the call.
	Tenant *Tenant
	// Provenance, when set, names the properties every write records.
	Provenance *Provenance
	// Explore, when set, adds the explore tool.
	Explore *Explore
	// ChangeTracking, when set, records changes of the tracked entities
	// and adds the change-history tools.
	ChangeTracking *ChangeTracking
	// Analytics, when set, adds the graph analytics tools.
	Analytics *Analytics
	// Similarity adds find_similar_<entity> for each entity it holds, in
	// config order.
	Similarity []*Similar
	// Profiles are the named tool sets, in config order.
	Profiles []*Profile
}

// Entity returns the entity with the given name, or nil.
func (m *Model) Entity(name string) *Entity {
	for _, e := range m.Entities {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// EntityNames lists the entity names in config order, for error messages
// that name the valid choices.
func (m *Model) EntityNames() []string {
	names := make([]string, len(m.Entities))
	for i, e := range m.Entities {
		names[i] = e.Name
	}
	return names
}

// Entity is a node label and everything an agent may know about it.
type Entity struct {
	Name        string
	Description string
	// UniqueField names the field that identifies a node (get_entity_by_id).
	UniqueField   string
	Fields        []*Field
	Computed      []*ComputedField
	Relationships []*Relationship
	VectorIndexes []*VectorIndex
	// FullTextIndex is nil when the entity has none.
	FullTextIndex *FullTextIndex
	// ExposedTools narrows individual tools for this entity, by tool name.
	ExposedTools map[string]ToolControl
	// Writable adds create_<entity> and update_<entity>.
	Writable Writable
	// Key derives the unique field of a writable entity; nil when writes
	// must name it.
	Key *Key
	// Immutable fields are set on create and refused by update.
	Immutable []string
	// Required fields must be given on create.
	Required []string
	Pos      Pos
}

// Field returns the stored field with the given name, or nil.
func (e *Entity) Field(name string) *Field {
	for _, f := range e.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// ComputedField returns the computed field with the given name, or nil.
func (e *Entity) ComputedField(name string) *ComputedField {
	for _, c := range e.Computed {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// FieldNames lists stored then computed field names, in config order: the
// valid choices an error message names.
func (e *Entity) FieldNames() []string {
	names := make([]string, 0, len(e.Fields)+len(e.Computed))
	for _, f := range e.Fields {
		names = append(names, f.Name)
	}
	for _, c := range e.Computed {
		names = append(names, c.Name)
	}
	return names
}

// Materialization is the policy for `materialized: auto` computed fields.
type Materialization struct {
	// Window is how far back uses are counted.
	Window time.Duration
	// MinUses is how many filter and order uses within Window make a field
	// worth storing.
	MinUses int
	// MinNodes is how many nodes the label must hold before storing pays.
	MinNodes int
	// UnusedAfter dematerializes a field with no use for that long.
	UnusedAfter time.Duration
}

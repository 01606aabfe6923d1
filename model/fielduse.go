package model

// The types below describe how statements use a config's fields and which
// computed fields are materialized. The planner writes them and
// materialize reads them (and fills State), so they live here, below
// both, rather than in either (docs/design.md, "Layers").

// FieldRef names one field of one entity.
type FieldRef struct {
	Entity string
	Field  string
}

// State is the materialization state the planner plans with: the computed
// fields whose cache property is materialized and ready to read. A field
// that is missing (or false) is computed at query time, so a nil State is
// always safe. materialize fills it from the state nodes in Neo4j; the
// planner only reads it.
type State map[FieldRef]bool

// Ready reports whether entity.field may be read from its cache property.
func (s State) Ready(entity, field string) bool { return s[FieldRef{entity, field}] }

// UseKind is how a statement uses a field.
type UseKind string

// The kinds of field use the materialization policy counts.
const (
	UseFilter    UseKind = "filter"
	UseOrder     UseKind = "order"
	UseAggregate UseKind = "aggregate"
	UseGroup     UseKind = "group"
	UseProject   UseKind = "project"
)

// Use is one use of one field by a statement.
type Use struct {
	Entity string  `json:"entity"`
	Field  string  `json:"field"`
	Kind   UseKind `json:"kind"`
	// Computed is true for a computed field.
	Computed bool `json:"computed,omitempty"`
	// Materialized is true when the statement read the field's cache
	// property instead of computing it.
	Materialized bool `json:"materialized,omitempty"`
}

package planner

// FieldRef names one field of one entity.
type FieldRef struct {
	Entity string
	Field  string
}

// State is the materialization state the planner plans with: the computed
// fields whose cache property is materialized and ready to read. A field
// that is missing (or false) is computed at query time, so a nil State is
// always safe. A later stage fills it from the state nodes in Neo4j; the
// planner only reads it.
type State map[FieldRef]bool

// Ready reports whether entity.field may be read from its cache property.
func (s State) Ready(entity, field string) bool { return s[FieldRef{entity, field}] }

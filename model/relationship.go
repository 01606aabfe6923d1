package model

// Direction is a relationship's direction seen from the declaring entity.
type Direction string

// The relationship directions.
const (
	// Outgoing is (entity)-[:TYPE]->(target).
	Outgoing Direction = "outgoing"
	// Incoming is (entity)<-[:TYPE]-(target).
	Incoming Direction = "incoming"
	// Both matches either direction.
	Both Direction = "both"
)

// Relationship is a relationship type an entity takes part in.
type Relationship struct {
	Type string
	// Targets are the entities at the other end (one or more).
	Targets     []string
	Direction   Direction
	Description string
	// Properties are the typed properties of the relationship.
	Properties []*Field
	// Computed are the relationship's computed fields: expressions over
	// its properties and its two ends' fields (`from.x`, `to.x`),
	// computed at query time (never materialized).
	Computed []*ComputedField
	// Writable adds this type to create_relationship and
	// update_relationship.
	Writable bool
	Pos      Pos
}

// Fields are the relationship's properties, then its computed fields:
// everything a condition, a sort or an aggregate may name.
func (r *Relationship) Fields() []*Field {
	out := make([]*Field, 0, len(r.Properties)+len(r.Computed))
	out = append(out, r.Properties...)
	for _, c := range r.Computed {
		out = append(out, &c.Field)
	}
	return out
}

// VectorIndex is a Neo4j vector index over an embedding property.
type VectorIndex struct {
	Name string
	// Field is the text field whose embedding the index holds.
	Field string
	// Property holds the embedding vector.
	Property   string
	Dimensions int
	// Similarity is "cosine" or "euclidean".
	Similarity string
	// Model names the embedding model, for descriptions; may be "".
	Model string
	Pos   Pos
}

// FullTextIndex is a Neo4j full-text index over string fields.
type FullTextIndex struct {
	Name     string
	Fields   []string
	Analyzer string
	Pos      Pos
}

// ToolControl narrows one generated tool for an entity.
type ToolControl struct {
	Enabled bool
	// Fields, Modes and Operators, when non-nil, restrict the tool to them.
	Fields    []string
	Modes     []string
	Operators []string
}

// ToolDoc carries extra retrieval hints for a tool or an entity.
type ToolDoc struct {
	Keywords []string
	Examples []Example
}

// Example is a user message that a tool serves, with optional notes.
type Example struct {
	User  string
	Notes string
}

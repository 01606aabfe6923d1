package model

// Tenant scopes every tool to one tenant's nodes: each node a statement
// reads or writes carries Field = the tenant the host bound to the call.
// The field is never shown to an agent nor accepted from one.
type Tenant struct {
	// Field is the node property that holds the tenant (e.g. user_id).
	Field string
	Pos   Pos
}

// Provenance names the properties every write sets, so a memory records
// where it came from, how sure the agent was and when it changed.
type Provenance struct {
	// SourceField receives the write's source argument (e.g. the
	// conversation it came from); "" when not recorded.
	SourceField string
	// ConfidenceField receives the write's confidence (0..1); "" when not
	// recorded.
	ConfidenceField string
	// UpdatedAt receives the time of the write, stored as the entity's
	// field of that name is stored; "" when not recorded.
	UpdatedAt string
	// CreatedAt receives the time a create made the node; "" when not
	// recorded.
	CreatedAt string
	// Required makes every write give its source and confidence (the
	// config then names SourceField and ConfidenceField).
	Required bool
	Pos      Pos
}

// Writable says which write tools an entity has.
type Writable struct {
	Create bool
	Update bool
}

// Any reports whether the entity has a write tool at all.
func (w Writable) Any() bool { return w.Create || w.Update }

// Key is how a writable entity's unique key is derived from its inputs, so
// that writing the same thing twice finds the same node (MERGE) instead of
// making a second one.
type Key struct {
	// Field is the property that holds the key (the entity's unique field).
	Field string
	// From lists the fields whose values make the key, in order; the
	// tenant field may be among them (its value is the bound tenant).
	From []string
	// Prefix is prepended to the key (e.g. person_).
	Prefix string
	Pos    Pos
}

// Explore configures the explore tool of a memory graph.
type Explore struct {
	// Top is how many hits explore keeps per entity, by entity name.
	Top map[string]int
	// DefaultTop is the count for entities Top does not name.
	DefaultTop int
	// RecencyField is the datetime field whose age lowers salience ("" for
	// none).
	RecencyField string
	// HalfLifeDays is the age at which recency halves salience.
	HalfLifeDays float64
	// Owner finds the user's own node: the entity and its boolean field
	// that is true on it; both "" when the graph has none.
	OwnerEntity, OwnerField string
	Pos                     Pos
}

// Similar configures the find_similar tool of one entity.
type Similar struct {
	// Entity is the entity whose nodes are compared.
	Entity string
	// Index is the vector index semantic mode compares, "" when the
	// entity has none (no semantic mode).
	Index string
	// Via are the relationship types structural mode compares neighbours
	// over, in either direction; none when the entity has none (no
	// structural mode).
	Via []string
	Pos Pos
}

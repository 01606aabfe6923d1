package model

// ChangeTracking records every change of the tracked entities as a
// Change node joined to the changed node: the write tools record one in
// each write's transaction, and a git import records a repository's
// commits. The change-history tools read them.
type ChangeTracking struct {
	// Entities are the tracked entities' names, in config order.
	Entities []string
	// Label is the Change node's label.
	Label string
	// Relationship is the type from a changed node to its Change.
	Relationship string
	// Fields name the Change's properties.
	Fields ChangeFields
	// MaxDiffBytes cuts a Change's diff and each of its old and new values.
	MaxDiffBytes int
	// Git maps a repository's files and diff hunks to nodes; nil when the
	// config declares no git import.
	Git *GitImport
	Pos Pos
}

// Tracks reports whether changes of the named entity are recorded.
func (c *ChangeTracking) Tracks(entity string) bool {
	if c == nil {
		return false
	}
	for _, e := range c.Entities {
		if e == entity {
			return true
		}
	}
	return false
}

// Default names and sizes of the schema (#ChangeTracking); a test holds
// them to it.
const (
	DefaultChangeLabel        = "Change"
	DefaultChangeRelationship = "HAS_CHANGE"
	DefaultMaxDiffBytes       = 16384
)

// Resolved returns c with the schema's default for every name or size a
// model built in Go left empty (a loaded config has them all).
func (c ChangeTracking) Resolved() ChangeTracking {
	if c.Label == "" {
		c.Label = DefaultChangeLabel
	}
	if c.Relationship == "" {
		c.Relationship = DefaultChangeRelationship
	}
	if c.MaxDiffBytes == 0 {
		c.MaxDiffBytes = DefaultMaxDiffBytes
	}
	d := DefaultChangeFields
	def := d.Roles()
	for i, r := range c.Fields.roles() {
		if *r.name == "" {
			*r.name = def[i][1]
		}
	}
	return c
}

// ChangeFields are the property names of a Change, by role. The config's
// defaults are DefaultChangeFields.
type ChangeFields struct {
	// Key identifies the Change (a write's random UUID; for an import,
	// the commit and the changed node, so a rerun finds it).
	Key string
	// EntityType and EntityKey name the changed node: its label and its
	// unique field's value.
	EntityType, EntityKey string
	// Kind is created, updated or deleted.
	Kind string
	// Timestamp is when the change happened, a native DATETIME.
	Timestamp string
	// ChangedFields lists the fields a write changed.
	ChangedFields string
	// OldValues and NewValues are JSON objects of the changed fields'
	// values before and after.
	OldValues, NewValues string
	// Diff is a unified diff of the changed text; LinesAdded and
	// LinesRemoved count its lines.
	Diff, LinesAdded, LinesRemoved string
	// Source and Confidence are the write's provenance.
	Source, Confidence string
	// Commit, Author and Message describe an imported commit.
	Commit, Author, Message string
	// RelationshipType, Direction, OtherEntityType and OtherEntityKey
	// name the relationship a relationship write changed, seen from the
	// changed node: its type, the stored direction (outgoing when the node
	// is its source, incoming when its target, both for a type declared
	// both ways) and the node at its other end. A Change of the node's own
	// fields has none of them.
	RelationshipType, Direction, OtherEntityType, OtherEntityKey string
	// RenamedFrom is, on a git import's Change of a commit that renamed
	// or moved the file (git's rename detection), the file's path before
	// the commit, so a history that runs back through a rename says where.
	RenamedFrom string
}

// DefaultChangeFields are the schema's default property names
// (#ChangeFields); a test holds them to it.
var DefaultChangeFields = ChangeFields{
	Key: "uuid", EntityType: "entity_type", EntityKey: "entity_key", Kind: "kind", Timestamp: "timestamp",
	ChangedFields: "changed_fields", OldValues: "old_values", NewValues: "new_values", Diff: "diff",
	LinesAdded: "lines_added", LinesRemoved: "lines_removed", Source: "source", Confidence: "confidence",
	Commit: "commit", Author: "author", Message: "message",
	RelationshipType: "relationship_type", Direction: "direction", OtherEntityType: "other_entity_type", OtherEntityKey: "other_entity_key",
	RenamedFrom: "renamed_from",
}

// Roles lists the property names by role (the keys of
// change_tracking.change.fields), in the schema's order.
func (f ChangeFields) Roles() [][2]string {
	var out [][2]string
	for _, r := range f.roles() {
		out = append(out, [2]string{r.role, *r.name})
	}
	return out
}

// ChangeFieldsOf reads property names keyed by role (as Roles lists
// them); a role it lacks stays "".
func ChangeFieldsOf(byRole map[string]string) ChangeFields {
	var f ChangeFields
	for _, r := range f.roles() {
		*r.name = byRole[r.role]
	}
	return f
}

// roles points at each property name of f, with its role.
func (f *ChangeFields) roles() []struct {
	role string
	name *string
} {
	type r = struct {
		role string
		name *string
	}
	return []r{
		{"key", &f.Key}, {"entity_type", &f.EntityType}, {"entity_key", &f.EntityKey}, {"kind", &f.Kind},
		{"timestamp", &f.Timestamp}, {"changed_fields", &f.ChangedFields}, {"old_values", &f.OldValues},
		{"new_values", &f.NewValues}, {"diff", &f.Diff}, {"lines_added", &f.LinesAdded},
		{"lines_removed", &f.LinesRemoved}, {"source", &f.Source}, {"confidence", &f.Confidence},
		{"commit", &f.Commit}, {"author", &f.Author}, {"message", &f.Message},
		{"relationship_type", &f.RelationshipType}, {"direction", &f.Direction},
		{"other_entity_type", &f.OtherEntityType}, {"other_entity_key", &f.OtherEntityKey},
		{"renamed_from", &f.RenamedFrom},
	}
}

// GitImport maps a repository to the graph: a changed path to the File
// node whose path field holds it, and a diff hunk to the Scope nodes of
// that file whose line range it touches.
type GitImport struct {
	// FileEntity and FilePath are the file entity and its path field.
	FileEntity, FilePath string
	// ScopeEntity is "" when hunks are not mapped to scopes; ScopeFile,
	// ScopeStart and ScopeEnd are its fields holding the file's path and
	// the first and last line.
	ScopeEntity, ScopeFile, ScopeStart, ScopeEnd string
	// ScopeName is the scope's declared-name field, "" when the config
	// names none (scopes are then matched by their lines alone).
	ScopeName string
	// Order is the change relationship's property the import numbers a
	// node's changes by (1 for the oldest), "" for none.
	Order string
}

package model

// Type is a field's declared type, as written in the config (timestamp is
// kept as written; [Type.Kind] folds it into datetime).
type Type string

// The field types of the config language.
const (
	String    Type = "string"
	Number    Type = "number"
	Integer   Type = "integer"
	Boolean   Type = "boolean"
	Datetime  Type = "datetime"
	Timestamp Type = "timestamp"
	Enum      Type = "enum"
	Point     Type = "point"
)

// Kind folds the type spellings that behave alike: integer into number,
// timestamp into datetime, the list types into list. Tools and the planner switch on the kind.
func (t Type) Kind() Type {
	switch t {
	case Integer:
		return Number
	case Timestamp:
		return Datetime
	case StringList, IntegerList, NumberList:
		return List
	}
	return t
}

// DatetimeStorage says how a datetime value is stored in Neo4j; Text
// applies to number and integer fields too.
type DatetimeStorage string

// The ways a datetime field can be stored.
const (
	// Temporal is a Neo4j DATE, DATETIME or LOCAL DATETIME value (the default).
	Temporal DatetimeStorage = "temporal"
	// ISOString is an ISO-8601 string such as "2024-05-01T10:00:00Z".
	ISOString DatetimeStorage = "iso_string"
	// EpochSeconds is an integer count of seconds since 1970-01-01T00:00Z.
	EpochSeconds DatetimeStorage = "epoch_seconds"
	// EpochMillis is an integer count of milliseconds since 1970-01-01T00:00Z.
	EpochMillis DatetimeStorage = "epoch_millis"
	// Text is a datetime, number or integer written as text in one of the
	// forms package internal/textvalue reads ("1996-07-04 00:00:00.000",
	// "12.50"); any other text reads as null.
	Text DatetimeStorage = "text"
)

// Field is a stored property of an entity (or of a relationship).
type Field struct {
	Name        string
	Type        Type
	Description string
	// Values are the allowed values of an enum field.
	Values []string
	// Indexed says a Neo4j index exists on the property.
	Indexed bool
	// Exposed is false when the specialized tools must not offer the field.
	Exposed bool
	// Min and Max bound a number field; nil when unbounded.
	Min, Max *float64
	// StoredAs is set for datetime fields (Temporal by default), and to
	// Text for a number or integer field stored as text.
	StoredAs DatetimeStorage
	// NullValues are the texts a field stored as text holds for "no
	// value" ("NULL", ""): they read as null, as any text that does not
	// parse does, and tell vet and init a marker from a bad value.
	NullValues []string
	// Layout is the datetime text form a datetime stored_as: text holds
	// when it is not one of the common ones (textvalue.Layout), or "".
	Layout string
	// Modes are the specialized-tool modes the field offers, derived by the
	// CUE rules from its type and tool_modes.
	Modes []string
	// Operators are the query_entities operators its type allows (CUE rules).
	Operators []string
	Pos       Pos
}

// NumberText reports whether f is a number or integer field stored as
// text, which every read converts (textvalue.NumberCypher).
func (f *Field) NumberText() bool {
	return f.StoredAs == Text && f.Type.Kind() == Number
}

// DatetimeText reports whether f is a datetime field stored as text (in
// its layout or the common forms), which every read parses
// (textvalue.DatetimeReader).
func (f *Field) DatetimeText() bool {
	return f.StoredAs == Text && f.Type.Kind() == Datetime
}

// HasMode reports whether the field offers the given tool mode.
func (f *Field) HasMode(mode string) bool { return contains(f.Modes, mode) }

// HasOperator reports whether query_entities may apply op to the field.
func (f *Field) HasOperator(op string) bool { return contains(f.Operators, op) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Materialize is a computed field's materialization setting.
type Materialize string

// The materialization settings.
const (
	// Never computes the field per query.
	Never Materialize = "false"
	// Always stores the field as a property.
	Always Materialize = "true"
	// Auto decides from recorded usage (package materialize).
	Auto Materialize = "auto"
)

// ComputedField is a value derived from an entity's fields, by an expr
// expression or a read-only Cypher subquery (exactly one is set).
type ComputedField struct {
	Field
	// Expression is the expr-lang source, or "".
	Expression string
	// ExpressionPos is where the expression's text starts in the config, so
	// expression errors point at their column.
	ExpressionPos Pos
	// Cypher is the raw Cypher subquery body, or "".
	Cypher       string
	Materialized Materialize
	// Index asks for an index on the stored property.
	Index bool
	// CacheProperty is the node property a materialized value is stored in.
	CacheProperty string
}

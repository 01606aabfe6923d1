package model

// The list field types: a property holding a Neo4j list of strings,
// integers or numbers. Their kind is List; [Type.Elem] is the type of one
// element, which a CONTAINS value or a CONTAINS ANY / ALL list holds.
const (
	StringList  Type = "string_list"
	IntegerList Type = "integer_list"
	NumberList  Type = "number_list"
	// List is the kind of every list type.
	List Type = "list"
)

// Elem is the type of one element of a list type, and t itself for any
// other type.
func (t Type) Elem() Type {
	switch t {
	case StringList:
		return String
	case IntegerList:
		return Integer
	case NumberList:
		return Number
	}
	return t
}

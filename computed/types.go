package computed

import "github.com/ragforge/ragforge/model"

// kind is the static type of an expression node. Numbers keep expr's
// distinction between integers and floats where the config fixes it (an
// integer field, an integer literal); a `number` field may hold either at
// run time, so it is kindNumber and the operators decide dynamically, as
// both expr and Cypher do.
type kind int

const (
	kindInvalid kind = iota
	kindInt
	kindFloat
	kindNumber
	kindBool
	kindString
	kindDatetime
)

func (k kind) String() string {
	switch k {
	case kindInt:
		return "integer"
	case kindFloat:
		return "float"
	case kindNumber:
		return "number"
	case kindBool:
		return "boolean"
	case kindString:
		return "string"
	case kindDatetime:
		return "datetime"
	}
	return "invalid"
}

func (k kind) numeric() bool { return k == kindInt || k == kindFloat || k == kindNumber }

// arith is the static result of + - * % on two numbers: integer when both
// are, float when either is, otherwise number (decided per value).
func arith(a, b kind) kind {
	switch {
	case a == kindInt && b == kindInt:
		return kindInt
	case a == kindFloat || b == kindFloat:
		return kindFloat
	}
	return kindNumber
}

// join is the common kind of two branches (ternary, ??, min, max), or
// kindInvalid when they do not agree.
func join(a, b kind) kind {
	if a == b {
		return a
	}
	if a.numeric() && b.numeric() {
		return kindNumber
	}
	return kindInvalid
}

// kindOf maps a config field type to the kind an expression sees.
func kindOf(t model.Type) kind {
	switch t {
	case model.Integer:
		return kindInt
	case model.Number:
		return kindNumber
	case model.Boolean:
		return kindBool
	case model.String, model.Enum:
		return kindString
	case model.Datetime, model.Timestamp:
		return kindDatetime
	}
	return kindInvalid
}

// accepts reports whether a field declared as t may hold a value of kind k.
func accepts(t model.Type, k kind) bool {
	switch t {
	case model.Integer:
		return k == kindInt
	case model.Number:
		return k.numeric()
	}
	return kindOf(t) == k && k != kindInvalid
}

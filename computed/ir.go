package computed

import "github.com/ragforge/ragforge/model"

// node is a checked expression: every node has a static kind and the rune
// offset in the expression source that errors point at. The Cypher compiler
// and the Go evaluator both read this tree, so the two meanings are derived
// from one checked form.
type node interface {
	kind() kind
	offset() int
}

type at struct {
	off int
	k   kind
}

func (a at) kind() kind  { return a.k }
func (a at) offset() int { return a.off }

// lit is a constant from the config: int64, float64, string, bool, or nil
// (null) as an alternative of ?: or ??.
type lit struct {
	at
	value any
}

// ref reads a stored field or another computed field of the same entity.
type ref struct {
	at
	name string
	// end is "from" or "to" when a relationship's field reads a stored
	// field of the node its arrow leaves or enters; "" otherwise.
	end      string
	stored   *model.Field         // set for a stored field
	computed *model.ComputedField // set for a computed field
}

// unary is "-" (numeric negation) or "not".
type unary struct {
	at
	op string
	x  node
}

// binary is an operator with two operands; op is one of + - * / % ** == !=
// < <= > >= and or ?? concat contains startsWith endsWith.
type binary struct {
	at
	op   string
	l, r node
}

// cond is `c ? a : b`; a null condition gives null.
type cond struct {
	at
	c, a, b node
}

// call is a supported function: len abs ceil floor round lower upper trim
// min max now days_since hours_since days_between year month day hour
// weekday truncate to_float to_int to_datetime parse_datetime. truncate's
// and parse_datetime's second argument is a string lit (the unit, the
// layout); truncate's second argument is its unit, a string lit
// from truncUnits.
type call struct {
	at
	fn   string
	args []node
}

// inList is `x in [constants]`.
type inList struct {
	at
	x    node
	list []*lit
}

// isNull is `x == nil` (or `x != nil` when negate): the one comparison that
// is never null.
type isNull struct {
	at
	x      node
	negate bool
}

// match is `x matches "pattern"` with a pattern from the safe subset: pattern
// is the Go (RE2) source, java the equivalent possessive Java pattern for
// Cypher's =~.
type match struct {
	at
	x       node
	pattern string
	java    string
}

package computed

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"

	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/model"
)

// supportedSummary names the whole supported set in rejection messages, so
// a user who wrote something else learns what to write instead.
const supportedSummary = "supported: + - * / % ** unary -, == != < <= > >=, and or not, ?:, ??, " +
	"contains startsWith endsWith matches in, len abs ceil floor round lower upper trim min max, to_float to_int to_datetime parse_datetime, " +
	"now days_since hours_since days_between year month day hour weekday truncate, field names and literals"

// functions are the supported calls with their arity.
var functions = map[string]int{
	"len": 1, "abs": 1, "ceil": 1, "floor": 1, "round": 1,
	"lower": 1, "upper": 1, "trim": 1, "min": 2, "max": 2,
	"now": 0, "days_since": 1, "hours_since": 1, "days_between": 2,
	"year": 1, "month": 1, "day": 1, "hour": 1, "weekday": 1, "truncate": 2,
	"to_float": 1, "to_int": 1, "to_datetime": 1, "parse_datetime": 2,
}

// truncUnits are the units truncate accepts, smallest first. The unit must
// be a constant: Cypher's datetime.truncate takes any string, but a unit
// read from data would be checked only when a query runs.
var truncUnits = []string{"hour", "day", "week", "month", "year"}

func functionNames() []string {
	names := make([]string, 0, len(functions))
	for n := range functions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checker turns one expression's expr AST into a checked node tree.
type checker struct {
	entity *model.Entity
	// ends are what from.x and to.x read in a relationship's field; nil
	// for an entity's, where member access is refused.
	ends  *ends
	self  *model.ComputedField
	deps  []string // computed fields referenced, first-use order
	depAt map[string]int
	err   *Error
}

// parseAndCheck parses c.Expression with expr's parser and checks it
// against the entity: names, kinds, the supported set, and the declared type.
func parseAndCheck(e *model.Entity, c *model.ComputedField, ends *ends) (node, []string, map[string]int, *Error) {
	tree, err := parser.Parse(c.Expression)
	if err != nil {
		var fe *file.Error
		off := 0
		msg := err.Error()
		if errors.As(err, &fe) {
			off, msg = fe.From, fe.Message
		}
		return nil, nil, nil, &Error{Offset: off, Msg: "syntax error: " + msg}
	}
	ch := &checker{entity: e, ends: ends, self: c, depAt: map[string]int{}}
	n := ch.check(tree.Node)
	if ch.err != nil {
		return nil, nil, nil, ch.err
	}
	if c.Type == model.Point {
		return nil, nil, nil, &Error{Offset: 0, Msg: "a point field cannot be computed by an expression (use cypher:)"}
	}
	if !accepts(c.Type, n.kind()) {
		return nil, nil, nil, &Error{Offset: n.offset(), Msg: fmt.Sprintf("expression is %s but the field is declared %s", n.kind(), c.Type)}
	}
	return n, ch.deps, ch.depAt, nil
}

func (ch *checker) fail(n ast.Node, format string, args ...any) node {
	if ch.err == nil {
		ch.err = &Error{Offset: n.Location().From, Msg: fmt.Sprintf(format, args...)}
	}
	return &lit{at: at{off: n.Location().From, k: kindInvalid}}
}

func (ch *checker) check(n ast.Node) node {
	if ch.err != nil {
		return &lit{}
	}
	off := n.Location().From
	switch x := n.(type) {
	case *ast.IntegerNode:
		return &lit{at{off, kindInt}, int64(x.Value)}
	case *ast.FloatNode:
		return &lit{at{off, kindFloat}, x.Value}
	case *ast.StringNode:
		return &lit{at{off, kindString}, x.Value}
	case *ast.BoolNode:
		return &lit{at{off, kindBool}, x.Value}
	case *ast.NilNode:
		return ch.fail(n, "nil is only supported as `x == nil`, `x != nil` or as one alternative of ?: and ??")
	case *ast.IdentifierNode:
		return ch.ident(x)
	case *ast.UnaryNode:
		return ch.unary(x)
	case *ast.BinaryNode:
		return ch.binary(x)
	case *ast.ConditionalNode:
		c := ch.check(x.Cond)
		a, b := ch.nullable(x.Exp1, x.Exp2)
		if ch.err != nil {
			return c
		}
		if c.kind() != kindBool {
			return ch.fail(x.Cond, "condition is %s, want boolean", c.kind())
		}
		k := join(a.kind(), b.kind())
		if k == kindInvalid {
			return ch.fail(x.Exp2, "branches differ: %s and %s", a.kind(), b.kind())
		}
		return &cond{at{off, k}, c, a, b}
	case *ast.BuiltinNode:
		return ch.call(n, x.Name, x.Arguments)
	case *ast.CallNode:
		id, ok := x.Callee.(*ast.IdentifierNode)
		if !ok {
			return ch.fail(n, "only calls of named functions are supported (%s)", supportedSummary)
		}
		return ch.call(n, id.Value, x.Arguments)
	case *ast.ArrayNode:
		return ch.fail(n, "a list is only supported on the right of `in` (%s)", supportedSummary)
	case *ast.MemberNode:
		if ch.ends != nil {
			return ch.end(x)
		}
		return ch.fail(n, "member access (a.b, a[i]) is not supported: fields are plain names (%s)", supportedSummary)
	case *ast.ChainNode:
		return ch.fail(n, "member access (a.b, a[i]) is not supported: fields are plain names (%s)", supportedSummary)
	}
	return ch.fail(n, "%s is not supported in a computed field (%s)", describe(n), supportedSummary)
}

// describe names an unsupported construct for an error message.
func describe(n ast.Node) string {
	switch n.(type) {
	case *ast.SliceNode:
		return "slicing"
	case *ast.MapNode, *ast.PairNode:
		return "a map literal"
	case *ast.PredicateNode, *ast.PointerNode:
		return "a predicate (closure)"
	case *ast.VariableDeclaratorNode:
		return "let"
	case *ast.SequenceNode:
		return "a sequence (;)"
	case *ast.BytesNode:
		return "a bytes literal"
	}
	return fmt.Sprintf("%T", n)
}

func (ch *checker) ident(x *ast.IdentifierNode) node {
	off := x.Location().From
	name := x.Value
	if f := ch.entity.Field(name); f != nil {
		k := kindOf(f.Type)
		if k == kindInvalid {
			return ch.fail(x, "field %q is a %s field; expressions read string, enum, number, integer, boolean and datetime fields", name, f.Type)
		}
		return &ref{at: at{off, k}, name: name, stored: f}
	}
	if c := ch.entity.ComputedField(name); c != nil {
		k := kindOf(c.Type)
		if k == kindInvalid {
			return ch.fail(x, "computed field %q is a %s field; expressions cannot read it", name, c.Type)
		}
		if _, seen := ch.depAt[name]; !seen {
			ch.deps = append(ch.deps, name)
			ch.depAt[name] = off
		}
		return &ref{at: at{off, k}, name: name, computed: c}
	}
	msg := fmt.Sprintf("unknown name %q", name)
	if s := Suggest(name, ch.entity.FieldNames()); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	} else {
		msg += fmt.Sprintf(" (fields of %s: %s)", ch.entity.Name, strings.Join(ch.entity.FieldNames(), ", "))
	}
	if ch.ends != nil {
		msg += "; the ends' fields are from.x and to.x"
	}
	return ch.fail(x, "%s", msg)
}

func (ch *checker) unary(x *ast.UnaryNode) node {
	off := x.Location().From
	v := ch.check(x.Node)
	if ch.err != nil {
		return v
	}
	switch x.Operator {
	case "-", "+":
		if !v.kind().numeric() {
			return ch.fail(x, "unary %s needs a number, got %s", x.Operator, v.kind())
		}
		if x.Operator == "+" {
			return v
		}
		return &unary{at{off, v.kind()}, "-", v}
	case "!", "not":
		if v.kind() != kindBool {
			return ch.fail(x, "not needs a boolean, got %s", v.kind())
		}
		return &unary{at{off, kindBool}, "not", v}
	}
	return ch.fail(x, "unary %s is not supported (%s)", x.Operator, supportedSummary)
}

func (ch *checker) binary(x *ast.BinaryNode) node {
	off := x.Location().From
	op := x.Operator
	switch op {
	case "==", "!=":
		if _, ok := x.Right.(*ast.NilNode); ok {
			v := ch.check(x.Left)
			return &isNull{at{off, kindBool}, v, op == "!="}
		}
		if _, ok := x.Left.(*ast.NilNode); ok {
			v := ch.check(x.Right)
			return &isNull{at{off, kindBool}, v, op == "!="}
		}
	case "in":
		return ch.in(x)
	case "matches":
		return ch.matches(x)
	}
	var l, r node
	if op == "??" {
		l, r = &lit{}, &lit{}
	} else {
		l, r = ch.check(x.Left), ch.check(x.Right)
	}
	if ch.err != nil {
		return l
	}
	lk, rk := l.kind(), r.kind()
	mismatch := func() node {
		return ch.fail(x, "invalid operation: %s %s %s (mismatched types)", lk, op, rk)
	}
	switch op {
	case "+":
		if lk == kindString && rk == kindString {
			return &binary{at{off, kindString}, "concat", l, r}
		}
		fallthrough
	case "-", "*", "%":
		if !lk.numeric() || !rk.numeric() {
			return mismatch()
		}
		return &binary{at{off, arith(lk, rk)}, op, l, r}
	case "/", "**", "^":
		if !lk.numeric() || !rk.numeric() {
			return mismatch()
		}
		if op == "^" {
			op = "**"
		}
		return &binary{at{off, kindFloat}, op, l, r}
	case "==", "!=":
		if join(lk, rk) == kindInvalid {
			return mismatch()
		}
		return &binary{at{off, kindBool}, op, l, r}
	case "<", "<=", ">", ">=":
		k := join(lk, rk)
		if k == kindString {
			return ch.fail(x, "strings cannot be ordered with %s: Neo4j orders strings by code point or by UTF-16 unit depending on how a value is held, so the result has no single meaning (compare with == or !=, or order numbers and datetimes)", op)
		}
		if !k.numeric() && k != kindDatetime {
			return mismatch()
		}
		return &binary{at{off, kindBool}, op, l, r}
	case "and", "&&", "or", "||":
		if lk != kindBool || rk != kindBool {
			return mismatch()
		}
		if op == "&&" {
			op = "and"
		} else if op == "||" {
			op = "or"
		}
		return &binary{at{off, kindBool}, op, l, r}
	case "??":
		l, r = ch.nullable(x.Left, x.Right)
		if ch.err != nil {
			return l
		}
		lk, rk = l.kind(), r.kind()
		k := join(lk, rk)
		if k == kindInvalid {
			return mismatch()
		}
		return &binary{at{off, k}, op, l, r}
	case "contains", "startsWith", "endsWith":
		if lk != kindString || rk != kindString {
			return mismatch()
		}
		return &binary{at{off, kindBool}, op, l, r}
	}
	return ch.fail(x, "operator %s is not supported (%s)", op, supportedSummary)
}

func (ch *checker) in(x *ast.BinaryNode) node {
	off := x.Location().From
	v := ch.check(x.Left)
	arr, ok := x.Right.(*ast.ArrayNode)
	if !ok {
		return ch.fail(x.Right, "the right of `in` must be a list of constants such as [\"a\", \"b\"]")
	}
	if ch.err != nil {
		return v
	}
	in := &inList{at: at{off, kindBool}, x: v}
	for _, el := range arr.Nodes {
		c := ch.check(el)
		if u, ok := c.(*unary); ok && u.op == "-" { // a negative constant
			if l, ok := u.x.(*lit); ok {
				switch v := l.value.(type) {
				case int64:
					c = &lit{at{u.off, l.k}, -v}
				case float64:
					c = &lit{at{u.off, l.k}, -v}
				}
			}
		}
		l, ok := c.(*lit)
		if !ok {
			return ch.fail(el, "the list of `in` holds constants only")
		}
		if join(v.kind(), l.kind()) == kindInvalid || v.kind() == kindDatetime {
			return ch.fail(el, "list element is %s but the value is %s", l.kind(), v.kind())
		}
		in.list = append(in.list, l)
	}
	return in
}

func (ch *checker) matches(x *ast.BinaryNode) node {
	off := x.Location().From
	v := ch.check(x.Left)
	if ch.err != nil {
		return v
	}
	if v.kind() != kindString {
		return ch.fail(x.Left, "matches needs a string, got %s", v.kind())
	}
	s, ok := x.Right.(*ast.StringNode)
	if !ok {
		return ch.fail(x.Right, "matches needs a constant pattern (a string literal)")
	}
	java, err := safePattern(s.Value)
	if err != nil {
		return ch.fail(x.Right, "pattern %q: %v", s.Value, err)
	}
	return &match{at{off, kindBool}, v, s.Value, java}
}

func (ch *checker) call(n ast.Node, name string, argNodes []ast.Node) node {
	off := n.Location().From
	arity, ok := functions[name]
	if !ok {
		msg := fmt.Sprintf("function %s is not supported", name)
		if s := Suggest(name, functionNames()); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		return ch.fail(n, "%s (functions: %s)", msg, strings.Join(functionNames(), ", "))
	}
	if len(argNodes) != arity {
		return ch.fail(n, "%s takes %d argument(s), got %d", name, arity, len(argNodes))
	}
	args := make([]node, len(argNodes))
	for i, a := range argNodes {
		args[i] = ch.check(a)
	}
	if ch.err != nil {
		return &lit{}
	}
	want := func(i int, ok bool, what string) bool {
		if !ok {
			ch.fail(argNodes[i], "%s needs %s, got %s", name, what, args[i].kind())
		}
		return ok
	}
	var k kind
	switch name {
	case "len":
		if !want(0, args[0].kind() == kindString, "a string") {
			return args[0]
		}
		k = kindInt
	case "abs":
		if !want(0, args[0].kind().numeric(), "a number") {
			return args[0]
		}
		k = args[0].kind()
	case "ceil", "floor", "round":
		if !want(0, args[0].kind().numeric(), "a number") {
			return args[0]
		}
		k = kindFloat
	case "lower", "upper", "trim":
		if !want(0, args[0].kind() == kindString, "a string") {
			return args[0]
		}
		k = kindString
	case "to_float", "to_int", "to_datetime":
		if !want(0, args[0].kind() == kindString, "a string") {
			return args[0]
		}
		k = map[string]kind{"to_float": kindFloat, "to_int": kindInt, "to_datetime": kindDatetime}[name]
	case "parse_datetime":
		if !want(0, args[0].kind() == kindString, "a string") {
			return args[0]
		}
		s, ok := argNodes[1].(*ast.StringNode)
		if !ok {
			return ch.fail(argNodes[1], "parse_datetime needs a constant layout, such as parse_datetime(s, \"02/01/2006\")")
		}
		if _, err := textvalue.ParseLayout(s.Value); err != nil {
			return ch.fail(argNodes[1], "%v", err)
		}
		k = kindDatetime
	case "min", "max":
		if !want(0, args[0].kind().numeric(), "numbers") || !want(1, args[1].kind().numeric(), "numbers") {
			return args[0]
		}
		k = join(args[0].kind(), args[1].kind())
	case "now":
		k = kindDatetime
	case "days_since", "hours_since":
		if !want(0, args[0].kind() == kindDatetime, "a datetime") {
			return args[0]
		}
		k = kindInt
	case "days_between":
		if !want(0, args[0].kind() == kindDatetime, "datetimes") || !want(1, args[1].kind() == kindDatetime, "datetimes") {
			return args[0]
		}
		k = kindInt
	case "year", "month", "day", "hour", "weekday":
		if !want(0, args[0].kind() == kindDatetime, "a datetime") {
			return args[0]
		}
		k = kindInt
	case "truncate":
		if u, ok := argNodes[0].(*ast.StringNode); ok && slices.Contains(truncUnits, u.Value) {
			// SQL's date_trunc order; say which order this one takes.
			return ch.fail(argNodes[0], "truncate takes the datetime first, then the unit: truncate(t, %q)", u.Value)
		}
		if !want(0, args[0].kind() == kindDatetime, "a datetime") {
			return args[0]
		}
		s, ok := argNodes[1].(*ast.StringNode)
		if !ok {
			return ch.fail(argNodes[1], "truncate needs a constant unit, one of %s (such as truncate(t, \"day\"))", strings.Join(truncUnits, ", "))
		}
		if !slices.Contains(truncUnits, s.Value) {
			msg := fmt.Sprintf("truncate cannot cut to %q", s.Value)
			if sg := Suggest(s.Value, truncUnits); sg != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", sg)
			}
			return ch.fail(argNodes[1], "%s; units: %s", msg, strings.Join(truncUnits, ", "))
		}
		k = kindDatetime
	}
	return &call{at{off, k}, name, args}
}

// nullable checks two alternatives (ternary branches, the sides of ??) of
// which one may be the nil literal: nil takes the other side's kind and
// means null, so `weight > 0 ? price / weight : nil` is an optional number.
func (ch *checker) nullable(a, b ast.Node) (node, node) {
	_, aNil := a.(*ast.NilNode)
	_, bNil := b.(*ast.NilNode)
	switch {
	case aNil && bNil:
		ch.fail(a, "both alternatives are nil")
		return &lit{}, &lit{}
	case aNil:
		y := ch.check(b)
		return &lit{at{a.Location().From, y.kind()}, nil}, y
	case bNil:
		x := ch.check(a)
		return x, &lit{at{b.Location().From, x.kind()}, nil}
	}
	return ch.check(a), ch.check(b)
}

package computed

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/ragforge/ragforge/model"
)

// The Go evaluation is an expr program: the checked tree is written back as
// expr source in which every operator is a call to one of the functions in
// values.go (so nulls, zero divisors and overflow get the one chosen
// meaning) and every value — field, literal, now — is an environment
// variable (so no config text is re-parsed). expr's own ternary, `let` and
// `??` give the laziness Cypher has: CASE evaluates only the chosen branch,
// coalesce stops at the first non-null value.
//
// An error (integer overflow, a malformed stored datetime) is a value
// (evalError) while the program runs, because Neo4j's AND and OR absorb
// one: `<overflow> OR true` is true and `false AND <overflow>` is false
// whichever side Neo4j evaluates first (junct in cypher.go keeps Neo4j's
// planner from regrouping the ANDs and ORs, which would move an error out
// of reach of the value that absorbs it). Every other operator passes the
// error on; Eval returns it.

// evalError is an error travelling through a program as a value.
type evalError struct{ err error }

// errorsAsValues makes a helper pass on an evalError argument and turn its
// own error into an evalError.
func errorsAsValues(f func(...any) (any, error)) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		for _, a := range args {
			if e, ok := a.(evalError); ok {
				return e, nil
			}
		}
		v, err := f(args...)
		if err != nil {
			return evalError{err}, nil
		}
		return v, nil
	}
}

// logic is Cypher's three-valued AND (or OR when isOr) with errors: the
// deciding value (false for AND, true for OR) wins over an error on the
// other side, then an error wins, then null.
func logic(a, b any, isOr bool) any {
	if a == isOr || b == isOr {
		return isOr
	}
	if e, ok := a.(evalError); ok {
		return e
	}
	if e, ok := b.(evalError); ok {
		return e
	}
	if a == nil || b == nil {
		return nil
	}
	return !isOr
}

// program is one field's compiled evaluation.
type program struct {
	prog  *vm.Program
	slots []slot
}

// slot is one environment variable of a program.
type slot struct {
	name  string
	field string // a stored field or a raw cypher field, read from properties
	value any    // a constant when field == ""
}

type gen struct {
	ent   *Entity
	slots []slot
	lets  int
}

func (g *gen) slot(s slot) string {
	s.name = "v" + strconv.Itoa(len(g.slots))
	g.slots = append(g.slots, s)
	return s.name
}

func (g *gen) let() string {
	g.lets++
	return "l" + strconv.Itoa(g.lets)
}

var binaryFns = map[string]string{
	"+": "_add", "concat": "_add", "-": "_sub", "*": "_mul", "/": "_div", "%": "_mod", "**": "_pow",
	"==": "_eq", "!=": "_ne", "<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge",
	"contains": "_contains", "startsWith": "_startsWith", "endsWith": "_endsWith",
}

func (g *gen) expr(n node) string {
	switch x := n.(type) {
	case *lit:
		return g.slot(slot{value: x.value})
	case *ref:
		if x.stored != nil {
			read := x.name
			if x.end != "" {
				read = x.end + "." + x.name
			}
			v := g.slot(slot{field: read})
			if x.stored.NumberText() {
				return fmt.Sprintf("_%s(%s)", map[bool]string{true: "to_int", false: "to_float"}[x.k == kindInt], v)
			}
			if x.stored.DatetimeText() && x.stored.Layout != "" {
				return fmt.Sprintf("_parse_datetime(%s, %q)", v, x.stored.Layout)
			}
			if x.k == kindDatetime {
				return fmt.Sprintf("_dt(%s, %q)", v, x.stored.StoredAs)
			}
			return v
		}
		if x.computed.Cypher == "" {
			// Inlined, as the Cypher fragment inlines it, so a dependency
			// in an unevaluated branch cannot fail the evaluation.
			return "(" + g.expr(g.ent.Field(x.name).tree) + ")"
		}
		v := g.slot(slot{field: x.name})
		if x.k == kindDatetime {
			return fmt.Sprintf("_dt(%s, %q)", v, model.Temporal)
		}
		return v
	case *unary:
		if x.op == "-" {
			return "_neg(" + g.expr(x.x) + ")"
		}
		return "_not(" + g.expr(x.x) + ")"
	case *binary:
		switch x.op {
		case "and", "or":
			return fmt.Sprintf("_%s(%s, %s)", x.op, g.expr(x.l), g.expr(x.r))
		case "??":
			return fmt.Sprintf("(%s ?? %s)", g.expr(x.l), g.expr(x.r))
		}
		return fmt.Sprintf("%s(%s, %s)", binaryFns[x.op], g.expr(x.l), g.expr(x.r))
	case *cond:
		l := g.let()
		return fmt.Sprintf("(let %s = %s; _isErr(%s) ? %s : (%s == nil ? nil : (%s ? %s : %s)))", l, g.expr(x.c), l, l, l, l, g.expr(x.a), g.expr(x.b))
	case *isNull:
		if x.negate {
			return "_notNull(" + g.expr(x.x) + ")"
		}
		return "_isNull(" + g.expr(x.x) + ")"
	case *inList:
		items := []string{g.expr(x.x)}
		for _, l := range x.list {
			items = append(items, g.expr(l))
		}
		return "_in(" + strings.Join(items, ", ") + ")"
	case *match:
		re := g.slot(slot{value: regexp.MustCompile(x.pattern)})
		return fmt.Sprintf("_matches(%s, %s)", g.expr(x.x), re)
	case *call:
		args := make([]string, len(x.args))
		for i, a := range x.args {
			args[i] = g.expr(a)
		}
		switch x.fn {
		case "now":
			return "_now"
		case "days_since", "hours_since":
			return fmt.Sprintf("_%s(%s, _now)", x.fn, args[0])
		}
		return "_" + x.fn + "(" + strings.Join(args, ", ") + ")"
	}
	panic(fmt.Sprintf("computed: unknown node %T", n))
}

func fn1(f func(a any) (any, error)) func(...any) (any, error) {
	return func(args ...any) (any, error) { return f(args[0]) }
}

func fn2(f func(a, b any) (any, error)) func(...any) (any, error) {
	return func(args ...any) (any, error) { return f(args[0], args[1]) }
}

// helpers are the functions every program may call.
var helpers = func() []expr.Option {
	fs := map[string]func(...any) (any, error){
		"_add": fn2(opAdd), "_sub": fn2(opSub), "_mul": fn2(opMul), "_div": fn2(opDiv),
		"_mod": fn2(opMod), "_pow": fn2(opPow), "_neg": fn1(opNeg), "_not": fn1(opNot),
		"_eq": fn2(opCompare("==")), "_ne": fn2(opCompare("!=")),
		"_lt": fn2(opCompare("<")), "_le": fn2(opCompare("<=")),
		"_gt": fn2(opCompare(">")), "_ge": fn2(opCompare(">=")),
		"_contains":   fn2(strOp("contains", strings.Contains)),
		"_startsWith": fn2(strOp("startsWith", strings.HasPrefix)),
		"_endsWith":   fn2(strOp("endsWith", strings.HasSuffix)),
		"_in":         func(args ...any) (any, error) { return opIn(args[0], args[1:]...) },
		"_matches": func(args ...any) (any, error) {
			return opMatches(args[0], args[1].(*regexp.Regexp))
		},
		"_len": fn1(fnLen), "_abs": fn1(fnAbs),
		"_ceil": fn1(floatFn("ceil", ceil)), "_floor": fn1(floatFn("floor", floor)),
		"_round": fn1(floatFn("round", round)),
		"_lower": fn1(fnLower), "_upper": fn1(fnUpper), "_trim": fn1(fnTrim),
		"_min": fn2(fnMinMax(false)), "_max": fn2(fnMinMax(true)),
		"_days_since":     func(args ...any) (any, error) { return fnSince(86400000)(args[0], args[1]) },
		"_hours_since":    func(args ...any) (any, error) { return fnSince(3600000)(args[0], args[1]) },
		"_days_between":   fn2(fnSince(86400000)),
		"_year":           fn1(datePart("year", func(t time.Time) int { return t.Year() })),
		"_month":          fn1(datePart("month", func(t time.Time) int { return int(t.Month()) })),
		"_day":            fn1(datePart("day", time.Time.Day)),
		"_hour":           fn1(datePart("hour", time.Time.Hour)),
		"_weekday":        fn1(datePart("weekday", isoWeekday)),
		"_truncate":       fn2(fnTruncate),
		"_to_float":       fn1(textNumber(false)),
		"_to_int":         fn1(textNumber(true)),
		"_to_datetime":    fn1(func(x any) (any, error) { return dt(x, model.Text) }),
		"_parse_datetime": fn2(parseLayout),
		"_dt": func(args ...any) (any, error) {
			return dt(args[0], model.DatetimeStorage(args[1].(string)))
		},
	}
	fs["_isNull"] = func(args ...any) (any, error) { return args[0] == nil, nil }
	fs["_notNull"] = func(args ...any) (any, error) { return args[0] != nil, nil }
	opts := make([]expr.Option, 0, len(fs)+4)
	for name, f := range fs {
		opts = append(opts, expr.Function(name, errorsAsValues(f)))
	}
	opts = append(opts,
		expr.Function("_and", func(args ...any) (any, error) { return logic(args[0], args[1], false), nil }),
		expr.Function("_or", func(args ...any) (any, error) { return logic(args[0], args[1], true), nil }),
		expr.Function("_isErr", func(args ...any) (any, error) { _, ok := args[0].(evalError); return ok, nil }),
	)
	return opts
}()

// compileProgram writes the field's tree as an expr program.
func compileProgram(ent *Entity, tree node) (*program, error) {
	g := &gen{ent: ent}
	src := g.expr(tree)
	p, err := expr.Compile(src, helpers...)
	if err != nil {
		return nil, fmt.Errorf("computed: internal error compiling %q: %w", src, err)
	}
	return &program{prog: p, slots: g.slots}, nil
}

// Eval computes the field in Go from a node's stored properties (absent
// keys and nil values are null) at the current time. It is the oracle the
// differential tests hold Neo4j to: nil for null, int64, float64, string,
// bool or a UTC time.Time otherwise. Computed dependencies are inlined, as
// in the fragment; a raw cypher field cannot be evaluated in Go, so its
// value is read from properties under the field's name. A relationship's
// field reads its ends' fields under "from.x" and "to.x".
func (f *Field) Eval(properties map[string]any) (any, error) {
	return f.EvalAt(properties, time.Now())
}

// EvalAt is [Field.Eval] with now() fixed to the given instant.
func (f *Field) EvalAt(properties map[string]any, now time.Time) (any, error) {
	if f.prog == nil { // raw cypher field: the caller supplies its value
		v := normalize(properties[f.Config.Name])
		if kindOf(f.Config.Type) == kindDatetime {
			return dt(v, model.Temporal)
		}
		return v, nil
	}
	env := make(map[string]any, len(f.prog.slots)+1)
	env["_now"] = now.UTC()
	for _, s := range f.prog.slots {
		if s.field == "" {
			env[s.name] = s.value
		} else {
			env[s.name] = normalize(properties[s.field])
		}
	}
	out, err := expr.Run(f.prog.prog, env)
	if e, ok := out.(evalError); ok {
		err = e.err
	}
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", f.ent.Name, f.Config.Name, err)
	}
	return out, nil
}

package computed

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/model"
)

// DefaultNow is the Cypher for now(): the statement's clock in UTC, so every
// row of one query sees the same instant.
const DefaultNow = "datetime({timezone: 'Z'})"

// Options choose how a fragment is written for one query.
type Options struct {
	// Node is the variable bound to the entity's node; "n" when empty. It
	// must be a plain identifier.
	Node string
	// Materialized names the computed fields whose stored property
	// (CacheProperty) is ready to read; the planner decides, from the
	// materialization state. Others are computed inline.
	Materialized map[string]bool
	// Now is the Cypher for now(); DefaultNow when empty. Tests pin it to a
	// parameter so Go and Neo4j see the same instant. It must be a DATETIME
	// in UTC, as every datetime of an expression is: the date parts read
	// the calendar of the value's own zone.
	Now string
}

func (o Options) node() string {
	if o.Node == "" {
		return "n"
	}
	return o.Node
}

// Fragment is a computed field as Cypher: an expression over the node
// variable, plus the CALL subqueries (one per raw cypher field it reads,
// dependency order) that must come before it in the statement:
//
//	MATCH (n:Label) <Subqueries...> RETURN <Cypher>
type Fragment struct {
	Cypher     string
	Subqueries []string
}

// Fragment compiles the field for a query: dependencies are inlined, or read
// from their stored property when opts says they are materialized; raw
// cypher fields become CALL subqueries bound to an internal alias.
func (f *Field) Fragment(opts Options) (Fragment, error) {
	if !plainVar.MatchString(opts.node()) {
		return Fragment{}, fmt.Errorf("node variable %q is not a plain identifier", opts.node())
	}
	w := &writer{opts: opts, ent: f.ent, seen: map[string]bool{}}
	s, err := w.field(f, true)
	if err != nil {
		return Fragment{}, err
	}
	return Fragment{Cypher: s, Subqueries: w.subs}, nil
}

// Alias is the variable a raw cypher field's subquery binds its value to
// for the given node variable. The __rf_ prefix is reserved for ragforge.
func Alias(node, field string) string { return Variable("__rf_"+node+"_", field) }

// maxVariable is the longest name the identifier rules allow (ident).
const maxVariable = 100

// Variable is a Cypher variable derived from a config name: prefix+name,
// or, when that exceeds the identifier rules' length (a name near the
// 100-character limit), its head and a hash of the whole name, so a valid
// config never yields a variable ident.Quote refuses and two names never
// share one.
func Variable(prefix, name string) string {
	v := prefix + name
	if len(v) <= maxVariable {
		return v
	}
	sum := sha256.Sum256([]byte(name))
	return v[:maxVariable-9] + "_" + hex.EncodeToString(sum[:4])
}

type writer struct {
	opts Options
	ent  *Entity
	subs []string
	seen map[string]bool
	vars int
	err  error
}

// field writes a reference to computed field f (top is true for the field
// being compiled itself).
func (w *writer) field(f *Field, top bool) (string, error) {
	n := w.opts.node()
	c := f.Config
	if w.opts.Materialized[c.Name] {
		prop, err := ident.Quote(f.CacheProperty())
		if err != nil {
			return "", err
		}
		return w.datetimeIf(kindOf(c.Type), n+"."+prop, model.Temporal), nil
	}
	if c.Cypher != "" {
		sub, err := f.Subquery(n)
		if err != nil {
			return "", err
		}
		if !w.seen[c.Name] {
			w.seen[c.Name] = true
			w.subs = append(w.subs, sub)
		}
		alias, err := ident.Quote(Alias(n, c.Name))
		if err != nil {
			return "", err
		}
		if top {
			return alias, nil
		}
		return w.datetimeIf(kindOf(c.Type), alias, model.Temporal), nil
	}
	s := w.expr(f.tree)
	return s, w.err
}

func (w *writer) datetimeIf(k kind, x string, storage model.DatetimeStorage) string {
	if k != kindDatetime {
		return x
	}
	return datetimeLeaf(x, storage)
}

// datetimeLeaf converts a stored datetime, however it is stored, to one
// meaning: a zoned DATETIME in UTC. x must be cheap to repeat (a property
// or a variable). A DATE is midnight UTC, a LOCAL DATETIME is read as UTC,
// an ISO string is parsed only when it is strict RFC 3339 (otherwise null),
// epoch numbers count from 1970-01-01T00:00Z.
//
// A ZONED DATETIME is rebuilt from its instant, never converted with
// datetime({datetime: x, timezone: 'Z'}): that conversion reads x's wall
// clock in x's zone again, so in the hour a named zone repeats when its
// clocks go back it gives the earlier instant (02:30+01:00[Europe/Paris]
// became 00:30Z). epochMillis counts down to the millisecond (floored, as
// Go's UnixMilli); nanosecond adds the rest, being the same in every zone.
// epochSeconds cannot serve: Neo4j rounds it toward zero before 1970.
func datetimeLeaf(x string, storage model.DatetimeStorage) string {
	switch storage {
	case model.ISOString:
		return fmt.Sprintf("CASE WHEN %s =~ %s THEN datetime({datetime: datetime(%s), timezone: 'Z'}) END", x, quoteString(isoJava), x)
	case model.Text:
		return fmt.Sprintf("[__rf_dt IN [%s] WHERE __rf_dt IS NOT NULL | datetime({datetime: __rf_dt, timezone: 'Z'})][0]", textvalue.DatetimeCypher(x))
	case model.EpochSeconds:
		return fmt.Sprintf("CASE WHEN %s IS NOT NULL THEN datetime({epochSeconds: %s}) END", x, x)
	case model.EpochMillis:
		return fmt.Sprintf("CASE WHEN %s IS NOT NULL THEN datetime({epochMillis: %s}) END", x, x)
	}
	return fmt.Sprintf("CASE WHEN %s IS :: DATE NOT NULL THEN datetime({date: %s, timezone: 'Z'}) "+
		"WHEN %s IS :: ZONED DATETIME NOT NULL THEN datetime.fromepochmillis(%s.epochMillis) + duration({nanoseconds: %s.nanosecond %% 1000000}) "+
		"WHEN %s IS NOT NULL THEN datetime({datetime: %s, timezone: 'Z'}) END", x, x, x, x, x, x, x)
}

// atomic reports whether a written expression is cheap and safe to repeat.
func atomic(n node) bool {
	switch x := n.(type) {
	case *lit:
		return true
	case *ref:
		return x.stored != nil && x.k != kindDatetime
	}
	return false
}

var cypherOps = map[string]string{
	"+": "+", "-": "-", "*": "*", "concat": "+",
	"==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"and": "AND", "or": "OR",
	"contains": "CONTAINS", "startsWith": "STARTS WITH", "endsWith": "ENDS WITH",
}

func (w *writer) expr(n node) string {
	switch x := n.(type) {
	case *lit:
		return writeLit(x.value)
	case *ref:
		if x.stored != nil {
			prop, err := ident.Quote(x.name)
			if err != nil && w.err == nil {
				w.err = err
			}
			read := w.opts.node() + "." + prop
			if x.end != "" {
				read = endRead(w.opts.node(), x.end) + "." + prop
			}
			if x.stored.NumberText() {
				return textvalue.NumberCypher(read, x.k == kindInt)
			}
			if x.stored.DatetimeText() && x.stored.Layout != "" {
				return layoutLeaf(read, x.stored.Layout)
			}
			return w.datetimeIf(x.k, read, x.stored.StoredAs)
		}
		dep := w.ent.Field(x.name)
		s, err := w.field(dep, false)
		if err != nil && w.err == nil {
			w.err = err
		}
		return "(" + s + ")"
	case *unary:
		if x.op == "-" {
			return "-(" + w.expr(x.x) + ")"
		}
		return "(NOT " + w.expr(x.x) + ")"
	case *binary:
		switch x.op {
		case "*":
			return fmt.Sprintf("(%s * %s)", w.factor(x.l), w.factor(x.r))
		case "and", "or":
			return fmt.Sprintf("(%s %s %s)", w.junct(x.op, x.l), cypherOps[x.op], w.junct(x.op, x.r))
		}
		l, r := w.expr(x.l), w.expr(x.r)
		switch x.op {
		case "/":
			return fmt.Sprintf("(toFloat(%s) / nullIf(toFloat(%s), 0.0))", l, r)
		case "%":
			return fmt.Sprintf("(%s %% nullIf(%s, 0))", l, r)
		case "**":
			return fmt.Sprintf("(%s ^ %s)", l, r)
		case "??":
			return fmt.Sprintf("coalesce(%s, %s)", l, r)
		}
		return fmt.Sprintf("(%s %s %s)", l, cypherOps[x.op], r)
	case *cond:
		return fmt.Sprintf("CASE %s WHEN true THEN %s WHEN false THEN %s END", w.expr(x.c), w.expr(x.a), w.expr(x.b))
	case *isNull:
		if x.negate {
			return "(" + w.expr(x.x) + " IS NOT NULL)"
		}
		return "(" + w.expr(x.x) + " IS NULL)"
	case *inList:
		items := make([]string, len(x.list))
		for i, l := range x.list {
			items[i] = writeLit(l.value)
		}
		return fmt.Sprintf("(%s IN [%s])", w.expr(x.x), strings.Join(items, ", "))
	case *match:
		return fmt.Sprintf("(%s =~ %s)", w.expr(x.x), quoteString(x.java))
	case *call:
		return w.call(x)
	}
	panic(fmt.Sprintf("computed: unknown node %T", n))
}

// factor writes an operand of *. Neo4j's planner flattens nested products
// and folds their constants in another order (x * 2 * 3.0 runs as x * 6.0),
// so an integer product that overflows in Go, as in Neo4j when written
// alone, would silently become a float there. coalesce of one argument is
// the identity and keeps an operand that is itself a product (or a computed
// field, which may be one) out of the flattening.
func (w *writer) factor(n node) string {
	s := w.expr(n)
	switch x := n.(type) {
	case *binary:
		if x.op == "*" {
			return "coalesce" + s
		}
	case *ref:
		if x.computed != nil {
			return "coalesce" + s
		}
	}
	return s
}

// junct writes an operand of the AND or OR op. Before planning, Neo4j
// rewrites every boolean expression into conjunctive normal form: De Morgan
// pushes NOT inward, then OR is distributed over AND, a OR (b AND c)
// becoming (a OR b) AND (a OR c). That is an equivalence in three-valued
// logic but not once an operand can fail, because its runtime lets the
// deciding value absorb an error only within one AND or OR: null OR
// (<overflow> AND false) is null OR false, null (Go's meaning, and Neo4j's
// for the expression as written), but (null OR <overflow>) AND (null OR
// false) is an overflow (seed 1795500795396730228 of the differential
// test). So an operand that is a NOT, or the other one of AND and OR, is
// fenced like a factor; then no AND can reach a place directly under an OR,
// whatever De Morgan makes of a NOT, and the rewrite never applies. A run
// of one operator (a OR b OR c) stays bare: regrouping it is exact.
func (w *writer) junct(op string, n node) string {
	s := w.expr(n)
	if l := w.logicOf(n); l == "not" || (l != "" && l != op) {
		return "coalesce" + s
	}
	return s
}

// logicOf is the boolean operator n is written as: "and", "or", "not", or
// "" for anything Neo4j's rewriters treat as an opaque predicate. An
// inlined computed field is looked through; a materialized or raw cypher
// one is a plain value.
func (w *writer) logicOf(n node) string {
	switch x := n.(type) {
	case *binary:
		if x.op == "and" || x.op == "or" {
			return x.op
		}
	case *unary:
		if x.op == "not" {
			return "not"
		}
	case *ref:
		if x.computed != nil && x.computed.Cypher == "" && !w.opts.Materialized[x.name] {
			return w.logicOf(w.ent.Field(x.name).tree)
		}
	}
	return ""
}

func (w *writer) call(x *call) string {
	arg := func(i int) string { return w.expr(x.args[i]) }
	switch x.fn {
	case "len":
		return "size(" + arg(0) + ")"
	case "abs", "ceil", "floor", "trim":
		return x.fn + "(" + arg(0) + ")"
	case "round":
		return "round(" + arg(0) + ", 0, 'HALF_UP')"
	case "parse_datetime":
		w.vars++
		v := fmt.Sprintf("__rf_c%d", w.vars)
		return fmt.Sprintf("[%s IN [%s] | %s][0]", v, arg(0), layoutLeaf(v, x.args[1].(*lit).value.(string)))
	case "to_float", "to_int", "to_datetime":
		// The text is bound once: the readers repeat it.
		w.vars++
		v := fmt.Sprintf("__rf_c%d", w.vars)
		read := map[string]string{
			"to_float":    textvalue.NumberCypher(v, false),
			"to_int":      textvalue.NumberCypher(v, true),
			"to_datetime": datetimeLeaf(v, model.Text),
		}[x.fn]
		return fmt.Sprintf("[%s IN [%s] | %s][0]", v, arg(0), read)
	case "lower":
		return "toLower(" + arg(0) + ")"
	case "upper":
		return "toUpper(" + arg(0) + ")"
	case "now":
		if w.opts.Now != "" {
			return w.opts.Now
		}
		return DefaultNow
	case "days_since", "hours_since":
		unit := 86400000
		if x.fn == "hours_since" {
			unit = 3600000
		}
		now := DefaultNow
		if w.opts.Now != "" {
			now = w.opts.Now
		}
		return fmt.Sprintf("(((%s).epochMillis - (%s).epochMillis) / %d)", now, arg(0), unit)
	case "days_between":
		return fmt.Sprintf("(((%s).epochMillis - (%s).epochMillis) / 86400000)", arg(1), arg(0))
	case "year", "month", "day", "hour", "weekday":
		return fmt.Sprintf("(%s).%s", arg(0), dateParts[x.fn])
	case "truncate":
		// datetime.truncate fails on null instead of returning it, so the
		// value is bound once and truncated only when present: an empty
		// list's [0] is null.
		w.vars++
		v := fmt.Sprintf("__rf_t%d", w.vars)
		return fmt.Sprintf("[%s IN [%s] WHERE %s IS NOT NULL | datetime.truncate(%s, %s)][0]", v, arg(0), v, arg(1), v)
	case "min", "max":
		le, gt := "<=", ">"
		if x.fn == "max" {
			le, gt = ">=", "<"
		}
		if atomic(x.args[0]) && atomic(x.args[1]) {
			a, b := arg(0), arg(1)
			return fmt.Sprintf("CASE WHEN %s %s %s THEN %s WHEN %s %s %s THEN %s END", a, le, b, a, a, gt, b, b)
		}
		// Bind both values once: a list comprehension over a one-element list.
		w.vars++
		v := fmt.Sprintf("__rf_m%d", w.vars)
		a, b := v+"[0]", v+"[1]"
		return fmt.Sprintf("[%s IN [[%s, %s]] | CASE WHEN %s %s %s THEN %s WHEN %s %s %s THEN %s END][0]",
			v, arg(0), arg(1), a, le, b, a, a, gt, b, b)
	}
	panic("computed: unknown function " + x.fn)
}

// dateParts are the DATETIME properties the date-part functions read. Every
// datetime an expression sees is in UTC (datetimeLeaf), so the parts are
// UTC's; dayOfWeek is ISO's, Monday 1 to Sunday 7.
var dateParts = map[string]string{"year": "year", "month": "month", "day": "day", "hour": "hour", "weekday": "dayOfWeek"}

// writeLit writes a config constant as a Cypher literal (never a parameter:
// fragments are self-contained text, and only the config's own constants,
// escaped, ever appear in them).
func writeLit(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case int64:
		if x < 0 {
			return "(" + strconv.FormatInt(x, 10) + ")"
		}
		return strconv.FormatInt(x, 10)
	case float64:
		s := formatFloat(x)
		if x < 0 || (x == 0 && 1/x < 0) {
			return "(" + s + ")"
		}
		return s
	case string:
		return quoteString(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	panic(fmt.Sprintf("computed: literal of type %T", v))
}

// layoutLeaf reads the text x in a layout the checker accepted as a
// DATETIME in UTC (textvalue.Layout.Cypher builds it in zone Z), null
// for another form.
func layoutLeaf(x, layout string) string {
	l, err := textvalue.ParseLayout(layout)
	if err != nil {
		return "null" // the checker and the config schema refuse such a layout
	}
	return l.Cypher(x)
}

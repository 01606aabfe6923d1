package planner

import (
	"fmt"
	"time"

	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// condOps maps query_entities operators to Cypher; the operator text comes
// from this table, never from the call.
var condOps = map[string]string{
	"=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"CONTAINS": "CONTAINS", "STARTS WITH": "STARTS WITH", "ENDS WITH": "ENDS WITH",
}

// preds holds predicates split by what they need: stored ones go in the
// first MATCH, computed ones after the computed fields are computed.
type preds struct {
	stored, computed []string
	refs             []fieldRef // runtime computed fields the computed predicates read
	// chosen lists every computed field a predicate or the sort read,
	// runtime or materialized: the result shows them whichever way they
	// were evaluated, so its shape never depends on materialization.
	chosen []fieldRef
	// valued lists the expressions (b.expr) of the fields a top-level
	// condition tests with an operator other than IS NULL: every test but
	// IS NULL is null, so false, on a missing value, so every entity kept
	// has a value there (nullsLastFromIndex then skips its part without).
	valued []string
}

func (ps *preds) add(b *builder, r fieldRef, pred string) { ps.addAll(b, []fieldRef{r}, pred) }

// addAll files one predicate that reads refs: with the computed
// predicates when any of them is computed at runtime, else with the
// stored ones.
//
// An empty pred (an aggregate test without operator) files nothing: no
// predicate reads its value, which is computed after the page is cut
// (ensureAggregates) unless a sort needs it before.
func (ps *preds) addAll(b *builder, refs []fieldRef, pred string) {
	if pred == "" {
		return
	}
	runtime := false
	for _, r := range refs {
		if r.c != nil && !containsRef(ps.chosen, r) {
			ps.chosen = append(ps.chosen, r)
		}
		if b.runtime(r) {
			runtime = true
			ps.refs = append(ps.refs, r)
		}
	}
	if runtime {
		ps.computed = append(ps.computed, pred)
		return
	}
	ps.stored = append(ps.stored, pred)
}

// conditions renders the conditions of argument name (field tests,
// relationship tests and groups), ANDed.
func (b *builder) conditions(conds []tools.Condition, name string, ps *preds) error {
	preds, refs, err := b.conjunction(b.mainScope(), conds, "/"+name, 0)
	if err != nil {
		return err
	}
	for i, pred := range preds {
		for _, r := range refs[i] {
			b.use(r, model.UseFilter)
		}
		ps.addAll(b, refs[i], pred)
	}
	for _, c := range conds {
		if c.Field == "" || c.Operator == "IS NULL" {
			continue
		}
		if r, err := b.field(c.Field, ""); err == nil {
			ps.valued = append(ps.valued, b.expr(r))
		}
	}
	return nil
}

// conjunction renders conds, which are ANDed, in scope s at depth: one
// predicate per condition, each with the builder-entity fields it reads,
// except that the comparisons of one datetime field (other than epoch)
// merge into one span at the place of the first. A date range is asked as
// two conditions, x >= a and x < b; as two spans, each a disjunction over
// the temporal types, Neo4j could seek only one side of the range.
func (b *builder) conjunction(s scope, conds []tools.Condition, at string, depth int) ([]string, [][]fieldRef, error) {
	type span struct {
		r      fieldRef
		lo, hi *int64
	}
	spans := make([]*span, len(conds))
	merged := make([]bool, len(conds))
	first := map[*model.Field]*span{}
	inside, declared := b.placeNames(conds, at)
	defer b.forgetNames(declared)
	for i, c := range conds {
		if c.Field == "" || inside != nil && inside[i] {
			continue
		}
		cat := at + "/" + itoa(i)
		r, err := s.field(b, c.Field, cat+"/field")
		if err != nil {
			return nil, nil, err
		}
		lo, hi, ok, err := b.timeBounds(r, c, cat)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		if sp := first[r.f]; sp != nil {
			sp.lo, sp.hi = later(sp.lo, lo), earlier(sp.hi, hi)
			merged[i] = true
			continue
		}
		spans[i] = &span{r: r, lo: lo, hi: hi}
		first[r.f] = spans[i]
	}
	var preds []string
	var refs [][]fieldRef
	for i, c := range conds {
		switch {
		case merged[i], inside != nil && inside[i]:
			continue
		case spans[i] != nil:
			sp := spans[i]
			preds = append(preds, b.nullSafe(joinAnd(b.instantSpan(sp.r, sp.lo, sp.hi))))
			if sp.r.node == "" {
				refs = append(refs, []fieldRef{sp.r})
			} else {
				refs = append(refs, nil)
			}
		default:
			p, rs, err := b.test(s, c, at+"/"+itoa(i), depth)
			if err != nil {
				return nil, nil, err
			}
			preds = append(preds, p)
			refs = append(refs, rs)
		}
	}
	return preds, refs, nil
}

// later and earlier intersect span bounds (nil is open).
func later(a, b *int64) *int64 {
	if a == nil || (b != nil && *b > *a) {
		return b
	}
	return a
}

func earlier(a, b *int64) *int64 {
	if a == nil || (b != nil && *b < *a) {
		return b
	}
	return a
}

// condition renders one field test. Parse checked the operator against the
// field, the value against the field's type (converting it), IN lists and
// ignore_case; the operator is still mapped through a fixed table, since
// it becomes Cypher. A datetime comparison or = keeps a span of instants
// (timeBounds), written so that a range index on the property seeks it
// (instantSpan); the other datetime tests compare timeSide's instant,
// which no index serves: a != seeks nothing anyway, and a span per listed
// value would make the statement grow with the list (Parse offers no IN
// on datetimes; arguments that skipped it still get a correct statement).
func (b *builder) condition(r fieldRef, c tools.Condition, at string) (string, error) {
	if lo, hi, ok, err := b.timeBounds(r, c, at); err != nil {
		return "", err
	} else if ok {
		return joinAnd(b.instantSpan(r, lo, hi)), nil
	}
	if isList(r) {
		return b.listCondition(r, c, at)
	}
	x := b.expr(r)
	ci := c.IgnoreCase
	if ci {
		x = "toLower(" + x + ")"
	}
	if r.f.DatetimeText() {
		// A marker ("NULL", "") is a null datetime, as every other read
		// of the field makes it.
		x = stringInstant(r.f, x)
	}
	switch c.Operator {
	case "IS NULL":
		return x + " IS NULL", nil
	case "IS NOT NULL":
		return x + " IS NOT NULL", nil
	case "IN", "NOT IN":
		list, _ := c.Value.([]any)
		vals := make([]any, len(list))
		for i, v := range list {
			nv, err := b.value(r, v, fmt.Sprintf("%s/value/%d", at, i))
			if err != nil {
				return "", err
			}
			vals[i] = nv
		}
		if r.f.Type.Kind() == model.Datetime {
			x = b.timeSide(r)
		}
		list0 := b.param(vals)
		if ci {
			list0 = "[v IN " + list0 + " | toLower(v)]"
		}
		pred := x + " IN " + list0
		if c.Operator == "NOT IN" {
			pred = "NOT " + pred
		}
		return pred, nil
	}
	op, ok := condOps[c.Operator]
	if !ok {
		return "", unplannable(b.tool, "operator", c.Operator)
	}
	v, err := b.value(r, c.Value, at+"/value")
	if err != nil {
		return "", err
	}
	if r.f.Type.Kind() == model.Datetime {
		x = b.timeSide(r)
	}
	val := b.param(v)
	if ci {
		val = "toLower(" + val + ")"
	}
	return x + " " + op + " " + val, nil
}

// value is the parameter a value of field r becomes. Parse converted it to
// the field's Go type (int64, float64, bool or string); a datetime becomes
// the instant the field's storage compares with.
func (b *builder) value(r fieldRef, v any, at string) (any, error) {
	if r.f.Type.Kind() != model.Datetime {
		return v, nil
	}
	s, _ := v.(string)
	t, err := tools.ParseDatetime(s)
	if err != nil {
		return nil, unplannable(b.tool, at[1:], v)
	}
	return timeParam(r.f, t), nil
}

// timeParam is the parameter a datetime field is compared with: an
// integer, epoch seconds for fields stored so, epoch milliseconds for every
// other storage (compared with timeSide's instant, or turned into bounds of
// the stored type by instantSpan). Integers compare instants exactly;
// Neo4j's DATETIME ordering does not (two DATETIMEs of one instant in
// different offsets are ordered by offset, so a boundary instant written in
// another zone would fall on the wrong side).
func timeParam(f *model.Field, t time.Time) int64 {
	if f.StoredAs == model.EpochSeconds {
		return t.Unix()
	}
	return t.UnixMilli()
}

// timeBounds is the span [lo, hi) of instants, in timeParam's units, that
// a comparison or = of datetime field r keeps (x > t keeps [t+1, ∞),
// x = t keeps [t, t+1)); ok is false for another test, and for an epoch
// field, whose number is compared bare.
func (b *builder) timeBounds(r fieldRef, c tools.Condition, at string) (lo, hi *int64, ok bool, err error) {
	if r.f.Type.Kind() != model.Datetime || epoch(r.f) {
		return nil, nil, false, nil
	}
	switch c.Operator {
	case "=", "<", "<=", ">", ">=":
	default:
		return nil, nil, false, nil
	}
	v, err := b.value(r, c.Value, at+"/value")
	if err != nil {
		return nil, nil, false, err
	}
	t, _ := v.(int64)
	next := t + 1
	switch c.Operator {
	case "=":
		return &t, &next, true, nil
	case "<":
		return nil, &t, true, nil
	case "<=":
		return nil, &next, true, nil
	case ">":
		return &next, nil, true, nil
	}
	return &t, nil, true, nil
}

// epoch reports whether datetime field f is stored as a number.
func epoch(f *model.Field) bool {
	return f.StoredAs == model.EpochSeconds || f.StoredAs == model.EpochMillis
}

// timeSide is the field side of a datetime comparison, as an instant in
// epoch units: the stored number for epoch fields; for ISO strings the
// parsed instant's epochMillis; for temporal values the instant in UTC
// (a DATE is midnight UTC, a LOCAL DATETIME is read as UTC, as package
// computed reads them).
func (b *builder) timeSide(r fieldRef) string {
	x := b.expr(r)
	switch {
	case epoch(r.f):
		return x
	case textTime(r.f):
		return stringInstant(r.f, x)
	}
	return "CASE WHEN " + x + " IS :: DATE NOT NULL THEN datetime({date: " + x + ", timezone: 'Z'}).epochMillis WHEN " + x +
		" IS NOT NULL THEN datetime({datetime: " + x + ", timezone: 'Z'}).epochMillis END"
}

// isoPattern accepts the ISO-8601 forms Cypher's datetime() parses that a
// config's ISO-string fields hold: a date, optionally a time (to the
// minute, second or fraction) and a zone. It is the planner's own constant,
// never agent text, and linear: no two adjacent parts can match the same
// characters.
const isoPattern = `\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?)?(Z|[+-]\\d{2}:\\d{2})?`

// isoInstant reads an ISO-string field as epoch milliseconds; a value that
// is not such a string is null (it matches no comparison) instead of
// failing the whole statement in datetime().
func isoInstant(x string) string {
	return "CASE WHEN " + x + " =~ '" + isoPattern + "' THEN datetime(" + x + ").epochMillis END"
}

// textTime reports whether datetime field f is held as a string (stored_as
// iso_string or text): every such form starts with its wall-clock date, so
// instantSpan's string range seeks it in a range index.
func textTime(f *model.Field) bool {
	return f.StoredAs == model.ISOString || f.StoredAs == model.Text
}

// stringInstant reads the string x of datetime field f (textTime) as epoch
// milliseconds, null for a string not in the storage's forms.
func stringInstant(f *model.Field, x string) string {
	if f.StoredAs == model.Text {
		return "(" + textDatetime(f, x) + ").epochMillis"
	}
	return isoInstant(x)
}

// sortExpr is what an order_by on field r sorts by, and its key: a
// datetime stored as text sorts by its instant (text order would put a
// "NULL" marker among the dates), anything else by its read.
func (b *builder) sortExpr(r fieldRef) (string, *SortKey) {
	x := b.expr(r)
	if r.f.DatetimeText() {
		return stringInstant(r.f, x), &SortKey{Name: r.f.Name, Epoch: "ms"}
	}
	return x, fieldKey(r.f)
}

// textDatetime reads the text x of datetime field f stored_as: text as a
// DATETIME, in f's layout or the common forms. The config schema refuses
// a layout textvalue cannot read, so a model that still has one (built in
// Go, never validated) reads every value as null rather than failing.
func textDatetime(f *model.Field, x string) string {
	_, read, err := textvalue.DatetimeReader(f.Layout)
	if err != nil {
		return "null"
	}
	return read(x)
}

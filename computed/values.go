package computed

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/model"
)

// The functions in this file are the Go meaning of every operator; the
// evaluator (eval.go) calls them from an expr program. Each mirrors what
// the Cypher written by cypher.go does on Neo4j 5.26, value for value; where
// expr's own behaviour differs (expr errors on nil, divides by zero to
// Inf, panics on % 0, wraps on overflow) the choice is documented in doc.go
// and made on both sides.

// ErrOverflow is returned when integer arithmetic leaves int64; Neo4j
// raises an ArithmeticError ("long overflow") for the same inputs.
var ErrOverflow = errors.New("integer overflow")

// normalize turns a property value from a caller or the driver into the
// evaluator's value set: nil, int64, float64, string, bool, or (for
// datetimes) whatever dt accepts.
func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case float32:
		return float64(x)
	}
	return v
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	panic(fmt.Sprintf("computed: not a number: %T", v))
}

func bothInt(a, b any) (int64, int64, bool) {
	x, ok1 := a.(int64)
	y, ok2 := b.(int64)
	return x, y, ok1 && ok2
}

func isNum(v any) bool {
	switch v.(type) {
	case int64, float64:
		return true
	}
	return false
}

func typeErr(op string, args ...any) error {
	types := make([]string, len(args))
	for i, a := range args {
		types[i] = fmt.Sprintf("%T", a)
	}
	return fmt.Errorf("%s: unsupported operand types %s", op, strings.Join(types, ", "))
}

func opAdd(a, b any) (any, error) {
	if a == nil || b == nil {
		return nil, nil
	}
	if s, ok := a.(string); ok {
		if t, ok := b.(string); ok {
			return s + t, nil
		}
	}
	if x, y, ok := bothInt(a, b); ok {
		c := x + y
		if (x^c)&(y^c) < 0 {
			return nil, ErrOverflow
		}
		return c, nil
	}
	if !isNum(a) || !isNum(b) {
		return nil, typeErr("+", a, b)
	}
	return toFloat(a) + toFloat(b), nil
}

func opSub(a, b any) (any, error) {
	if a == nil || b == nil {
		return nil, nil
	}
	if x, y, ok := bothInt(a, b); ok {
		c := x - y
		if (x^y)&(x^c) < 0 {
			return nil, ErrOverflow
		}
		return c, nil
	}
	if !isNum(a) || !isNum(b) {
		return nil, typeErr("-", a, b)
	}
	return toFloat(a) - toFloat(b), nil
}

func opMul(a, b any) (any, error) {
	if a == nil || b == nil {
		return nil, nil
	}
	if x, y, ok := bothInt(a, b); ok {
		if x == 0 || y == 0 {
			return int64(0), nil
		}
		c := x * y
		if c/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
			return nil, ErrOverflow
		}
		return c, nil
	}
	if !isNum(a) || !isNum(b) {
		return nil, typeErr("*", a, b)
	}
	return toFloat(a) * toFloat(b), nil
}

// opDiv is expr's float division; a zero divisor (integer or ±0.0) gives
// null.
func opDiv(a, b any) (any, error) {
	if a == nil || b == nil {
		return nil, nil
	}
	if !isNum(a) || !isNum(b) {
		return nil, typeErr("/", a, b)
	}
	d := toFloat(b)
	if d == 0 {
		return nil, nil
	}
	return toFloat(a) / d, nil
}

// opMod truncates like Go and Java; a zero divisor gives null.
func opMod(a, b any) (any, error) {
	if a == nil || b == nil {
		return nil, nil
	}
	if !isNum(a) || !isNum(b) {
		return nil, typeErr("%", a, b)
	}
	if toFloat(b) == 0 {
		return nil, nil
	}
	if x, y, ok := bothInt(a, b); ok {
		if y == -1 {
			return int64(0), nil
		}
		return x % y, nil
	}
	return math.Mod(toFloat(a), toFloat(b)), nil
}

func opPow(a, b any) (any, error) {
	if a == nil || b == nil {
		return nil, nil
	}
	if !isNum(a) || !isNum(b) {
		return nil, typeErr("**", a, b)
	}
	return math.Pow(toFloat(a), toFloat(b)), nil
}

func opNeg(a any) (any, error) {
	switch x := a.(type) {
	case nil:
		return nil, nil
	case int64:
		if x == math.MinInt64 {
			return nil, ErrOverflow
		}
		return -x, nil
	case float64:
		return -x, nil
	}
	return nil, typeErr("-", a)
}

func opNot(a any) (any, error) {
	switch x := a.(type) {
	case nil:
		return nil, nil
	case bool:
		return !x, nil
	}
	return nil, typeErr("not", a)
}

// compare orders two non-null values of one kind: -1, 0, 1, or ok=false
// when they are not comparable (NaN, mixed kinds). Numbers compare exactly
// (an integer and a float by their mathematical values, not after rounding
// the integer to a float), as Neo4j does at run time. With order set (<,
// <=, >, >=) -0.0 sorts below 0 and 0.0, as in Neo4j; for == and != they
// are equal.
func compare(a, b any, order bool) (int, bool) {
	if x, y, ok := bothInt(a, b); ok {
		return cmp3(x < y, x > y), true
	}
	if isNum(a) && isNum(b) {
		if (isFloat(a) && math.IsNaN(toFloat(a))) || (isFloat(b) && math.IsNaN(toFloat(b))) {
			return 0, false
		}
		if order && toFloat(a) == 0 && toFloat(b) == 0 {
			return cmp3(negZero(a) && !negZero(b), !negZero(a) && negZero(b)), true
		}
		switch x := a.(type) {
		case int64:
			return cmpIntFloat(x, b.(float64)), true
		case float64:
			if y, ok := b.(int64); ok {
				return -cmpIntFloat(y, x), true
			}
			y := b.(float64)
			return cmp3(x < y, x > y), true
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmp3(!x && y, x && !y), true
		}
	case time.Time:
		if y, ok := b.(time.Time); ok {
			return x.Compare(y), true
		}
	}
	return 0, false
}

func isFloat(v any) bool { _, ok := v.(float64); return ok }

func negZero(v any) bool {
	f, ok := v.(float64)
	return ok && f == 0 && math.Signbit(f)
}

// cmpIntFloat compares an integer and a finite float exactly.
func cmpIntFloat(x int64, y float64) int {
	switch {
	case y >= 0x1p63:
		return -1
	case y < -0x1p63:
		return 1
	}
	t := math.Trunc(y)
	if ti := int64(t); x != ti {
		return cmp3(x < ti, x > ti)
	}
	return cmp3(y > t, y < t)
}

func cmp3(less, more bool) int {
	switch {
	case less:
		return -1
	case more:
		return 1
	}
	return 0
}

func opCompare(op string) func(a, b any) (any, error) {
	return func(a, b any) (any, error) {
		if a == nil || b == nil {
			return nil, nil
		}
		c, ok := compare(a, b, op != "==" && op != "!=")
		if !ok {
			if isNum(a) && isNum(b) { // NaN: every comparison false, <> true
				return op == "!=", nil
			}
			return nil, typeErr(op, a, b)
		}
		switch op {
		case "==":
			return c == 0, nil
		case "!=":
			return c != 0, nil
		case "<":
			return c < 0, nil
		case "<=":
			return c <= 0, nil
		case ">":
			return c > 0, nil
		case ">=":
			return c >= 0, nil
		}
		return nil, fmt.Errorf("unknown comparison %s", op)
	}
}

func strOp(op string, f func(a, b string) bool) func(a, b any) (any, error) {
	return func(a, b any) (any, error) {
		if a == nil || b == nil {
			return nil, nil
		}
		x, ok1 := a.(string)
		y, ok2 := b.(string)
		if !ok1 || !ok2 {
			return nil, typeErr(op, a, b)
		}
		return f(x, y), nil
	}
}

func opIn(x any, list ...any) (any, error) {
	if x == nil {
		return nil, nil
	}
	for _, l := range list {
		if c, ok := compare(x, l, false); ok && c == 0 {
			return true, nil
		}
	}
	return false, nil
}

func opMatches(x any, re *regexp.Regexp) (any, error) {
	if x == nil {
		return nil, nil
	}
	s, ok := x.(string)
	if !ok {
		return nil, typeErr("matches", x)
	}
	return re.MatchString(s), nil
}

// fnLen counts code points, as expr's len and Cypher's size() do.
func fnLen(x any) (any, error) {
	if x == nil {
		return nil, nil
	}
	s, ok := x.(string)
	if !ok {
		return nil, typeErr("len", x)
	}
	return int64(utf8.RuneCountInString(s)), nil
}

// fnAbs keeps Java's Math.abs on the smallest int64 (it stays negative),
// which is what Neo4j returns; Go's two's complement negation agrees.
func fnAbs(x any) (any, error) {
	switch v := x.(type) {
	case nil:
		return nil, nil
	case int64:
		if v < 0 {
			return -v, nil
		}
		return v, nil
	case float64:
		return math.Abs(v), nil
	}
	return nil, typeErr("abs", x)
}

func floatFn(name string, f func(float64) float64) func(x any) (any, error) {
	return func(x any) (any, error) {
		if x == nil {
			return nil, nil
		}
		if !isNum(x) {
			return nil, typeErr(name, x)
		}
		return f(toFloat(x)), nil
	}
}

// fnLower and fnUpper use full Unicode case mapping (ß → SS, İ → i̇, final
// sigma), which is what Java's String.toLowerCase/toUpperCase — and so
// Cypher's toLower/toUpper — do; Go's strings.ToLower (expr's lower) maps
// one rune at a time and would disagree.
func fnLower(x any) (any, error) {
	if x == nil {
		return nil, nil
	}
	s, ok := x.(string)
	if !ok {
		return nil, typeErr("lower", x)
	}
	return cases.Lower(language.Und).String(s), nil
}

func fnUpper(x any) (any, error) {
	if x == nil {
		return nil, nil
	}
	s, ok := x.(string)
	if !ok {
		return nil, typeErr("upper", x)
	}
	return cases.Upper(language.Und).String(s), nil
}

// fnTrim strips Java's whitespace (Character.isWhitespace), which is what
// Cypher's trim() strips: Unicode space separators except the no-break
// spaces, line and paragraph separators, and the ASCII controls \t \n \v \f
// \r and \x1c-\x1f. Go's strings.TrimSpace (expr's trim) would also strip
// no-break spaces and U+0085.
func fnTrim(x any) (any, error) {
	if x == nil {
		return nil, nil
	}
	s, ok := x.(string)
	if !ok {
		return nil, typeErr("trim", x)
	}
	return strings.TrimFunc(s, javaWhitespace), nil
}

func javaWhitespace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1c && r <= 0x1f:
		return true
	case r == 0x00a0 || r == 0x2007 || r == 0x202f:
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

// fnMinMax keeps the first argument on ties, like expr's min and max.
func fnMinMax(isMax bool) func(a, b any) (any, error) {
	return func(a, b any) (any, error) {
		if a == nil || b == nil {
			return nil, nil
		}
		c, ok := compare(a, b, true)
		if !ok {
			return nil, nil
		}
		if (!isMax && c <= 0) || (isMax && c >= 0) {
			return a, nil
		}
		return b, nil
	}
}

// textNumber reads text as textvalue.ParseNumber does: a value that is not
// text, or text of another form, is null, as Cypher's =~ makes it.
func textNumber(integer bool) func(x any) (any, error) {
	return func(x any) (any, error) {
		s, ok := x.(string)
		if !ok {
			return nil, nil
		}
		v, ok := textvalue.ParseNumber(s, integer)
		if !ok {
			return nil, nil
		}
		return v, nil
	}
}

// parseLayout reads text x in layout as textvalue.Layout does: null for a
// value that is not text or a text of another form, an error for a text
// of the form that names no calendar day, as on Neo4j.
func parseLayout(x, layout any) (any, error) {
	s, ok := x.(string)
	if !ok {
		return nil, nil
	}
	l, err := cachedLayout(layout.(string))
	if err != nil {
		return nil, err
	}
	return textTime(s, l.Parse)
}

// layouts holds each parse_datetime layout read once: the checker admits
// only a constant layout, so there are as many as the config's
// expressions name, and a value read no longer compiles its pattern.
var layouts sync.Map // string → *textvalue.Layout

func cachedLayout(layout string) (*textvalue.Layout, error) {
	if l, ok := layouts.Load(layout); ok {
		return l.(*textvalue.Layout), nil
	}
	l, err := textvalue.ParseLayout(layout)
	if err != nil {
		return nil, err
	}
	layouts.Store(layout, l)
	return l, nil
}

// textTime reads text s with parse: null when it has another form, an
// error when it has the form but names no calendar day.
func textTime(s string, parse func(string) (time.Time, bool, error)) (any, error) {
	t, ok, err := parse(s)
	if !ok {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("invalid datetime %q: %v", s, err)
	}
	return t, nil
}

// dt converts a stored datetime to one meaning: a time.Time in UTC.
func dt(v any, storage model.DatetimeStorage) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch storage {
	case model.Text:
		s, ok := v.(string)
		if !ok {
			return nil, nil // Cypher's =~ on a non-string is null
		}
		return textTime(s, textvalue.ParseDatetime)
	case model.ISOString:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("datetime stored as iso_string holds %T", v)
		}
		if !isoGo.MatchString(s) {
			return nil, nil
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, fmt.Errorf("invalid datetime %q: %v", s, err)
		}
		return t.UTC(), nil
	case model.EpochSeconds, model.EpochMillis:
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("datetime stored as %s holds %T", storage, v)
		}
		if storage == model.EpochSeconds {
			return time.Unix(n, 0).UTC(), nil
		}
		return time.UnixMilli(n).UTC(), nil
	}
	switch t := v.(type) {
	case time.Time:
		return t.UTC(), nil
	case dbtype.LocalDateTime:
		u := time.Time(t)
		return time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), time.UTC), nil
	case dbtype.Date:
		u := time.Time(t)
		return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC), nil
	}
	return nil, fmt.Errorf("datetime holds %T", v)
}

// isoGo and isoJava accept strict RFC 3339 with an offset Java's ZoneOffset
// allows (at most ±18:00); Go's time.Parse and Cypher's datetime() then
// read the same instant. Both patterns are fixed-length pieces without
// nested repetition, linear in either engine.
const isoCore = `[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?(Z|[+-]((0[0-9]|1[0-7]):[0-5][0-9]|18:00))`

var isoGo = regexp.MustCompile(`^` + isoCore + `$`)

const isoJava = isoCore

func millisBetween(a, b any) (int64, bool, error) {
	if a == nil || b == nil {
		return 0, false, nil
	}
	x, ok1 := a.(time.Time)
	y, ok2 := b.(time.Time)
	if !ok1 || !ok2 {
		return 0, false, typeErr("datetime difference", a, b)
	}
	return y.UnixMilli() - x.UnixMilli(), true, nil
}

// fnSince is ((to.epochMillis - from.epochMillis) / unit), truncated toward
// zero in both Go and Cypher.
func fnSince(unit int64) func(from, to any) (any, error) {
	return func(from, to any) (any, error) {
		d, ok, err := millisBetween(from, to)
		if !ok {
			return nil, err
		}
		return d / unit, nil
	}
}

// datePart reads one calendar field of a datetime. Every datetime the
// evaluator holds is a UTC time.Time (dt, now), so the field is UTC's, as
// the Cypher reads it from a DATETIME in zone Z.
func datePart(name string, part func(time.Time) int) func(x any) (any, error) {
	return func(x any) (any, error) {
		if x == nil {
			return nil, nil
		}
		t, ok := x.(time.Time)
		if !ok {
			return nil, typeErr(name, x)
		}
		return int64(part(t)), nil
	}
}

// isoWeekday numbers the days as ISO 8601 and Cypher's dayOfWeek do,
// Monday 1 to Sunday 7 (Go's Weekday counts Sunday 0).
func isoWeekday(t time.Time) int {
	if d := t.Weekday(); d != time.Sunday {
		return int(d)
	}
	return 7
}

// fnTruncate is Cypher's datetime.truncate(unit, t) on a UTC datetime: the
// start of t's hour, day, ISO week (Monday), month or year, in UTC.
func fnTruncate(x, unit any) (any, error) {
	if x == nil {
		return nil, nil
	}
	t, ok := x.(time.Time)
	if !ok {
		return nil, typeErr("truncate", x)
	}
	y, m, d := t.Date()
	switch unit {
	case "hour":
		return time.Date(y, m, d, t.Hour(), 0, 0, 0, time.UTC), nil
	case "day":
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), nil
	case "week":
		return time.Date(y, m, d-isoWeekday(t)+1, 0, 0, 0, 0, time.UTC), nil
	case "month":
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), nil
	case "year":
		return time.Date(y, time.January, 1, 0, 0, 0, 0, time.UTC), nil
	}
	return nil, fmt.Errorf("truncate: unknown unit %v", unit)
}

package planner

import (
	"strings"
	"time"
)

// precisionUnit truncates t to the precision in loc and returns the
// truncated time and a function adding one unit.
func truncate(t time.Time, precision string, loc *time.Location) (time.Time, func(time.Time) time.Time) {
	t = t.In(loc)
	switch precision {
	case "minute":
		return t.Truncate(time.Minute), func(x time.Time) time.Time { return x.Add(time.Minute) }
	case "hour":
		// Truncate on the wall clock, not on absolute hours, so zones with
		// half-hour offsets truncate to their own hours.
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc), func(x time.Time) time.Time { return x.Add(time.Hour) }
	case "day":
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc), func(x time.Time) time.Time { return x.AddDate(0, 0, 1) }
	}
	return t.Truncate(time.Second), func(x time.Time) time.Time { return x.Add(time.Second) }
}

// ceil rounds t up to the precision (t itself when already on a unit).
func ceil(t time.Time, precision string, loc *time.Location) time.Time {
	tr, next := truncate(t, precision, loc)
	if tr.Equal(t) {
		return tr
	}
	return next(tr)
}

// maxOffset is the widest UTC offset Neo4j accepts in a DATETIME (Java's
// ZoneOffset range), in milliseconds.
const maxOffset = 18 * 3600 * 1000

// instantSpan renders "the instant field r holds lies in [lo, hi)", lo and
// hi in timeParam's units (a nil bound is open), as predicates a range
// index on the property can seek, for each storage.
//
// An epoch field compares its number bare: x >= $lo AND x < $hi.
//
// A temporal field may hold DATE, DATETIME and LOCAL DATETIME values, even
// mixed on one property; Neo4j compares values of different temporal types
// as null and keeps each type apart in the index. So the span becomes one
// range per type, each with bounds of that type made from the same
// epoch-millisecond parameters:
//
//	(datetime(lo at -18:00) <= x < datetime(hi at -18:00)
//	 OR localdatetime(lo in UTC) <= x < localdatetime(hi in UTC)
//	 OR date(first day whose midnight UTC is not before lo) <= x < date(… hi))
//
// The meaning is timeSide's instant. A LOCAL DATETIME is read as UTC and a
// DATE as its midnight UTC, as there. Neo4j orders DATETIMEs by instant,
// then by offset, west first; -18:00 is the westmost offset, so a DATETIME
// is within bounds at -18:00 exactly when its instant is in the span (with
// bounds in UTC, an instant equal to lo written at -05:00 would sort below
// lo). Each range is one chained comparison: written a <= x AND x < b,
// Neo4j's CNF rewrite distributes the OR over the ANDs and seeks each type
// from one side only; chained, the plan is a union of three
// NodeIndexSeekByRange, each with both bounds.
//
// An ISO-string field gets a string range that holds every string whose
// instant is in the span, then the exact instant test of timeSide:
//
//	x >= 'YYYY-MM-DD' of lo - 18h AND x < 'YYYY-MM-DD' of hi + 18h, plus one day
//	AND instant(x) >= $lo AND instant(x) < $hi
//
// Every form isoPattern accepts (date only, minutes, seconds, fractions,
// no zone, Z or any offset, mixed on one property) starts with its
// wall-clock date, which is within 18 hours of its instant, and strings
// that start with dates order as the dates do. So the string range seeks
// a few days around the span whatever the forms, and the instant test
// keeps the meaning exact. A string bound outside years 0000–9999, which
// no accepted string reaches, is left out.
func (b *builder) instantSpan(r fieldRef, lo, hi *int64) []string {
	x := b.expr(r)
	var out []string
	switch {
	case epoch(r.f):
		if lo != nil {
			out = append(out, x+" >= "+b.param(*lo))
		}
		if hi != nil {
			out = append(out, x+" < "+b.param(*hi))
		}
		return out
	case textTime(r.f):
		// A layout need not start with the date: only the exact test.
		if lo != nil && r.f.Layout == "" {
			if day, ok := isoDay(*lo - maxOffset); ok {
				out = append(out, x+" >= "+b.param(day))
			}
		}
		if hi != nil && r.f.Layout == "" {
			if day, ok := isoDay(*hi + maxOffset + 24*3600*1000); ok {
				out = append(out, x+" < "+b.param(day))
			}
		}
		side := stringInstant(r.f, x)
		if lo != nil {
			out = append(out, side+" >= "+b.param(*lo))
		}
		if hi != nil {
			out = append(out, side+" < "+b.param(*hi))
		}
		return out
	}
	return []string{"(" + strings.Join(b.spanTypes(r, lo, hi), " OR ") + ")"}
}

// spanTypes renders instantSpan's span on a temporal field as one range
// per temporal type, the alternatives instantSpan ORs; nil for an epoch or
// ISO-string field, whose span is one range.
func (b *builder) spanTypes(r fieldRef, lo, hi *int64) []string {
	if epoch(r.f) || textTime(r.f) {
		return nil
	}
	x := b.expr(r)
	var l, h string
	if lo != nil {
		l = b.param(*lo)
	}
	if hi != nil {
		h = b.param(*hi)
	}
	// The bounds of each temporal type, from epoch milliseconds p.
	types := []func(p string) string{
		func(p string) string { return "datetime({epochMillis: " + p + ", timezone: '-18:00'})" },
		func(p string) string { return "localdatetime({datetime: datetime({epochMillis: " + p + "})})" },
		func(p string) string { return "date(datetime({epochMillis: " + p + " + 86399999}))" },
	}
	branches := make([]string, len(types))
	for i, bound := range types {
		switch {
		case lo != nil && hi != nil:
			branches[i] = bound(l) + " <= " + x + " < " + bound(h)
		case lo != nil:
			branches[i] = x + " >= " + bound(l)
		default:
			branches[i] = x + " < " + bound(h)
		}
	}
	return branches
}

// isoDay is the date of epoch milliseconds ms in UTC as YYYY-MM-DD, the
// prefix every ISO string of that wall-clock day starts with; false when
// the year has not four digits.
func isoDay(ms int64) (string, bool) {
	t := time.UnixMilli(ms).UTC()
	if t.Year() < 0 || t.Year() > 9999 {
		return "", false
	}
	return t.Format("2006-01-02"), true
}

package planner

import (
	"fmt"
	"time"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// aggregates maps operations to Cypher aggregating functions.
var aggregates = map[string]string{"COUNT": "count", "AVG": "avg", "SUM": "sum", "MIN": "min", "MAX": "max"}

// instant emits the clause that reads datetime field r as an instant,
// carrying vars, and returns the bucket label of that instant, which is
// the instant timeSide compares. The value gets a variable of its own, so
// the property is read once and the label's null guard does not repeat
// it. An epoch number or an ISO string becomes epoch units (toInteger
// makes a fractional epoch number, seconds written by a script, a valid
// datetime() argument); a temporal value is zoned as timeSide reads it
// (a DATETIME as it is, a LOCAL DATETIME in UTC, a DATE at its midnight
// UTC) and converted to the bucket's zone directly, with no
// epoch round trip, which costs a bucket on every entity twice the time.
func (b *builder) instant(vars string, r fieldRef, at string, bucket func(instant, unit string) string) (string, error) {
	if r.f.Type.Kind() != model.Datetime {
		return "", unplannable(b.tool, "a bucket on the "+string(r.f.Type)+" field", r.f.Name)
	}
	const v = "`instant`"
	if epoch(r.f) || r.f.StoredAs == model.ISOString {
		b.line("WITH %s, toInteger(%s) AS %s", vars, b.timeSide(r), v)
		unit := "epochMillis"
		if r.f.StoredAs == model.EpochSeconds {
			unit = "epochSeconds"
		}
		return "CASE WHEN " + v + " IS NOT NULL THEN " + bucket(v, unit) + " END", nil
	}
	b.line("WITH %s, %s AS %s", vars, b.expr(r), v)
	zoned := "CASE WHEN " + v + " IS :: ZONED DATETIME THEN " + v + " WHEN " + v + " IS :: DATE THEN datetime({date: " + v + ", timezone: 'Z'}) ELSE datetime({datetime: " + v + ", timezone: 'Z'}) END"
	return "CASE WHEN " + v + " IS NOT NULL THEN " + bucket(zoned, "datetime") + " END", nil
}

// bucketLabels render a bucket's label from a zoned DATETIME t: readable
// strings that sort in time order (the weekday's name aside), in the form
// of ISO-8601 truncated to the bucket (toString of a DATE is YYYY-MM-DD,
// of a LOCAL DATETIME YYYY-MM-DDTHH:MM…). Weekdays are named, Monday
// first, as dayOfWeek counts them (ISO: Monday is 1). A day is the part
// of t's ISO form before its T, which is toString(date(t)) without
// building a DATE per entity (each temporal value built is a db hit and
// most of a bucket's time).
var bucketLabels = map[string]func(t string) string{
	tools.BucketHour:    func(t string) string { return "left(toString(localdatetime.truncate('hour', " + t + ")), 13)" },
	tools.BucketDay:     func(t string) string { return "split(toString(" + t + "), 'T')[0]" },
	tools.BucketWeekday: func(t string) string { return weekdays + "[" + t + ".dayOfWeek - 1]" },
	tools.BucketMonth:   func(t string) string { return "left(split(toString(" + t + "), 'T')[0], 7)" },
	tools.BucketYear:    func(t string) string { return "toString(" + t + ".year)" },
}

// BucketLabel is the Cypher expression of a bucket's label for the
// temporal expression t, read in t's own zone; ok is false for a bucket
// tools.Buckets does not list. The change-history statistics share the
// aggregate buckets' labels through it.
func BucketLabel(bucket, t string) (expr string, ok bool) {
	label, ok := bucketLabels[bucket]
	if !ok {
		return "", false
	}
	return label(t), true
}

const weekdays = "['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']"

// bucket returns the renderer of a bucket's label from an instant (unit
// is the datetime() key that reads it: epochMillis, epochSeconds, or
// datetime for a zoned DATETIME), read in the planner's zone, or an error
// when that zone cannot be named to Neo4j.
func (p *Planner) bucket(b *builder, name string) (func(instant, unit string) string, error) {
	label, ok := bucketLabels[name]
	if !ok {
		return nil, unplannable(b.tool, "bucket", name)
	}
	zone := zoneName(p.loc)
	if zone == "" {
		return nil, fmt.Errorf("planner: %s: datetime buckets need a zone Neo4j knows; Options.Location %q has no IANA name and a varying offset (load it with time.LoadLocation)", b.tool, p.loc)
	}
	return func(instant, unit string) string {
		return label("datetime({" + unit + ": " + instant + ", timezone: " + b.named("zone", zone) + "})")
	}, nil
}

// zoneName is loc as Neo4j's timezone argument takes it: a fixed offset
// (+HH:MM) when loc's offset never changed since 1970 — which also covers
// time.FixedZone, whose name means nothing to Neo4j — else loc's IANA
// name, or "" when loc has none (time.Local without a named zone).
func zoneName(loc *time.Location) string {
	_, off := time.Date(1970, 1, 1, 0, 0, 0, 0, loc).Zone()
	fixed := true
	for y := 1970; y <= 2040 && fixed; y++ {
		for _, m := range []time.Month{time.January, time.July} {
			if _, o := time.Date(y, m, 1, 0, 0, 0, 0, loc).Zone(); o != off {
				fixed = false
			}
		}
	}
	if fixed {
		sign := '+'
		if off < 0 {
			sign, off = '-', -off
		}
		return fmt.Sprintf("%c%02d:%02d", sign, off/3600, off/60%60)
	}
	if name := loc.String(); name != "Local" {
		if _, err := time.LoadLocation(name); err == nil {
			return name
		}
	}
	return ""
}

// zoneLabel names the zone for a note: its name, and the Neo4j zone when
// that differs (a fixed offset).
func zoneLabel(loc *time.Location) string {
	z := zoneName(loc)
	if n := loc.String(); n != "" && n != z {
		return n + " (" + z + ")"
	}
	return z
}

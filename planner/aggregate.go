package planner

import (
	"fmt"
	"time"

	"github.com/ragforge/ragforge/internal/cypher/timebucket"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// aggregates maps operations to Cypher aggregating functions.
var aggregates = map[string]string{"COUNT": "count", countDistinct: "count", "AVG": "avg", "SUM": "sum", "MIN": "min", "MAX": "max"}

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
func (b *builder) instant(vars string, r fieldRef, at string, bk *bucketing) (string, error) {
	if r.f.Type.Kind() != model.Datetime {
		return "", unplannable(b.tool, "a bucket on the "+string(r.f.Type)+" field", r.f.Name)
	}
	const v = "`instant`"
	if epoch(r.f) || textTime(r.f) {
		b.line("WITH %s, toInteger(%s) AS %s", vars, b.timeSide(r), v)
		unit := "epochMillis"
		if r.f.StoredAs == model.EpochSeconds {
			unit = "epochSeconds"
		}
		return "CASE WHEN " + v + " IS NOT NULL THEN " + bk.key(v, unit) + " END", nil
	}
	b.line("WITH %s, %s AS %s", vars, b.expr(r), v)
	zoned := "CASE WHEN " + v + " IS :: ZONED DATETIME THEN " + v + " WHEN " + v + " IS :: DATE THEN datetime({date: " + v + ", timezone: 'Z'}) ELSE datetime({datetime: " + v + ", timezone: 'Z'}) END"
	if bk.epoch {
		// Reading a DATETIME's epochSeconds builds no temporal value; the
		// key reads the number more than once, so it gets a variable.
		b.line("WITH %s, (%s).epochSeconds AS %s", vars, zoned, v)
		return "CASE WHEN " + v + " IS NOT NULL THEN " + bk.key(v, "epochSeconds") + " END", nil
	}
	return "CASE WHEN " + v + " IS NOT NULL THEN " + bk.key(zoned, "datetime") + " END", nil
}

// bucketing is how a datetime bucket groups: key renders the group key
// of an instant (unit is the datetime() key that reads it: epochMillis,
// epochSeconds, or datetime for a zoned DATETIME; epochSeconds only when
// epoch is set), and label, when not nil, renders the bucket's label from
// a key after the aggregation, once per group.
type bucketing struct {
	key   func(instant, unit string) string
	label func(key string) string
	epoch bool
}

// bucket returns how bucket name groups instants read in the planner's
// zone, or an error when that zone cannot be named to Neo4j. In a zone of
// fixed offset, hours, days and weekdays are arithmetic on the epoch
// number (arithmeticBucket): converting every entity's instant to the
// zone is most of an aggregate's time (agg_day in bench/handwritten:
// 2.58× the hand-written statement's time before, 0.69× after). Months
// and years, and zones whose offset changes, convert each instant to the
// zone and read the label from it.
func (p *Planner) bucket(b *builder, name string) (*bucketing, error) {
	if _, ok := timebucket.Label(name, ""); !ok {
		return nil, unplannable(b.tool, "bucket", name)
	}
	if off, fixed := fixedOffset(p.loc); fixed {
		if bk := arithmeticBucket(name, off); bk != nil {
			return bk, nil
		}
	}
	zone := zoneName(p.loc)
	if zone == "" {
		return nil, fmt.Errorf("planner: %s: datetime buckets need a zone Neo4j knows; Options.Location %q has no IANA name and a varying offset (load it with time.LoadLocation)", b.tool, p.loc)
	}
	return &bucketing{key: func(instant, unit string) string {
		label, _ := timebucket.Label(name, "datetime({"+unit+": "+instant+", timezone: "+b.named("zone", zone)+"})")
		return label
	}}, nil
}

// arithmeticBucket groups the hours, days or weekdays of a zone whose
// offset is always off seconds, with integer arithmetic on the epoch
// number and no temporal value built per entity: the key is the number of
// whole hours or days of wall-clock time since 1970 in the zone (floored,
// so instants before 1970 fall in their own unit), a weekday's key its
// index from Monday (1970-01-01 was a Thursday, index 3). Labels are those
// of timebucket.Label, built once per group from the key's UTC instant. nil
// for the other buckets.
func arithmeticBucket(name string, off int) *bucketing {
	var span int64
	var label func(k string) string
	switch name {
	case tools.BucketHour:
		span, label = 3600, func(k string) string { return "left(toString(datetime({epochSeconds: " + k + " * 3600})), 13)" }
	case tools.BucketDay:
		span, label = 86400, func(k string) string { return "toString(date(datetime({epochSeconds: " + k + " * 86400})))" }
	case tools.BucketWeekday:
		span, label = 86400, func(k string) string { return timebucket.Weekdays + "[" + k + "]" }
	default:
		return nil
	}
	key := func(instant, unit string) string {
		u := int64(1)
		if unit == "epochMillis" {
			u = 1000
		}
		w := instant
		if off != 0 {
			w = fmt.Sprintf("%s + %d", instant, int64(off)*u)
		}
		d := span * u
		// Cypher's integer division truncates toward zero; floor it.
		units := fmt.Sprintf("CASE WHEN %s >= 0 THEN (%s) / %d ELSE (%s + 1) / %d - 1 END", w, w, d, w, d)
		if name == tools.BucketWeekday {
			return "((" + units + ") % 7 + 10) % 7"
		}
		return units
	}
	return &bucketing{key: key, epoch: true, label: func(k string) string {
		return "CASE WHEN " + k + " IS NOT NULL THEN " + label(k) + " END"
	}}
}

// fixedOffset is loc's offset in seconds east of UTC and true when it has
// not changed since 1970 (UTC, time.FixedZone, and named zones without
// daylight saving time).
func fixedOffset(loc *time.Location) (int, bool) {
	_, off := time.Date(1970, 1, 1, 0, 0, 0, 0, loc).Zone()
	for y := 1970; y <= 2040; y++ {
		for _, m := range []time.Month{time.January, time.July} {
			if _, o := time.Date(y, m, 1, 0, 0, 0, 0, loc).Zone(); o != off {
				return 0, false
			}
		}
	}
	return off, true
}

// zoneName is loc as Neo4j's timezone argument takes it: a fixed offset
// (+HH:MM) when loc's offset never changed since 1970 — which also covers
// time.FixedZone, whose name means nothing to Neo4j — else loc's IANA
// name, or "" when loc has none (time.Local without a named zone).
func zoneName(loc *time.Location) string {
	if off, fixed := fixedOffset(loc); fixed {
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

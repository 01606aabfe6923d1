package engine_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	_ "time/tzdata" // the named zone events are stored in, on any machine

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
)

// eventsConfig stores one start four ways and computes date parts of each
// storage: what a config author no longer has to store in advance.
const eventsConfig = `
name: events
version: 1.0.0
entities:
  - name: Event
    unique_field: code
    searchable_fields:
      - {name: code, type: string}
      - {name: starts_at, type: datetime}
      - {name: starts_iso, type: datetime, stored_as: iso_string}
      - {name: starts_ms, type: datetime, stored_as: epoch_millis}
      - {name: starts_s, type: datetime, stored_as: epoch_seconds}
    computed_fields:
      - {name: hour_of_day, type: integer, expression: hour(starts_at)}
      - {name: month_start, type: datetime, expression: 'truncate(starts_at, "month")'}
      - {name: weekday_iso, type: integer, expression: weekday(starts_iso)}
      - {name: day_ms, type: integer, expression: day(starts_ms)}
      - {name: week_s, type: datetime, expression: 'truncate(starts_s, "week")'}
`

// event is one Event; start is zero for an event without one, zone is the
// zone its DATETIME and ISO string are written in, isoBad marks a
// starts_iso that is no ISO datetime.
type event struct {
	code   string
	start  time.Time
	zone   *time.Location
	isoBad bool
}

// randomEvents are n events over December 2023 to March 2024, every ninth
// at a boundary: midnight UTC, the last millisecond of a month, a leap
// day, the end of a year in UTC that is already the next one in +05:30, or
// 02:30 in Paris the second time its clocks show it. Their zones cycle
// through Paris, +05:30 and -08:00; a few have no start, one has a bad ISO
// string.
func randomEvents(t *testing.T, rng *rand.Rand, n int) []event {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	// The driver sends a zone named "Offset" as a plain UTC offset.
	zones := []*time.Location{paris, time.FixedZone("Offset", 5*3600+1800), time.FixedZone("Offset", -8*3600)}
	boundaries := []time.Time{
		time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 2, 29, 23, 59, 59, 999e6, time.UTC),
		time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), time.Date(2023, 12, 31, 23, 30, 0, 0, time.UTC),
		time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2023, 10, 29, 1, 30, 0, 0, time.UTC),
	}
	start := time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC)
	var out []event
	for i := range n {
		e := event{code: fmt.Sprintf("E%03d", i), zone: zones[i%len(zones)], isoBad: i == 7}
		switch {
		case i%17 == 5:
		case i%9 == 0:
			e.start = boundaries[(i/9)%len(boundaries)]
			if e.start.Month() == time.October {
				e.zone = paris
			}
		default:
			e.start = start.Add(time.Duration(rng.Int64N(120*24*3600)) * time.Second)
		}
		out = append(out, e)
	}
	return out
}

// createEvents stores the events: starts_at as a DATE when the start is
// midnight UTC, else a LOCAL DATETIME (read as UTC) every fifth event but
// the boundaries, else a DATETIME in the event's zone; starts_iso in that zone; epoch
// milliseconds and seconds.
func createEvents(t *testing.T, d neo4j.DriverWithContext, events []event) {
	t.Helper()
	var rows []map[string]any
	for i, e := range events {
		r := map[string]any{"code": e.code}
		if !e.start.IsZero() {
			u := e.start.UTC()
			switch {
			case u.Equal(u.Truncate(24 * time.Hour)):
				r["at"] = neo4j.Date(u)
			case i%5 == 0 && i%9 != 0:
				r["at"] = neo4j.LocalDateTime(u)
			default:
				r["at"] = e.start.In(e.zone)
			}
			r["iso"], r["ms"], r["s"] = e.start.In(e.zone).Format(time.RFC3339Nano), u.UnixMilli(), u.Unix()
			if e.isoBad {
				r["iso"] = "soon"
			}
		}
		rows = append(rows, r)
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS r
		CREATE (:Event {code: r.code, starts_at: r.at, starts_iso: r.iso, starts_ms: r.ms, starts_s: r.s})`, map[string]any{"rows": rows})
}

// TestDatePartsFilterSortAndGroup: computed fields that read date parts
// of datetimes in every storage (hour_of_day: hour(starts_at), month_start:
// truncate(starts_at, "month"), …) are filtered, sorted and grouped by
// query_entities and aggregate_entities on Neo4j, and every answer equals
// the one computed in Go from the events' instants, in UTC.
func TestDatePartsFilterSortAndGroup(t *testing.T) {
	d := neo4jtest.Open(t)
	events := randomEvents(t, rand.New(rand.NewPCG(20, 3)), 48)
	createEvents(t, d, events)
	e := aggregatingEngine(t, d, "events.yaml", eventsConfig, engine.Options{})

	// codesWhere is the codes of the events with a start that keep
	// accepts, in code order (the order_by of the calls below).
	codesWhere := func(keep func(ev event, u time.Time) bool) []string {
		var out []string
		for _, ev := range events {
			if !ev.start.IsZero() && keep(ev, ev.start.UTC()) {
				out = append(out, ev.code)
			}
		}
		return out
	}
	query := func(conditions string) []string {
		return execJSON(t, e, planner.QueryEntities, `{"entity_type":"Event","conditions":`+conditions+`,"order_by":{"field":"code"},"limit":50}`).ids()
	}

	same(t, "hour_of_day in [9, 17)", query(`[{"field":"hour_of_day","operator":">=","value":9},{"field":"hour_of_day","operator":"<","value":17}]`),
		codesWhere(func(_ event, u time.Time) bool { return u.Hour() >= 9 && u.Hour() < 17 }))
	same(t, "hour_of_day = 23", query(`[{"field":"hour_of_day","operator":"=","value":23}]`),
		codesWhere(func(_ event, u time.Time) bool { return u.Hour() == 23 }))
	same(t, "month_start = 2024-02-01", query(`[{"field":"month_start","operator":"=","value":"2024-02-01T00:00:00Z"}]`),
		codesWhere(func(_ event, u time.Time) bool { return u.Year() == 2024 && u.Month() == time.February }))
	same(t, "month_start before 2024", query(`[{"field":"month_start","operator":"<","value":"2024-01-01T00:00:00+01:00"}]`),
		codesWhere(func(_ event, u time.Time) bool { return u.Year() < 2024 }))
	same(t, "weekday_iso of the ISO string at the weekend", query(`[{"field":"weekday_iso","operator":"IN","value":[6, 7]}]`),
		codesWhere(func(ev event, u time.Time) bool {
			return !ev.isoBad && (u.Weekday() == time.Saturday || u.Weekday() == time.Sunday)
		}))
	same(t, "day_ms of epoch milliseconds = 29", query(`[{"field":"day_ms","operator":"=","value":29}]`),
		codesWhere(func(_ event, u time.Time) bool { return u.Day() == 29 }))
	same(t, "week_s of epoch seconds from Monday 2024-02-26", query(`[{"field":"week_s","operator":"=","value":"2024-02-26T00:00:00Z"}]`),
		codesWhere(func(_ event, u time.Time) bool {
			return !u.Before(time.Date(2024, 2, 26, 0, 0, 0, 0, time.UTC)) && u.Before(time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC))
		}))

	// Sorted: latest hour first, then code; events without a start last.
	var byHour []event
	for _, ev := range events {
		if !ev.start.IsZero() {
			byHour = append(byHour, ev)
		}
	}
	slices.SortFunc(byHour, func(a, b event) int {
		return cmp.Or(cmp.Compare(b.start.UTC().Hour(), a.start.UTC().Hour()), cmp.Compare(a.code, b.code))
	})
	var wantOrder []string
	for _, ev := range byHour[:20] {
		wantOrder = append(wantOrder, ev.code)
	}
	same(t, "order_by hour_of_day DESC, code", execJSON(t, e, planner.QueryEntities,
		`{"entity_type":"Event","order_by":[{"field":"hour_of_day","direction":"DESC"},{"field":"code"}],"limit":20}`).ids(), wantOrder)

	// Grouped: COUNT per hour of day, of all events (no start is the null
	// group) and of those at the weekend, and per month start.
	hourOf := func(u time.Time) any { return float64(u.Hour()) }
	weekend := func(ev event, u time.Time) bool {
		return !ev.isoBad && (u.Weekday() == time.Saturday || u.Weekday() == time.Sunday)
	}
	for _, c := range []struct {
		args string
		want []group
	}{
		{`"group_by":"hour_of_day"`, countsBy(events, nil, hourOf)},
		{`"group_by":"hour_of_day","conditions":[{"field":"weekday_iso","operator":">=","value":6}]`, countsBy(events, weekend, hourOf)},
		{`"group_by":"month_start"`, countsBy(events, nil, func(u time.Time) any {
			return time.Date(u.Year(), u.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
		})},
	} {
		args := `{"entity_type":"Event","operation":"COUNT",` + c.args + `,"limit":50}`
		if got, _ := groupsOf(t, e, args); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", args, got, c.want)
		}
	}
}

// countsBy counts the events keep accepts (every one when keep is nil) per
// label of their start in UTC, an event without a start in the null group
// (when kept), ranked as aggregate_entities ranks groups.
func countsBy(events []event, keep func(event, time.Time) bool, label func(time.Time) any) []group {
	m := map[any]float64{}
	for _, ev := range events {
		var l any
		switch {
		case !ev.start.IsZero() && (keep == nil || keep(ev, ev.start.UTC())):
			l = label(ev.start.UTC())
		case !ev.start.IsZero() || keep != nil:
			continue
		}
		m[l]++
	}
	return ranked(m)
}

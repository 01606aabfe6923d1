package engine_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the zones the buckets are tested in, on any machine

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// flightsConfig stores one departure four ways (a Neo4j temporal, an ISO
// string, epoch milliseconds, epoch seconds) and books passengers on
// flights in a class, at a time.
const flightsConfig = `
name: flights
version: 1.0.0
entities:
  - name: Flight
    unique_field: code
    searchable_fields:
      - {name: code, type: string}
      - {name: carrier, type: string}
      - {name: delay, type: integer}
      - {name: departure, type: datetime}
      - {name: departure_iso, type: datetime, stored_as: iso_string}
      - {name: departure_ms, type: datetime, stored_as: epoch_millis}
      - {name: departure_s, type: datetime, stored_as: epoch_seconds}
  - name: Passenger
    unique_field: name
    searchable_fields:
      - {name: name, type: string}
      - {name: tier, type: string}
    relationships:
      - type: BOOKED
        target: Flight
        properties:
          - {name: class, type: string}
          - {name: booked_at, type: datetime}
`

// flight is one Flight the tests create; departure is zero for a flight
// without one, isoBad marks a departure_iso that is no ISO datetime,
// fraction a departure_s stored with a fraction of a second.
type flight struct {
	code, carrier    string
	delay            int64
	departure        time.Time
	isoBad, fraction bool
}

// booking is one BOOKED relationship; class "" is a booking without one.
type booking struct {
	passenger, tier, flight, class string
	at                             time.Time
}

// seededFlights stores n random flights (randomFlights from seed) on the
// test database and returns them with an engine over them.
func seededFlights(t *testing.T, seed uint64, n int) (*engine.Engine, []flight) {
	t.Helper()
	d := neo4jtest.Open(t)
	flights := randomFlights(rand.New(rand.NewPCG(seed, seed+1)), n)
	createFlights(t, d, flights)
	return flightsEngine(t, d, nil), flights
}

func flightsEngine(t *testing.T, d neo4j.DriverWithContext, loc *time.Location) *engine.Engine {
	t.Helper()
	return aggregatingEngine(t, d, "flights.yaml", flightsConfig, engine.Options{Location: loc})
}

// aggregatingEngine is an engine on the test database for the config src
// (named name in errors), with opts and aggregate_entities offered.
func aggregatingEngine(t *testing.T, d neo4j.DriverWithContext, name, src string, opts engine.Options) *engine.Engine {
	t.Helper()
	m, err := config.LoadSources(config.Source{Name: name, Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	opts.Driver, opts.Database = d, neo4jtest.Database()
	opts.Tools.Aggregations = true
	e, err := engine.New(t.Context(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// createFlights stores the flights: the temporal departure as a DATETIME
// in one of three offsets, or a DATE for a departure at midnight UTC, or a
// LOCAL DATETIME (read as UTC) every seventh flight; the ISO string in
// one of three offsets (a bare date at midnight UTC); epoch seconds with a
// fraction where the flight says so, as a script might write them.
func createFlights(t *testing.T, d neo4j.DriverWithContext, flights []flight) {
	t.Helper()
	zones := []*time.Location{time.UTC, time.FixedZone("", 2*3600), time.FixedZone("", -5*3600-1800)}
	var rows []map[string]any
	for i, f := range flights {
		r := map[string]any{"code": f.code, "carrier": f.carrier, "delay": f.delay}
		if !f.departure.IsZero() {
			x := f.departure
			r["ms"], r["s"] = x.UnixMilli(), any(x.Unix())
			if f.fraction {
				r["s"] = float64(x.Unix()) + 0.25
			}
			r["kind"] = "datetime"
			r["text"] = x.In(zones[i%len(zones)]).Format(time.RFC3339)
			r["iso"] = r["text"]
			switch {
			case x.Equal(x.UTC().Truncate(24 * time.Hour)):
				r["kind"], r["text"], r["iso"] = "date", x.UTC().Format(time.DateOnly), x.UTC().Format(time.DateOnly)
			case i%7 == 0:
				r["kind"], r["text"] = "local", x.UTC().Format("2006-01-02T15:04:05")
			}
			if f.isoBad {
				r["iso"] = "soon"
			}
		}
		rows = append(rows, r)
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS r
		CREATE (:Flight {code: r.code, carrier: r.carrier, delay: r.delay,
			departure: CASE r.kind WHEN 'date' THEN date(r.text) WHEN 'local' THEN localdatetime(r.text) WHEN 'datetime' THEN datetime(r.text) END,
			departure_iso: r.iso, departure_ms: r.ms, departure_s: r.s})`, map[string]any{"rows": rows})
}

// randomFlights are n flights over 2024–2025 (DST changes included), on
// carriers C00…C69, a few without a departure, one with a bad ISO string,
// some at midnight UTC, every fifth with a fraction of a second in epoch
// seconds.
func randomFlights(rng *rand.Rand, n int) []flight {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []flight
	for i := range n {
		f := flight{code: fmt.Sprintf("F%04d", i), carrier: fmt.Sprintf("C%02d", rng.IntN(70)), delay: int64(rng.IntN(120))}
		if i%37 != 3 {
			f.departure = start.Add(time.Duration(rng.Int64N(2*365*24*3600)) * time.Second)
			if i%11 == 0 {
				f.departure = f.departure.Truncate(24 * time.Hour)
			}
		}
		f.isoBad, f.fraction = i == 50, i%5 == 0
		out = append(out, f)
	}
	return out
}

// group is a decoded result group.
type group struct {
	Group any     `json:"group"`
	Value float64 `json:"value"`
}

// groupsOf runs aggregate_entities and decodes its groups, checking they
// come largest value first, ties by label.
func groupsOf(t *testing.T, e *engine.Engine, args string) ([]group, result) {
	t.Helper()
	r := execJSON(t, e, planner.AggregateEntities, args)
	gs := make([]group, len(r.Groups))
	for i, g := range r.Groups {
		gs[i] = group{g.Group, g.Value}
	}
	for i := 1; i < len(gs); i++ {
		a, b := gs[i-1], gs[i]
		if a.Value < b.Value || a.Value == b.Value && compareLabels(a.Group, b.Group) > 0 {
			t.Errorf("%s: groups out of order at %d: %v then %v", args, i, a, b)
		}
	}
	return gs, r
}

// ranked sorts expected groups as the statement does: value descending,
// then label.
func ranked(m map[any]float64) []group {
	var out []group
	for k, v := range m {
		out = append(out, group{k, v})
	}
	slices.SortFunc(out, func(a, b group) int {
		return cmp.Or(cmp.Compare(b.Value, a.Value), compareLabels(a.Group, b.Group))
	})
	return out
}

// compareLabels orders two decoded group labels as Cypher's ORDER BY does:
// numbers by value, strings by code point, null after both.
func compareLabels(a, b any) int {
	switch {
	case a == nil || b == nil:
		return cmp.Compare(btoi(a == nil), btoi(b == nil))
	}
	if x, ok := a.(float64); ok {
		return cmp.Compare(x, b.(float64))
	}
	return strings.Compare(a.(string), b.(string))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestAggregateGroupsPageAndPassHaving: up to 1,000 groups in one call,
// offset pages through them in order, and having keeps the groups whose
// value passes it, before paging.
func TestAggregateGroupsPageAndPassHaving(t *testing.T) {
	e, flights := seededFlights(t, 1, 700)

	counts, sums := map[any]float64{}, map[any]float64{}
	for _, f := range flights {
		counts[f.carrier]++
		sums[f.carrier] += float64(f.delay)
	}
	all := ranked(counts)
	if len(all) <= tools.DefaultLimits.MaxLimit {
		t.Fatalf("only %d carriers: the test needs more groups than MaxLimit", len(all))
	}
	got, r := groupsOf(t, e, `{"entity_type":"Flight","operation":"COUNT","group_by":"carrier","limit":1000}`)
	if !slices.Equal(got, all) || r.Truncated {
		t.Errorf("limit 1000: got %d groups (truncated %v) %v\nwant %v", len(got), r.Truncated, got, all)
	}
	var paged []group
	for offset := 0; offset < len(all); offset += 25 {
		page, r := groupsOf(t, e, fmt.Sprintf(`{"entity_type":"Flight","operation":"COUNT","group_by":"carrier","limit":25,"offset":%d}`, offset))
		if want := offset+25 < len(all); r.Truncated != want {
			t.Errorf("offset %d: truncated %v, want %v", offset, r.Truncated, want)
		}
		paged = append(paged, page...)
	}
	if !slices.Equal(paged, all) {
		t.Errorf("pages of 25:\n got %v\nwant %v", paged, all)
	}

	keep := func(gs []group, pass func(float64) bool) []group {
		var out []group
		for _, g := range gs {
			if pass(g.Value) {
				out = append(out, g)
			}
		}
		return out
	}
	if got, _ := groupsOf(t, e, `{"entity_type":"Flight","operation":"COUNT","group_by":"carrier","having":{"operator":">=","value":11},"limit":1000}`); !slices.Equal(got, keep(all, func(v float64) bool { return v >= 11 })) {
		t.Errorf("having >= 11: got %v", got)
	}
	want := keep(all, func(v float64) bool { return v != 10 })[5:]
	if got, _ := groupsOf(t, e, `{"entity_type":"Flight","operation":"COUNT","group_by":"carrier","having":{"operator":"!=","value":10},"offset":5,"limit":1000}`); !slices.Equal(got, want) {
		t.Errorf("having != 10 from offset 5:\n got %v\nwant %v", got, want)
	}
	avgs := map[any]float64{}
	for k, s := range sums {
		avgs[k] = s / counts[k]
	}
	got, _ = groupsOf(t, e, `{"entity_type":"Flight","operation":"AVG","field":"delay","group_by":"carrier","having":{"operator":"<","value":55.5},"limit":1000}`)
	closeGroups(t, "AVG having < 55.5", got, keep(ranked(avgs), func(v float64) bool { return v < 55.5 }))
}

// closeGroups checks averages: the same labels in the same order, values
// equal but for rounding.
func closeGroups(t *testing.T, what string, got, want []group) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %v\nwant %v", what, got, want)
	}
	for i := range got {
		if got[i].Group != want[i].Group || math.Abs(got[i].Value-want[i].Value) > 1e-9 {
			t.Errorf("%s at %d: got %v want %v", what, i, got[i], want[i])
		}
	}
}

// bucketLabel is the label ragforge documents for a bucket of instant x
// seen in loc.
func bucketLabel(x time.Time, bucket string, loc *time.Location) string {
	x = x.In(loc)
	switch bucket {
	case tools.BucketHour:
		return x.Format("2006-01-02T15")
	case tools.BucketDay:
		return x.Format(time.DateOnly)
	case tools.BucketWeekday:
		return x.Weekday().String()
	case tools.BucketMonth:
		return x.Format("2006-01")
	}
	return x.Format("2006")
}

// TestAggregateBucketsEveryDatetimeStorage groups the same departures by
// hour, day, weekday, month and year, stored as temporals (DATETIMEs in
// several offsets, DATEs, LOCAL DATETIMEs), ISO strings, epoch
// milliseconds and epoch seconds, some before 1970, in UTC, in a zone with
// daylight saving time and in half-hour offsets east and west (fixed
// offsets bucket hours, days and weekdays arithmetically): every storage gives the labels and sums
// computed in Go. A departure that is missing (or no ISO datetime) falls
// in the null group.
func TestAggregateBucketsEveryDatetimeStorage(t *testing.T) {
	d := neo4jtest.Open(t)
	flights := randomFlights(rand.New(rand.NewPCG(3, 4)), 400)
	// Some before 1970, whose epoch numbers are negative: an arithmetic
	// bucket floors them into their own hour and day.
	for i := range flights {
		if i%7 == 0 && !flights[i].departure.IsZero() {
			flights[i].departure = flights[i].departure.AddDate(-60, 0, 0)
		}
	}
	createFlights(t, d, flights)
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	for _, loc := range []*time.Location{time.UTC, newYork, kolkata, time.FixedZone("-03:30", -(3*3600 + 1800))} {
		e := flightsEngine(t, d, loc)
		for _, field := range []string{"departure", "departure_iso", "departure_ms", "departure_s"} {
			for _, bucket := range tools.Buckets {
				sums := map[any]float64{}
				for _, f := range flights {
					var label any
					if !f.departure.IsZero() && !(f.isoBad && field == "departure_iso") {
						label = bucketLabel(f.departure, bucket, loc)
					}
					sums[label] += float64(f.delay)
				}
				args := fmt.Sprintf(`{"entity_type":"Flight","operation":"SUM","field":"delay","group_by":%q,"bucket":%q,"limit":1000}`, field, bucket)
				got, r := groupsOf(t, e, args)
				if want := ranked(sums); !slices.Equal(got, want) {
					t.Errorf("%s %s: got %d groups %v\nwant %d %v", loc, args, len(got), got, len(want), want)
				}
				zoned := slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "buckets are in zone "+loc.String()) })
				if zoned != (loc != time.UTC) {
					t.Errorf("%s %s: notes %q", loc, args, r.Notes)
				}
			}
		}
	}
}

// TestAggregateGroupsByARelationshipProperty: over.group_by groups the
// related entities by a property of the relationship that leads to them
// (a bucket of it when it is a datetime), each related entity counted
// once per group however many bookings lead to it; bookings without the
// property form the null group.
func TestAggregateGroupsByARelationshipProperty(t *testing.T) {
	d := neo4jtest.Open(t)
	rng := rand.New(rand.NewPCG(5, 6))
	flights := randomFlights(rng, 60)
	createFlights(t, d, flights)
	delays := map[string]float64{}
	for _, f := range flights {
		delays[f.code] = float64(f.delay)
	}
	classes := []string{"economy", "business", "first", ""}
	var bookings []booking
	for p := range 30 {
		tier := []string{"gold", "silver"}[p%2]
		for range 1 + rng.IntN(6) {
			b := booking{passenger: fmt.Sprintf("P%02d", p), tier: tier, flight: flights[rng.IntN(len(flights))].code,
				class: classes[rng.IntN(len(classes))], at: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.Int64N(400*24)) * time.Hour)}
			bookings = append(bookings, b)
			if rng.IntN(4) == 0 {
				bookings = append(bookings, b) // a parallel booking: same flight, same class
			}
		}
	}
	var rows []map[string]any
	for _, b := range bookings {
		r := map[string]any{"p": b.passenger, "tier": b.tier, "f": b.flight, "at": b.at}
		if b.class != "" {
			r["class"] = b.class
		}
		rows = append(rows, r)
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS r
		MERGE (p:Passenger {name: r.p}) SET p.tier = r.tier
		WITH p, r MATCH (f:Flight {code: r.f})
		CREATE (p)-[:BOOKED {class: r.class, booked_at: r.at}]->(f)`, map[string]any{"rows": rows})
	e := flightsEngine(t, d, nil)

	// flightsBy is, per group label, the set of flights gold passengers booked.
	flightsBy := func(label func(booking) any) map[any]map[string]bool {
		out := map[any]map[string]bool{}
		for _, b := range bookings {
			if b.tier != "gold" {
				continue
			}
			l := label(b)
			if out[l] == nil {
				out[l] = map[string]bool{}
			}
			out[l][b.flight] = true
		}
		return out
	}
	byClass := flightsBy(func(b booking) any {
		if b.class == "" {
			return nil
		}
		return b.class
	})
	counts, avgs := map[any]float64{}, map[any]float64{}
	for k, set := range byClass {
		counts[k] = float64(len(set))
		for code := range set {
			avgs[k] += delays[code] / float64(len(set))
		}
	}
	gold := `"conditions":[{"field":"tier","operator":"=","value":"gold"}]`
	if got, _ := groupsOf(t, e, `{"entity_type":"Passenger","operation":"COUNT",`+gold+`,"over":{"via":"BOOKED","group_by":"class"}}`); !slices.Equal(got, ranked(counts)) {
		t.Errorf("COUNT over BOOKED by class:\n got %v\nwant %v", got, ranked(counts))
	}
	got, _ := groupsOf(t, e, `{"entity_type":"Passenger","operation":"AVG","field":"delay",`+gold+`,"over":{"via":"BOOKED","group_by":"class"}}`)
	closeGroups(t, "AVG over BOOKED by class", got, ranked(avgs))
	months := map[any]float64{}
	for k, set := range flightsBy(func(b booking) any { return bucketLabel(b.at, tools.BucketMonth, time.UTC) }) {
		months[k] = float64(len(set))
	}
	if got, _ := groupsOf(t, e, `{"entity_type":"Passenger","operation":"COUNT",`+gold+`,"over":{"via":"BOOKED","group_by":"booked_at"},"bucket":"month","limit":1000}`); !slices.Equal(got, ranked(months)) {
		t.Errorf("COUNT over BOOKED by month of booked_at:\n got %v\nwant %v", got, ranked(months))
	}
}

// TestRankedResultsSayWhenTheCutSplitsATie: when the first entity or
// group beyond the limit ties with the last one returned on every sort
// key, the result says so with the tied values (an epoch instant shown as
// a datetime); when it does not, only the truncation note appears.
// Whether the cut splits a tie is computed in Go from the graph.
func TestRankedResultsSayWhenTheCutSplitsATie(t *testing.T) {
	d := neo4jtest.Open(t)
	at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	var flights []flight
	for i, c := range []struct {
		carrier string
		delay   int64
		hours   int
	}{
		{"A", 90, 0}, {"A", 80, 0}, {"A", 80, 1}, {"A", 80, 1}, {"A", 10, 2},
		{"B", 40, 3}, {"B", 40, 3}, {"B", 30, 4}, {"B", 5, 5},
		{"C", 40, 6}, {"C", 20, 7}, {"C", 20, 8}, {"C", 7, 8},
		{"D", 3, 9}, {"D", 3, 9}, {"D", 1, 9}, {"D", 1, 10},
		{"E", 60, 11}, {"E", 60, 12},
	} {
		flights = append(flights, flight{code: fmt.Sprintf("F%02d", i), carrier: c.carrier, delay: c.delay, departure: at.Add(-time.Duration(c.hours) * time.Hour)})
	}
	createFlights(t, d, flights)
	e := flightsEngine(t, d, nil)
	tieNote := func(r result) string {
		for _, n := range r.Notes {
			if strings.Contains(n, "tie with the last one") {
				return n
			}
		}
		return ""
	}
	check := func(tool, args string, tied bool, on string) {
		t.Helper()
		r := execJSON(t, e, tool, args)
		note := tieNote(r)
		switch {
		case !r.Truncated:
			t.Errorf("%s: not truncated (%d results)", args, r.Count)
		case tied && !strings.Contains(note, on):
			t.Errorf("%s: the cut splits a tie on %s; notes %q", args, on, r.Notes)
		case !tied && note != "":
			t.Errorf("%s: no tie at the cut, yet %q", args, note)
		}
	}

	// Aggregate groups: COUNT per carrier is A 5, B 4, C 4, D 4, E 2.
	counts := map[any]float64{}
	for _, f := range flights {
		counts[f.carrier]++
	}
	all := ranked(counts)
	for _, limit := range []int{1, 2, 3, 4} {
		tied := all[limit].Value == all[limit-1].Value
		check(planner.AggregateEntities, fmt.Sprintf(`{"entity_type":"Flight","operation":"COUNT","group_by":"carrier","limit":%d}`, limit), tied,
			fmt.Sprintf("more groups beyond the cut tie with the last one on value = %g", all[limit-1].Value))
	}

	// query_entities with order_by: delay DESC, then carrier ASC, delay DESC.
	byDelay := slices.Clone(flights)
	slices.SortStableFunc(byDelay, func(a, b flight) int {
		return cmp.Or(cmp.Compare(b.delay, a.delay), strings.Compare(a.code, b.code))
	})
	for _, limit := range []int{1, 2, 3, 4, 7} {
		last, next := byDelay[limit-1], byDelay[limit]
		check(planner.QueryEntities, fmt.Sprintf(`{"entity_type":"Flight","order_by":{"field":"delay","direction":"DESC"},"limit":%d}`, limit),
			last.delay == next.delay, fmt.Sprintf("tie with the last one on delay = %d; raise limit (at most 50), page with offset or add a sort key to order_by", last.delay))
	}
	byCarrier := slices.Clone(flights)
	slices.SortStableFunc(byCarrier, func(a, b flight) int {
		return cmp.Or(strings.Compare(a.carrier, b.carrier), cmp.Compare(b.delay, a.delay), strings.Compare(a.code, b.code))
	})
	for _, limit := range []int{2, 3, 5, 6, 11} {
		last, next := byCarrier[limit-1], byCarrier[limit]
		check(planner.QueryEntities, fmt.Sprintf(`{"entity_type":"Flight","order_by":[{"field":"carrier"},{"field":"delay","direction":"DESC"}],"limit":%d}`, limit),
			last.carrier == next.carrier && last.delay == next.delay, fmt.Sprintf("on carrier = %q, delay = %d", last.carrier, last.delay))
	}

	// A search ranked by an epoch instant, newest first: the tied instant
	// shows as a datetime.
	byDeparture := slices.Clone(flights)
	slices.SortStableFunc(byDeparture, func(a, b flight) int {
		return cmp.Or(b.departure.Compare(a.departure), strings.Compare(a.code, b.code))
	})
	for _, field := range []string{"departure_ms", "departure_s", "departure_iso"} {
		for _, limit := range []int{2, 3, 4} {
			last, next := byDeparture[limit-1], byDeparture[limit]
			check(planner.DatetimeRangeSearch, fmt.Sprintf(`{"entity_type":"Flight","field":%q,"mode":"after","datetime":"2000-01-01","limit":%d}`, field, limit),
				last.departure.Equal(next.departure), fmt.Sprintf("on %s = %q", field, last.departure.Format(time.RFC3339)))
		}
	}
}

// TestNewAggregateFormsStayInTheTenant: the statements of buckets,
// having, offset, over.group_by and over.path keep every node to the bound tenant,
// as Neo4j's plan proves.
func TestNewAggregateFormsStayInTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tenant: "alice", Tools: tools.Options{Aggregations: true, Capabilities: &tools.Capabilities{}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, args := range []string{
		`{"entity_type":"Source","operation":"COUNT","group_by":"updated_at","bucket":"day","having":{"operator":">","value":1},"offset":2}`,
		`{"entity_type":"Person","operation":"COUNT","over":{"via":"thinks_about","group_by":"mood"}}`,
		`{"entity_type":"Person","operation":"COUNT","over":{"via":"thinks_about","group_by":"created_at"},"bucket":"weekday"}`,
		`{"entity_type":"Artifact","operation":"COUNT","group_by":"updated_at","bucket":"hour","over":{"via":"sourced_from"}}`,
		// Paths: every hop's node and the far end's group.
		`{"entity_type":"Person","operation":"COUNT","group_by":"name","over":{"path":[{"via":"thinks_about"},{"via":"involves","entity":"Person","conditions":[{"field":"name","operator":"STARTS WITH","value":"A"}]}]}}`,
		`{"entity_type":"Person","operation":"COUNT_DISTINCT","field":"description","over":{"path":[{"via":"thinks_about"},{"via":"produced","entity":"Artifact"},{"via":"sourced_from"}],"group_by_related":"content_type","each":"relationship"}}`,
	} {
		checkScopedPlan(t, e, d, ctx, m.Tenant.Field, planner.AggregateEntities, json.RawMessage(args))
	}
}

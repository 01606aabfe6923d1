package planner_test

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// TestRelationshipsAsResultsOnTheFlightRoutes asks the flight graph's
// ROUTE relationships (flight_count, distance_km; some routes without a
// distance, some crossing tenants) for tenant a: query_relationships'
// rankings and filters, and explore_relationships sorted by the route
// that reached each airport, each equal to the answer computed in Go
// from the routes loaded, ties broken by the ends' codes as the tools
// say, and each plan proven scoped to the tenant.
func TestRelationshipsAsResultsOnTheFlightRoutes(t *testing.T) {
	d := neo4jtest.Open(t)
	g := loadFlights(t, d, 4000)
	f := newFixture(t, "flights.yaml", tools.Capabilities{})
	var mine []route
	for _, r := range g.routes {
		if r.tenant == "a" {
			mine = append(mine, r)
		}
	}
	run := func(t *testing.T, tool, args string) []*neo4j.Record {
		t.Helper()
		st, err := f.plan(tool, args, nil)
		if err != nil {
			t.Fatalf("%s %s: %v", tool, args, err)
		}
		st.Params[tenant.Param] = "a"
		provenScoped(t, d, st)
		return runPlanned(t, d, st)
	}
	get := func(r *neo4j.Record, k string) any { v, _ := r.Get(k); return v }
	props := func(r route) map[string]any {
		m := map[string]any{"flight_count": r.flights, "distance_km": nil}
		if r.distance != nil {
			m["distance_km"] = *r.distance
		}
		return m
	}
	// byEnds is the tools' tie-break: from code, then to code.
	byEnds := func(a, b route) int { return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to)) }
	byFlightsDesc := func(a, b route) int { return cmp.Or(cmp.Compare(b.flights, a.flights), byEnds(a, b)) }
	// byDistance puts routes without a distance last.
	byDistance := func(a, b route) int {
		switch {
		case a.distance == nil && b.distance == nil:
			return byEnds(a, b)
		case a.distance == nil:
			return 1
		case b.distance == nil:
			return -1
		}
		return cmp.Or(cmp.Compare(*a.distance, *b.distance), byEnds(a, b))
	}
	window := func(rs []route, offset, limit int) []route {
		return rs[min(offset, len(rs)):min(offset+limit, len(rs))]
	}
	filter := func(keep func(route) bool) []route {
		var out []route
		for _, r := range mine {
			if keep(r) {
				out = append(out, r)
			}
		}
		return out
	}
	median := slices.SortedFunc(slices.Values(mine), byFlightsDesc)[len(mine)/2].flights

	for _, c := range []struct {
		name, args string
		want       []route
	}{
		{"the 10 busiest routes", `{"relationship_type":"ROUTE","order_by":[{"field":"flight_count","direction":"DESC"}],"limit":10}`,
			window(slices.SortedFunc(slices.Values(mine), byFlightsDesc), 0, 10)},
		{"by distance, missing last, second page", `{"relationship_type":"ROUTE","order_by":{"field":"distance_km"},"offset":40,"limit":50}`,
			window(slices.SortedFunc(slices.Values(mine), byDistance), 40, 50)},
		{"no order: by the ends", `{"relationship_type":"ROUTE","limit":50}`,
			window(slices.SortedFunc(slices.Values(mine), byEnds), 0, 50)},
		{"busy routes from SEA", fmt.Sprintf(`{"relationship_type":"ROUTE","conditions":[{"field":"flight_count","operator":">=","value":%d}],"from_conditions":[{"field":"code","operator":"=","value":"SEA"}],"order_by":[{"field":"flight_count","direction":"DESC"}],"limit":50}`, median),
			slices.SortedFunc(slices.Values(filter(func(r route) bool { return r.from == "SEA" && r.flights >= median })), byFlightsDesc)},
		{"routes to Las Vegas (another tenant's city too)", `{"relationship_type":"ROUTE","to_conditions":[{"field":"city","operator":"=","value":"Las Vegas"}],"conditions":[{"field":"distance_km","operator":"IS NULL"}],"limit":50}`,
			slices.SortedFunc(slices.Values(filter(func(r route) bool { return r.to == "LAS" && r.distance == nil })), byEnds)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if len(c.want) == 0 {
				t.Fatal("the case expects no route: it proves nothing")
			}
			rows := run(t, planner.QueryRelationships, c.args)
			var got, want []string
			for _, r := range rows {
				got = append(got, fmt.Sprintf("%v>%v %v", get(r, "from_id"), get(r, "to_id"), get(r, "properties")))
				if get(r, "type") != "ROUTE" || !slices.Contains(get(r, "from_labels").([]any), any("Airport")) {
					t.Errorf("row %v: want a ROUTE from an Airport", r.AsMap())
				}
				if p, _ := get(r, "from_properties").(map[string]any); p["city"] == nil || p["user_id"] != nil {
					t.Errorf("from_properties %v: want the stored fields but the tenant's", p)
				}
			}
			for _, r := range c.want {
				want = append(want, fmt.Sprintf("%s>%s %v", r.from, r.to, props(r)))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}

	t.Run("explore from SEA by the route's flight_count", func(t *testing.T) {
		rows := run(t, planner.ExploreRelationships, `{"start_entity_type":"Airport","start_conditions":[{"field":"code","operator":"=","value":"SEA"}],"relationship_type":"ROUTE","order_by":[{"relationship_field":"flight_count","direction":"DESC"}],"limit":50}`)
		var got, want []string
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%v %v", get(r, "id"), get(r, "relationship")))
		}
		// Depth 1 everywhere: ties go by the target's code.
		for _, r := range slices.SortedFunc(slices.Values(filter(func(r route) bool { return r.from == "SEA" })), func(a, b route) int {
			return cmp.Or(cmp.Compare(b.flights, a.flights), cmp.Compare(a.to, b.to))
		}) {
			want = append(want, fmt.Sprintf("%s %v", r.to, props(r)))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got  %q\nwant %q", got, want)
		}
	})

	t.Run("explore at depth 2 returns the reaching route", func(t *testing.T) {
		rows := run(t, planner.ExploreRelationships, `{"start_entity_type":"Airport","start_conditions":[{"field":"code","operator":"=","value":"SEA"}],"relationship_type":"ROUTE","direction":"incoming","depth":2,"order_by":[{"relationship_field":"distance_km"}],"limit":50}`)
		if len(rows) == 0 {
			t.Fatal("no airport reached")
		}
		var last int64
		sawNil := false
		for _, r := range rows {
			path := get(r, "path").([]any)
			step := path[len(path)-1].(map[string]any)
			if !reflect.DeepEqual(step["properties"], get(r, "relationship")) {
				t.Errorf("%v: relationship %v, want the path's last %v", get(r, "id"), get(r, "relationship"), step["properties"])
			}
			km, ok := get(r, "relationship").(map[string]any)["distance_km"].(int64)
			switch {
			case !ok:
				sawNil = true
			case sawNil || km < last:
				t.Errorf("%v: distance %d after %d (or after a missing one): want ascending, missing last", get(r, "id"), km, last)
			default:
				last = km
			}
		}
	})
}

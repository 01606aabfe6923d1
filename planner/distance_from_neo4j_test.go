package planner_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// TestDistanceFromAnEntitySeeksBothIndexes: distance_search from an
// airport finds the origin by its unique index and its neighbours by a
// range seek of the point index (not a scan of every located airport),
// and the plan is proven scoped to the tenant. Measured on 5,000
// airports: a scan reads every one, the seek about a hundred db hits.
func TestDistanceFromAnEntitySeeksBothIndexes(t *testing.T) {
	d := neo4jtest.Open(t)
	loadFlights(t, d, 100)
	neo4jtest.Run(t, d, "MATCH (a:Airport) SET a.location = point({latitude: 21.0 + rand(), longitude: -157.0 - rand()})", nil)
	neo4jtest.Run(t, d, "UNWIND range(1, 5000) AS i CREATE (:Airport {code: 'Z' + i, user_id: 'a', location: point({latitude: -80 + 160 * rand(), longitude: -180 + 360 * rand()})})", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(120)", nil)
	// Neo4j plans from its index samples and caches plans by text: on a
	// fresh server the 5,000 airports just written are not sampled yet,
	// and a plan made on the small graph may be cached, either of which
	// makes it scan. Resample and drop cached plans so the plan is the
	// one this graph gets.
	neo4jtest.Run(t, d, "CALL db.resampleOutdatedIndexes()", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(120)", nil)
	neo4jtest.Run(t, d, "CALL db.clearQueryCaches()", nil)
	f := newFixture(t, "flights.yaml", tools.Capabilities{})
	st, err := f.plan(planner.DistanceSearch, `{"entity_type":"Airport","field":"location","from":{"entity_type":"Airport","id_value":"SEA"},"radius_km":100}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Params[tenant.Param] = "a"
	ops, hits := profile(t, d, st)
	seeks := func(prefix, what string) bool {
		return slices.ContainsFunc(ops, func(op string) bool { return strings.HasPrefix(op, prefix) && strings.Contains(op, what) })
	}
	if !seeks("NodeUniqueIndexSeek", "o:Airport(code)") || !seeks("NodeIndexSeekByRange", "n:Airport(location)") || hits > 2000 {
		t.Errorf("%d db hits, plan:\n%s", hits, strings.Join(ops, "\n"))
	}
	provenScoped(t, d, st)
}

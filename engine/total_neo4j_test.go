package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestListTotalsCountEveryMatch: total: true makes query_entities say how
// many entities match, whatever page it returns (an offset past the last
// match included), as counted in Go; a condition on a missing value
// counts none of the entities without it; without total the answer has
// none.
func TestListTotalsCountEveryMatch(t *testing.T) {
	e, flights := seededFlights(t, 5, 300)

	var late, dated int64
	for _, f := range flights {
		if f.delay >= 60 {
			late++
		}
		if !f.departure.IsZero() {
			dated++
		}
	}
	for _, c := range []struct {
		args string
		want int64
		page int
	}{
		{`{"entity_type":"Flight","conditions":[{"field":"delay","operator":">=","value":60}],"order_by":{"field":"delay","direction":"DESC"},"limit":7,"total":true}`, late, 7},
		{fmt.Sprintf(`{"entity_type":"Flight","conditions":[{"field":"delay","operator":">=","value":60}],"offset":%d,"total":true}`, late+5), late, 0},
		{`{"entity_type":"Flight","conditions":[{"field":"departure_ms","operator":">=","value":"2000-01-01T00:00:00Z"}],"limit":3,"total":true}`, dated, 3},
	} {
		r := execJSON(t, e, planner.QueryEntities, c.args)
		if r.Total == nil || *r.Total != c.want || r.Count != c.page {
			t.Errorf("%s: total %s, count %d; want %d and %d", c.args, countOf(r.Total), r.Count, c.want, c.page)
		}
	}
	if r := execJSON(t, e, planner.QueryEntities, `{"entity_type":"Flight","limit":3}`); r.Total != nil || r.TotalAtLeast != nil {
		t.Errorf("no total asked: total %s, at least %s", countOf(r.Total), countOf(r.TotalAtLeast))
	}
}

// TestListTotalStopsAtTheCap: past tools.MaxTotal matches the answer says
// total_at_least with a note instead of an exact total; at exactly
// tools.MaxTotal the total is exact.
func TestListTotalStopsAtTheCap(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "UNWIND range(1, $n) AS i CREATE (:Flight {code: 'F' + i, carrier: CASE WHEN i <= $cap THEN 'A' ELSE 'B' END, delay: i % 7})",
		map[string]any{"n": tools.MaxTotal + 2, "cap": tools.MaxTotal})
	e := flightsEngine(t, d, nil)
	r := execJSON(t, e, planner.QueryEntities, `{"entity_type":"Flight","limit":2,"total":true}`)
	if r.Total != nil || r.TotalAtLeast == nil || *r.TotalAtLeast != tools.MaxTotal || !strings.Contains(strings.Join(r.Notes, " "), "more than") {
		t.Errorf("over the cap: total %s, at least %s, notes %q", countOf(r.Total), countOf(r.TotalAtLeast), r.Notes)
	}
	r = execJSON(t, e, planner.QueryEntities, `{"entity_type":"Flight","conditions":[{"field":"carrier","operator":"=","value":"A"}],"limit":2,"total":true}`)
	if r.Total == nil || *r.Total != tools.MaxTotal || r.TotalAtLeast != nil {
		t.Errorf("at the cap: total %s, at least %s, want exactly %d", countOf(r.Total), countOf(r.TotalAtLeast), tools.MaxTotal)
	}
}

// TestListTotalsStayInTheTenant: a total counts only the bound tenant's
// entities and relationships, for each of two tenants with different
// numbers of them.
func TestListTotalsStayInTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{"alice": 7, "bob": 4}
	for tn, n := range counts {
		neo4jtest.Run(t, d, `UNWIND range(1, $n) AS i
			CREATE (p:Person {entity_key: $tn + i, user_id: $tn, name: 'P' + i, canonical_name: 'p' + i})
			CREATE (p)-[:has_relationship_with {type: 'friend'}]->(:Person {entity_key: $tn + 'f' + i, user_id: $tn, name: 'F' + i, canonical_name: 'f' + i})`,
			map[string]any{"tn": tn, "n": n})
	}
	for tn, n := range counts {
		e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tenant: tn, Tools: tools.Options{Aggregations: true, Capabilities: &tools.Capabilities{}}})
		if err != nil {
			t.Fatal(err)
		}
		r := execJSON(t, e, planner.QueryEntities, `{"entity_type":"Person","limit":1,"total":true}`)
		if r.Total == nil || *r.Total != int64(2*n) {
			t.Errorf("%s's people: total %s, want %d", tn, countOf(r.Total), 2*n)
		}
		r = execJSON(t, e, planner.QueryEntities, `{"entity_type":"Person","conditions":[{"via":"has_relationship_with","count":{"operator":"=","value":1}},{"field":"name","operator":"STARTS WITH","value":"F"}],"limit":1,"total":true}`)
		if r.Total == nil || *r.Total != int64(n) {
			t.Errorf("%s's friends: total %s, want %d", tn, countOf(r.Total), n)
		}
		r = execJSON(t, e, planner.QueryRelationships, `{"relationship_type":"has_relationship_with","limit":1,"total":true}`)
		if r.Total == nil || *r.Total != int64(n) {
			t.Errorf("%s's relationships: total %s, want %d", tn, countOf(r.Total), n)
		}
	}
}

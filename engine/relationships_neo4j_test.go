package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestQueryRelationshipsResultNamesBothEndsAndTheTie runs
// query_relationships through the engine on four routes, two of which
// tie on the distance at the cut: the result lists relationships (type,
// declared properties only, and both ends with their type, id and
// properties), is truncated, and says the tie-break chose the cut.
func TestQueryRelationshipsResultNamesBothEndsAndTheTie(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (a:Airport {code: 'A', city: 'Ay'}), (b:Airport {code: 'B'}), (c:Airport {code: 'C'})
		CREATE (a)-[:ROUTE {distance_km: 900, airline: 'X', undeclared: 1}]->(b), (b)-[:ROUTE {distance_km: 500}]->(c),
		(a)-[:ROUTE {distance_km: 500}]->(c), (c)-[:ROUTE]->(a)`, nil)
	e := newEngine(t, d, "../testdata/hub/routes.yaml", engine.Options{Tools: tools.Options{Aggregations: true, Capabilities: &tools.Capabilities{}}})
	res, err := e.Execute(context.Background(), engine.Call{Name: planner.QueryRelationships, Arguments: json.RawMessage(`{"relationship_type":"ROUTE","order_by":[{"field":"distance_km","direction":"DESC"}],"limit":2}`)})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	want := `{"relationships":[` +
		`{"type":"ROUTE","properties":{"airline":"X","distance_km":900},"from":{"entity_type":"Airport","id":"A","properties":{"city":"Ay"}},"to":{"entity_type":"Airport","id":"B","properties":{}}},` +
		`{"type":"ROUTE","properties":{"distance_km":500},"from":{"entity_type":"Airport","id":"A","properties":{"city":"Ay"}},"to":{"entity_type":"Airport","id":"C","properties":{}}}],` +
		`"count":2,"truncated":true,"notes":[`
	if !strings.HasPrefix(string(out), want) || !strings.Contains(string(out), "more relationships beyond the cut tie with the last one on distance_km = 500") {
		t.Errorf("got  %s\nwant %s… with a tie note on distance_km = 500", out, want)
	}
}

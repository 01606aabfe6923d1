package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestExecuteReturnsPathsAndExplorePathsWhole: find_paths comes back as
// one row per path (nodes and relationships in order, with their
// properties), and explore_relationships' entities carry the path they
// were reached by.
func TestExecuteReturnsPathsAndExplorePathsWhole(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (a:Person {name: 'A', born: 1960}), (b:Person {name: 'B', born: 1970}),
		(m:Movie {title: 'M', released: 1999}),
		(a)-[:ACTED_IN {roles: ['Hero']}]->(m), (b)-[:REVIEWED {rating: 90, summary: 'Great'}]->(m)`, nil)
	e := newEngine(t, d, "../testdata/configs/valid/movies.yaml", engine.Options{})
	run := func(tool, args string) map[string]any {
		res, err := e.Execute(context.Background(), engine.Call{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var out map[string]any
		b, _ := json.Marshal(res)
		_ = json.Unmarshal(b, &out)
		return out
	}
	out := run("find_paths", `{"from_entity_type":"Person","from_id":"A","to_entity_type":"Person","to_id":"B"}`)
	rows, _ := out["rows"].([]any)
	if len(rows) != 1 {
		t.Fatalf("rows %v", out)
	}
	b, _ := json.Marshal(rows[0])
	want := `{"length":2,"nodes":[{"entity_type":"Person","id":"A","properties":{"born":1960}},{"entity_type":"Movie","id":"M","properties":{"released":1999,"tagline":null}},{"entity_type":"Person","id":"B","properties":{"born":1970}}],"relationships":[{"from":"A","properties":{"roles":["Hero"]},"to":"M","type":"ACTED_IN"},{"from":"B","properties":{"rating":90,"summary":"Great"},"to":"M","type":"REVIEWED"}]}`
	if string(b) != want {
		t.Errorf("path\n got %s\nwant %s", b, want)
	}
	out = run("explore_relationships", `{"start_entity_type":"Person","start_conditions":[{"field":"name","operator":"=","value":"A"}],"relationship_types":["ACTED_IN","REVIEWED"],"direction":"both","target_entity_type":"Person","depth":2}`)
	ents, _ := out["entities"].([]any)
	if len(ents) != 1 {
		t.Fatalf("entities %v", out)
	}
	b, _ = json.Marshal(ents[0].(map[string]any)["path"])
	if want := `[{"properties":{"roles":["Hero"]},"type":"ACTED_IN"},{"properties":{"rating":90,"summary":"Great"},"type":"REVIEWED"}]`; string(b) != want {
		t.Errorf("explore path\n got %s\nwant %s", b, want)
	}
}

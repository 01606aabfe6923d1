package planner_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// runStatement plans one call on the code-rag config and runs the
// statement on the test server, returning its rows.
func runStatement(t *testing.T, d neo4j.DriverWithContext, tool, args string) []*neo4j.Record {
	t.Helper()
	st, err := newFixture(t, "code-rag.yaml", tools.Capabilities{FullText: true}).plan(tool, args, nil)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	return runPlanned(t, d, st)
}

// runPlanned runs a planned statement in a read transaction.
func runPlanned(t *testing.T, d neo4j.DriverWithContext, st *planner.Statement) []*neo4j.Record {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, st.Cypher, st.Params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		t.Fatalf("%v\n%s", err, st.Cypher)
	}
	return res.Records
}

// TestExploreReturnsEachTargetOnceThroughParallelRelationships: two
// relationships of the same type between the same two nodes (with and
// without relationship properties) yield one row per target, at depth 1
// and deeper.
func TestExploreReturnsEachTargetOnceThroughParallelRelationships(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (a:Scope {uuid: 'a', name: 'a', startLine: 1, endLine: 3}), (b:Scope {uuid: 'b', name: 'b'}), (c:Change {uuid: 'c1', kind: 'updated'})
		CREATE (a)-[:CALLS]->(b), (a)-[:CALLS]->(b), (a)-[:HAS_CHANGE {order: 0}]->(c), (a)-[:HAS_CHANGE {order: 1}]->(c)`, nil)
	for _, c := range []struct{ name, args string }{
		{"without properties", `{"start_entity_type":"Scope","start_conditions":[{"field":"uuid","operator":"=","value":"a"}],"relationship_type":"CALLS"}`},
		{"with properties", `{"start_entity_type":"Scope","start_conditions":[{"field":"uuid","operator":"=","value":"a"}],"relationship_type":"HAS_CHANGE"}`},
		{"depth 2", `{"start_entity_type":"Scope","start_conditions":[{"field":"uuid","operator":"=","value":"a"}],"relationship_type":"CALLS","depth":2}`},
		// Computed start conditions, one with a subquery, leave the start
		// with the variables they computed; the traversal starts from n.
		{"computed start conditions", `{"start_entity_type":"Scope","start_conditions":[{"field":"line_count","operator":"=","value":3},{"field":"change_count","operator":"=","value":2}],"relationship_type":"CALLS","depth":2}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows := runStatement(t, d, "explore_relationships", c.args)
			if len(rows) != 1 {
				var ids []any
				for _, r := range rows {
					id, _ := r.Get("id")
					ids = append(ids, id)
				}
				t.Fatalf("got %d rows %v, want the one target once", len(rows), ids)
			}
			if rel, _ := rows[0].Get("relationship"); c.name == "with properties" {
				if m, ok := rel.(map[string]any); !ok || m["order"] == nil {
					t.Errorf("relationship = %v, want the properties of one of the parallel relationships", rel)
				}
			}
		})
	}
}

// TestExploreNeverReturnsTheStartThroughItsOwnLoop: a start's loops (two
// of them, sorting before its one other target) are no targets at any
// depth; the depth-1 page from the rows as read sees them and groups.
func TestExploreNeverReturnsTheStartThroughItsOwnLoop(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (a:Scope {uuid: 'a', name: 'a'}), (b:Scope {uuid: 'b', name: 'b'})
		CREATE (a)-[:CALLS]->(a), (a)-[:CALLS]->(a), (a)-[:CALLS]->(b)`, nil)
	for _, depth := range []int{1, 2} {
		args := fmt.Sprintf(`{"start_entity_type":"Scope","start_conditions":[{"field":"uuid","operator":"=","value":"a"}],"relationship_type":"CALLS","direction":"both","depth":%d,"limit":1}`, depth)
		rows := runStatement(t, d, "explore_relationships", args)
		var ids []any
		for _, r := range rows {
			id, _ := r.Get("id")
			ids = append(ids, id)
		}
		if !slices.Equal(ids, []any{"b"}) {
			t.Errorf("depth %d: ids %v, want [b]", depth, ids)
		}
	}
}

package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
)

// TestFindPathsSkipsItsSearchWhenTheEntitiesAreTooFew: on a dense graph
// (30 Nodes, 400 LINKs) with MaxExpanded 100, the relationships could
// reach the bound (2 × 400 + 2 > 100) but the nodes cannot, and PROFILE
// shows that the statement's breadth-first levels expand nothing and
// Neo4j's shortest-path search alone finds the paths, those a search in
// Go finds. Either of two counts proves it: the database's nodes (the
// Nodes, the test server's mark and a Stray node with a LINK to a Node:
// 2 × 32 + 2 ≤ 100), or the Nodes alone when every LINK starts and ends on
// one (forty unlinked Stray nodes instead: 2 × 30 + 2 ≤ 100). A Stray
// node's LINK beside the forty breaks both: the levels expand again, with
// the same answer.
func TestFindPathsSkipsItsSearchWhenTheEntitiesAreTooFew(t *testing.T) {
	d := neo4jtest.Open(t)
	g := newWalkGraph(3, 30, 8, 400, 20)
	g.load(t, d)
	f := cappedFixture(t, 100)
	pairs := [][2]int{{0, 7}, {3, 29}, {12, 5}, {21, 22}}
	const strayLink = "MATCH (n:Node {key: 'n00'}) CREATE (:Stray {key: 'stray'})-[:LINK {eid: -1}]->(n)"
	for _, step := range []struct {
		graph, cypher string
		expands       bool
	}{
		{"the Nodes", "", false},
		{"a Stray node's LINK", strayLink, false},
		{"forty unlinked Stray nodes instead", "MATCH (s:Stray) DETACH DELETE s WITH count(*) AS gone UNWIND range(1, 40) AS i CREATE (:Stray {key: 'stray' + i})", false},
		{"the forty and a Stray node's LINK", strayLink, true},
	} {
		if step.cypher != "" {
			neo4jtest.Run(t, d, step.cypher, nil)
		}
		for _, pr := range pairs {
			a, b := pr[0], pr[1]
			args := fmt.Sprintf(`{"from_entity_type":"Node","from_id":%q,"to_entity_type":"Node","to_id":%q,"relationship_types":["LINK"],"max_length":6,"all":true,"limit":50}`, g.keys[a], g.keys[b])
			st, err := f.plan(planner.FindPaths, args, nil)
			if err != nil {
				t.Fatal(err)
			}
			dist, ways := g.shortestPaths(a, b, []string{"LINK"}, "both")
			lengths := findPathRows(t, d, g, st, a, b, "both")
			if len(lengths) != min(ways, 50) {
				t.Errorf("%s, %s: %d paths, want %d of length %d", step.graph, args, len(lengths), min(ways, 50), dist)
			}
			for _, l := range lengths {
				if l != dist {
					t.Errorf("%s, %s: a path of length %d, the shortest is %d", step.graph, args, l, dist)
				}
			}
			expanded, shortest := levelRows(t, d, st)
			if step.expands != (expanded > 0) || shortest == 0 {
				t.Errorf("%s, %s: the levels expanded %d rows, the shortest-path search gave %d", step.graph, args, expanded, shortest)
			}
		}
	}
}

// levelRows profiles a find_paths statement and returns the rows of its
// breadth-first levels' expands and of Neo4j's shortest-path search.
func levelRows(t *testing.T, d neo4j.DriverWithContext, st *planner.Statement) (expanded, shortest int64) {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, "PROFILE "+st.Cypher, st.Params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		t.Fatalf("PROFILE: %v\n%s", err, st.Cypher)
	}
	var walk func(p neo4j.ProfiledPlan)
	walk = func(p neo4j.ProfiledPlan) {
		switch op := p.Operator(); {
		case strings.HasPrefix(op, "Expand"):
			expanded += p.Records()
		case strings.HasPrefix(op, "ShortestPath"):
			shortest += p.Records()
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(res.Summary.Profile())
	return expanded, shortest
}

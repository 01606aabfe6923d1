package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestWarmRunsTheHeaviestShapesWithIdsAsLongAsStoredOnes: on the movie
// graph, WarmCalls lists find_paths between every ordered pair of its two
// entities at every max_length and explore_relationships from each at
// every depth in every direction, each id as long as a stored one (Neo4j
// keys its plan cache on a string's length class), shallow levels first;
// Warm runs every one the catalog accepts, fails none, and counts those
// it refuses (a direction an entity does not have) as skipped.
func TestWarmRunsTheHeaviestShapesWithIdsAsLongAsStoredOnes(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (:Person {name: 'Keanu Reeves'})-[:ACTED_IN]->(:Movie {title: 'Speed'})`, nil)
	e := newEngine(t, d, "../testdata/configs/valid/movies.yaml", engine.Options{})
	ctx := context.Background()
	calls, err := e.WarmCalls(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lim := e.Tools().Limits()
	count := map[string]int{}
	last := map[string]int{}
	for _, c := range calls {
		var a struct {
			FromType  string `json:"from_entity_type"`
			FromID    string `json:"from_id"`
			MaxLength int    `json:"max_length"`
			Start     string `json:"start_entity_type"`
			Conds     []struct {
				Value string `json:"value"`
			} `json:"start_conditions"`
			Depth int `json:"depth"`
		}
		if err := json.Unmarshal(c.Arguments, &a); err != nil {
			t.Fatalf("%s %s: %v", c.Name, c.Arguments, err)
		}
		count[c.Name]++
		level, entity, id := a.MaxLength, a.FromType, a.FromID
		if c.Name == "explore_relationships" {
			level, entity, id = a.Depth, a.Start, a.Conds[0].Value
		}
		if level < last[c.Name] {
			t.Errorf("%s %s comes after level %d", c.Name, c.Arguments, last[c.Name])
		}
		last[c.Name] = level
		if want := map[string]int{"Person": len("Keanu Reeves"), "Movie": len("Speed")}[entity]; len(id) != want {
			t.Errorf("%s %s: a %s id of %d characters, want %d (as long as the stored one)", c.Name, c.Arguments, entity, len(id), want)
		}
	}
	if count["find_paths"] != 2*2*lim.MaxPathLength || count["explore_relationships"] != 2*3*lim.MaxDepth {
		t.Errorf("calls per tool %v, want %d find_paths and %d explore_relationships", count, 2*2*lim.MaxPathLength, 2*3*lim.MaxDepth)
	}
	// Every find_paths call plans, and each entity's explore in both
	// directions at every depth (only a one-way direction an entity lacks
	// is skipped).
	r := e.Warm(ctx, calls, 2, nil)
	if len(r.Failed) > 0 || r.Planned+r.Skipped != len(calls) || r.Planned < count["find_paths"]+2*lim.MaxDepth {
		t.Errorf("warm-up: %+v for %d calls", r, len(calls))
	}
	t.Logf("warm-up: %d planned, %d skipped in %v", r.Planned, r.Skipped, r.Took)
}

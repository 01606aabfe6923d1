package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/fixture/hubgraph"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// hubTimeout is the timeout of each call on the hub graph: far above
// what a bounded call needs there (the slowest take a few hundred
// milliseconds), far below the default 30 s.
const hubTimeout = 10 * time.Second

// loadHub loads the hub graph (internal/fixture/hubgraph, 20,000
// airports and 100,000 routes) with the routes config's indexes and
// returns it with an engine offering every tool of that config but
// run_cypher, whose statement is the agent's own.
func loadHub(t *testing.T) (*hubgraph.Graph, *engine.Engine, neo4j.DriverWithContext) {
	t.Helper()
	d := neo4jtest.Open(t)
	ctx := context.Background()
	m, err := config.Load("../testdata/hub/routes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := hubgraph.Generate(hubgraph.Default)
	start := time.Now()
	if err := hubgraph.Load(ctx, d, neo4jtest.Database(), g); err != nil {
		t.Fatal(err)
	}
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	t.Logf("hub graph: %d airports, %d routes, busiest %s with %d, loaded in %v", g.Airports, len(g.Routes), hubgraph.Code(g.Busiest()), g.Degrees()[g.Busiest()], time.Since(start).Round(time.Millisecond))
	e, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database(), Timeout: hubTimeout,
		Tools: tools.Options{Aggregations: true, Capabilities: &tools.Capabilities{FullText: true}}})
	if err != nil {
		t.Fatal(err)
	}
	return g, e, d
}

// execute runs one call and returns its result, how long it took and the
// error in a form that says what went wrong.
func execute(e *engine.Engine, tool string, args map[string]any) (*engine.Result, time.Duration, error) {
	raw, _ := json.Marshal(args)
	start := time.Now()
	res, err := e.Execute(context.Background(), engine.Call{Name: tool, Arguments: raw})
	return res, time.Since(start), err
}

// TestExploreAnswersDepthThreeBothWaysFromTheBusiestHubWithinASecond is
// the call of issue 19 that ran 39–49 s and ran out of transaction memory
// while it enumerated paths: explore_relationships over the routes, both
// directions, depth 3, from the busiest airport. Visiting each airport
// once, it answers in well under a second (median of five calls, the
// first included). The first page is full at depth 1, so the traversal
// stops there and the page is exact (no cap note); a page at offset 9,950
// needs the deeper levels, which Limits.MaxExpanded cuts, and says so.
func TestExploreAnswersDepthThreeBothWaysFromTheBusiestHubWithinASecond(t *testing.T) {
	g, e, _ := loadHub(t)
	for _, offset := range []int{0, 9950} {
		args := map[string]any{"start_entity_type": "Airport", "start_conditions": []any{map[string]any{"field": "code", "operator": "=", "value": hubgraph.Code(g.Busiest())}},
			"relationship_type": "ROUTE", "direction": "both", "depth": 3, "limit": 50, "offset": offset}
		var times []time.Duration
		for range 5 {
			res, took, err := execute(e, planner.ExploreRelationships, args)
			if err != nil {
				t.Fatal(err)
			}
			capped := slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "stopped after reaching 10000 entities") })
			if res.Count != 50 || !res.Truncated || capped != (offset > 0) {
				t.Fatalf("offset %d: %d entities, truncated %v, notes %q", offset, res.Count, res.Truncated, res.Notes)
			}
			times = append(times, took)
		}
		slices.Sort(times)
		t.Logf("depth 3 both ways from %s, offset %d: %v (median %v)", hubgraph.Code(g.Busiest()), offset, times, times[2])
		if times[2] >= time.Second {
			t.Errorf("offset %d: median %v, want under 1 s", offset, times[2])
		}
	}
}

// heavyCall is a call of TestNoLegalCallExhaustsTransactionMemory.
type heavyCall struct {
	tool string
	args map[string]any
}

// heaviestCalls are calls of every tool of the routes config with its
// heaviest legal arguments on the hub graph: the most results and the
// deepest offset, the longest include lists across the hubs, the deepest traversals and longest paths in both
// directions over every relationship type from the hubs and from every
// airport, conditions that keep every airport and read every route,
// orders on a computed field, the widest radius, period and patterns.
func heaviestCalls(g *hubgraph.Graph) []heavyCall {
	busiest := hubgraph.Code(g.Busiest())
	deg := g.Degrees()
	lonely := busiest // an airport without routes: its only way out is its country
	for i := len(deg) - 1; i >= 0; i-- {
		if deg[i] == 0 {
			lonely = hubgraph.Code(i)
			break
		}
	}
	all := []string{"ROUTE", "IN_COUNTRY"}
	cond := func(field, op string, v any) map[string]any {
		return map[string]any{"field": field, "operator": op, "value": v}
	}
	everyRoute := []any{
		cond("passengers", ">=", 0),
		map[string]any{"via": "ROUTE", "direction": "both", "count": map[string]any{"operator": ">=", "value": 0}},
		map[string]any{"via": "ROUTE", "direction": "both", "quantifier": "all", "relationship_conditions": []any{cond("distance_km", ">=", 0)}},
		map[string]any{"not": []any{map[string]any{"via": "ROUTE", "direction": "both", "entity": "Airport", "quantifier": "some", "conditions": []any{cond("passengers", "<", 0)}}}},
		map[string]any{"any_of": []any{map[string]any{"via": "IN_COUNTRY", "conditions": []any{cond("name", "STARTS WITH", "Country")}}, cond("hub", "=", true)}},
	}
	desc := func(f string) []any { return []any{map[string]any{"field": f, "direction": "DESC"}} }
	return []heavyCall{
		{planner.QueryEntities, map[string]any{"entity_type": "Airport", "conditions": everyRoute, "order_by": desc("passengers_millions"), "limit": 50, "offset": 10000,
			"include": []any{map[string]any{"via": "ROUTE", "direction": "both", "limit": tools.MaxIncludeLimit}, map[string]any{"via": "IN_COUNTRY"}}}},
		{planner.QueryEntities, map[string]any{"entity_type": "Country", "conditions": []any{map[string]any{"via": "IN_COUNTRY", "direction": "incoming", "count": map[string]any{"operator": ">=", "value": 0}}}, "limit": 50,
			"include": []any{map[string]any{"via": "IN_COUNTRY", "direction": "incoming", "limit": tools.MaxIncludeLimit}}}},
		{planner.GetEntityByID, map[string]any{"entity_type": "Airport", "id_value": busiest}},
		{planner.ExploreRelationships, map[string]any{"start_entity_type": "Airport", "start_conditions": []any{cond("code", "=", busiest)}, "relationship_types": all, "direction": "both", "depth": 3, "limit": 50, "offset": 10000}},
		{planner.ExploreRelationships, map[string]any{"start_entity_type": "Airport", "start_conditions": []any{cond("passengers", ">=", 0)}, "relationship_types": all, "direction": "both", "depth": 3,
			"target_entity_type": "Airport", "target_conditions": []any{cond("passengers", ">=", 0)}, "order_by": desc("passengers"), "limit": 50, "offset": 10000}},
		{planner.ExploreRelationships, map[string]any{"start_entity_type": "Country", "relationship_types": all, "direction": "both", "depth": 3, "limit": 50}},
		{planner.ExploreRelationships, map[string]any{"start_entity_type": "Airport", "relationship_type": "ROUTE", "direction": "incoming", "depth": 3, "limit": 50}},
		{planner.FindPaths, map[string]any{"from_entity_type": "Airport", "from_id": lonely, "to_entity_type": "Airport", "to_id": hubgraph.Code(g.Airports - 2), "relationship_types": all, "direction": "both", "max_length": 6, "all": true, "limit": 50}},
		{planner.FindPaths, map[string]any{"from_entity_type": "Airport", "from_id": lonely, "to_entity_type": "Airport", "to_id": busiest, "relationship_types": []string{"ROUTE"}, "direction": "both", "max_length": 6, "all": true, "limit": 50}},
		{planner.FindPaths, map[string]any{"from_entity_type": "Airport", "from_id": hubgraph.Code(g.Airports - 1), "to_entity_type": "Country", "to_id": hubgraph.CountryCode(g.Countries - 1), "relationship_types": all, "direction": "outgoing", "max_length": 6, "all": true, "limit": 50}},
		{planner.QueryRelationships, map[string]any{"relationship_type": "ROUTE", "conditions": []any{cond("distance_km", ">=", 0)}, "order_by": desc("distance_km"), "limit": 50, "offset": 10000}},
		{planner.QueryRelationships, map[string]any{"relationship_type": "ROUTE", "from_conditions": []any{cond("passengers", ">=", 0)}, "to_conditions": []any{cond("passengers", ">=", 0)},
			"order_by": []any{map[string]any{"field": "airline"}, map[string]any{"field": "distance_km", "direction": "DESC"}}, "limit": 50, "offset": 10000}},
		{planner.FulltextSearch, map[string]any{"entity_type": "Airport", "query": "Airport City Country", "fuzzy": true, "limit": 50}},
		{planner.TextPatternSearch, map[string]any{"entity_type": "Airport", "field": "name", "mode": "regex", "pattern": ".*o.*o.*", "limit": 50}},
		{planner.TextPatternSearch, map[string]any{"entity_type": "Airport", "field": "city", "mode": "glob", "pattern": "*1*", "limit": 50}},
		{planner.TextPatternSearch, map[string]any{"entity_type": "Airport", "field": "name", "mode": "fuzzy", "pattern": "Airprot", "limit": 50}},
		{planner.NumberRangeSearch, map[string]any{"entity_type": "Airport", "field": "passengers_millions", "operator": "histogram", "buckets": 50}},
		{planner.NumberRangeSearch, map[string]any{"entity_type": "Airport", "field": "passengers_millions", "operator": "outlier", "k": 0.01, "limit": 50}},
		{planner.NumberRangeSearch, map[string]any{"entity_type": "Airport", "field": "passengers", "operator": "percentile", "percentile": 0, "limit": 50}},
		{planner.DatetimeRangeSearch, map[string]any{"entity_type": "Airport", "field": "opened", "mode": "between", "start_datetime": "1900-01-01", "end_datetime": "2100-01-01", "precision": "day", "limit": 50}},
		{planner.EnumFilterSearch, map[string]any{"entity_type": "Airport", "field": "kind", "values": []string{"international", "regional", "domestic"}, "limit": 50}},
		{planner.DistanceSearch, map[string]any{"entity_type": "Airport", "field": "location", "latitude": 0, "longitude": 0, "radius_km": 20100, "limit": 50}},
		{planner.AggregateEntities, map[string]any{"entity_type": "Airport", "operation": "AVG", "field": "passengers", "group_by": "code", "over": map[string]any{"via": "ROUTE", "direction": "both"}, "limit": 50}},
		{planner.AggregateEntities, map[string]any{"entity_type": "Airport", "operation": "COUNT", "group_by": "city", "conditions": everyRoute, "limit": 50}},
		{planner.AggregateEntities, map[string]any{"entity_type": "Airport", "operation": "COUNT_DISTINCT", "field": "city", "group_by": "code", "limit": 50,
			"over": map[string]any{"path": []any{map[string]any{"via": "ROUTE", "direction": "both"}, map[string]any{"via": "ROUTE", "direction": "both"}, map[string]any{"via": "ROUTE", "direction": "both"}}}}},
		// Matched from the busiest hub, pinned in the last hop (planner's
		// pinnedPath): the paths back to every start, made distinct only
		// at the last level, which the bound cuts.
		{planner.AggregateEntities, map[string]any{"entity_type": "Airport", "operation": "COUNT", "group_by": "code", "limit": 50,
			"over": map[string]any{"path": []any{map[string]any{"via": "ROUTE", "direction": "both"}, map[string]any{"via": "ROUTE", "direction": "both"},
				map[string]any{"via": "ROUTE", "direction": "both", "conditions": []any{map[string]any{"field": "code", "operator": "=", "value": busiest}}}}}}},
	}
}

// maxCallMemory is the most transaction memory one call of the hub test
// may take: a sixth of the server's pool (1.4 GiB of a 2 GB heap), so
// several heavy calls at once still fit.
const maxCallMemory = 256 << 20

// TestNoLegalCallExhaustsTransactionMemory calls every tool the routes
// config offers (all but run_cypher, whose statement is the agent's own)
// with its heaviest legal arguments on the hub graph, and fails on any
// error — Neo4j out of memory, a call over its timeout — naming the call.
// It profiles each call's statement and fails on one that takes more
// than maxCallMemory of transaction memory, and fails, too, naming an
// offered tool it does not call.
func TestNoLegalCallExhaustsTransactionMemory(t *testing.T) {
	g, e, d := loadHub(t)
	covered := map[string]bool{}
	var total time.Duration
	for _, c := range heaviestCalls(g) {
		covered[c.tool] = true
		res, took, err := execute(e, c.tool, c.args)
		total += took
		raw, _ := json.Marshal(c.args)
		var oom *neo4jtx.OutOfMemoryError
		var ce *tools.CallError
		switch {
		case errors.As(err, &oom), errors.As(err, &ce) && strings.Contains(ce.Error(), "out of memory"):
			t.Errorf("%s %s: Neo4j ran out of memory after %v: %v", c.tool, raw, took, err)
			continue
		case err != nil:
			t.Errorf("%s %s: %v after %v", c.tool, raw, err, took)
			continue
		case took > hubTimeout:
			t.Errorf("%s %s: %v, over the timeout of %v", c.tool, raw, took, hubTimeout)
		}
		mem := statementMemory(t, e, d, c.tool, raw)
		t.Logf("%s: %d results in %v, %.1f MB, notes %q", c.tool, res.Count, took.Round(time.Millisecond), float64(mem)/1e6, res.Notes)
		if mem > maxCallMemory {
			t.Errorf("%s %s: %.1f MB of transaction memory, over %d MB", c.tool, raw, float64(mem)/1e6, maxCallMemory>>20)
		}
	}
	for _, tl := range e.Tools().Tools {
		if !covered[tl.Name] {
			t.Errorf("tool %s is offered but not called: add its heaviest call to heaviestCalls", tl.Name)
		}
	}
	t.Logf("all calls: %v", total.Round(time.Millisecond))
}

// statementMemory profiles the statement a call plans (and its fetch
// step) and returns the most transaction memory one of them took.
func statementMemory(t *testing.T, e *engine.Engine, d neo4j.DriverWithContext, tool string, raw json.RawMessage) int64 {
	t.Helper()
	st, err := e.Plan(context.Background(), engine.Call{Name: tool, Arguments: raw})
	if err != nil {
		t.Fatal(err)
	}
	var most int64
	for _, s := range []*planner.Statement{st, st.Fetch} {
		if s == nil {
			continue
		}
		params := s.Params
		if s == st.Fetch {
			params = map[string]any{planner.FetchIDs: []any{}}
			for k, v := range s.Params {
				params[k] = v
			}
		}
		res, err := neo4j.ExecuteQuery(context.Background(), d, "PROFILE "+s.Cypher, params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
		if err != nil {
			t.Errorf("PROFILE %s: %v", tool, err)
			continue
		}
		if m, ok := res.Summary.Profile().Arguments()["GlobalMemory"].(int64); ok {
			most = max(most, m)
		}
	}
	return most
}

// TestACappedTraversalSaysSoEvenWithNothingToReturn: on a star (n0 linked
// to n1…n5, each marked with its own tag) and Limits.MaxExpanded 3,
// explore_relationships returns the 3 entities it reached with a note
// naming the arguments that narrow the traversal; with target conditions
// none of them meets, it returns nothing and still says so; find_paths
// between a leaf and another leaf's tag stops before the ends meet and
// says so. With the default limits none of them has the note, and the
// path is found.
func TestACappedTraversalSaysSoEvenWithNothingToReturn(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (c:Node {key: 'n0', rank: 0})
		WITH c UNWIND range(1, 5) AS i
		CREATE (c)-[:LINK {eid: i}]->(n:Node {key: 'n' + i, rank: i})-[:MARK {eid: 10 + i}]->(:Tag {key: 't' + i})`, nil)
	m, err := config.Load("../testdata/planner/configs/walks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	explore := map[string]any{"start_entity_type": "Node", "start_conditions": []any{map[string]any{"field": "key", "operator": "=", "value": "n0"}}, "relationship_type": "LINK", "depth": 2}
	nothing := map[string]any{"start_entity_type": "Node", "start_conditions": []any{map[string]any{"field": "key", "operator": "=", "value": "n0"}}, "relationship_type": "LINK", "depth": 2,
		"target_entity_type": "Node", "target_conditions": []any{map[string]any{"field": "rank", "operator": ">", "value": 100}}}
	path := map[string]any{"from_entity_type": "Node", "from_id": "n1", "to_entity_type": "Tag", "to_id": "t2", "max_length": 6}
	for _, c := range []struct {
		expanded int
		tool     string
		args     map[string]any
		count    int
		capped   bool
	}{
		{3, planner.ExploreRelationships, explore, 3, true},
		{3, planner.ExploreRelationships, nothing, 0, true},
		{3, planner.FindPaths, path, 0, true},
		{0, planner.ExploreRelationships, explore, 5, false},
		{0, planner.ExploreRelationships, nothing, 0, false},
		{0, planner.FindPaths, path, 1, false},
	} {
		e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tools: tools.Options{Limits: tools.Limits{MaxExpanded: c.expanded}}})
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := execute(e, c.tool, c.args)
		if err != nil {
			t.Fatalf("%s %v: %v", c.tool, c.args, err)
		}
		out, _ := json.Marshal(res)
		note := strings.Join(res.Notes, "\n")
		capped := strings.Contains(note, "stopped after reaching")
		if res.Count != c.count || capped != c.capped || c.capped && !res.Truncated || strings.Contains(string(out), `"capped"`) {
			t.Errorf("max %d, %s %v: %s; want %d results, capped %v", c.expanded, c.tool, c.args, out, c.count, c.capped)
		}
		narrow := map[string][]string{planner.ExploreRelationships: {"start_conditions", "depth", "relationship_types"}, planner.FindPaths: {"relationship_types", "direction"}}
		for _, a := range narrow[c.tool] {
			if c.capped && !strings.Contains(note, a) {
				t.Errorf("%s: note %q does not suggest %s", c.tool, note, a)
			}
		}
	}
}

package planner_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// stringLeaves lists the distinct string values of a JSON document (object
// keys excluded).
func stringLeaves(v any, out map[string]bool) {
	switch x := v.(type) {
	case string:
		out[x] = true
	case []any:
		for _, y := range x {
			stringLeaves(y, out)
		}
	case map[string]any:
		for _, y := range x {
			stringLeaves(y, out)
		}
	}
}

// replaceLeaf returns v with every string value equal to from replaced.
func replaceLeaf(v any, from, to string) any {
	switch x := v.(type) {
	case string:
		if x == from {
			return to
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, y := range x {
			out[i] = replaceLeaf(y, from, to)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, y := range x {
			out[k] = replaceLeaf(y, from, to)
		}
		return out
	}
	return v
}

// checkValuesStayParameters is the invariant the fuzz target and the
// injection corpus check: planning never panics, and no string an agent
// sent reaches the Cypher text. Each string value of the arguments is
// replaced in turn by a marker; whenever the call is still valid, the
// marker must not appear in the statement (only in its parameters).
// Values that select a name from the model (entity, field, mode) make the
// call invalid when replaced, so only free values are checked.
func checkValuesStayParameters(t *testing.T, f *fixture, tool string, args []byte) {
	t.Helper()
	if tool == planner.RunCypher {
		return // the one tool whose text is the agent's, checked by EXPLAIN in the engine
	}
	if _, err := f.plan(tool, string(args), nil); err != nil {
		var ce *tools.CallError
		if !errors.As(err, &ce) {
			t.Fatalf("%s %s: error is not a CallError: %v", tool, args, err)
		}
		return
	}
	var doc any
	if err := json.Unmarshal(args, &doc); err != nil {
		return
	}
	leaves := map[string]bool{}
	stringLeaves(doc, leaves)
	i := 0
	for s := range leaves {
		marker := fmt.Sprintf("zqmarker%dqz", i)
		i++
		b, _ := json.Marshal(replaceLeaf(doc, s, marker))
		st, err := f.plan(tool, string(b), nil)
		if err != nil {
			continue
		}
		if strings.Contains(strings.ToLower(st.Cypher), marker) {
			t.Fatalf("%s: the value %q reached the Cypher text:\n%s", tool, s, st.Cypher)
		}
	}
}

// FuzzPlanKeepsArgumentsOutOfCypher feeds arbitrary JSON arguments to every
// tool of the code-RAG and places configs (APOC on, so every mode plans).
func FuzzPlanKeepsArgumentsOutOfCypher(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "planner", "*.txtar"))
	for _, p := range paths {
		a := golden.ReadArchive(f, p)
		tool, _ := golden.File(a, "tool")
		args, _ := golden.File(a, "args")
		f.Add(strings.TrimSpace(tool), []byte(strings.TrimSpace(args)))
	}
	code := newFixture(f, "code-rag.yaml", tools.Capabilities{FullText: true, APOC: true})
	places := newFixture(f, "places.yaml", tools.Capabilities{FullText: true, APOC: true})
	movies := newFixture(f, "movies.yaml", tools.Capabilities{FullText: true, APOC: true})
	memory := newFixture(f, "memory-graph.yaml", tools.Capabilities{FullText: true, APOC: true})
	f.Fuzz(func(t *testing.T, tool string, args []byte) {
		checkValuesStayParameters(t, code, tool, args)
		checkValuesStayParameters(t, places, tool, args)
		checkValuesStayParameters(t, movies, tool, args)
		checkValuesStayParameters(t, memory, tool, args)
	})
}

// injections are values that would break out of a query built by string
// concatenation, or confuse a careless escaper.
var injections = []string{
	"x` }) MATCH (m) DETACH DELETE m //",
	"x' OR 1=1 //",
	`x" OR 1=1 /*`,
	"*/ RETURN 1 //",
	"} RETURN n { .* } //",
	"$p0",
	"$limit",
	"\\u0060) DETACH DELETE n",
	"ˋ) DETACH DELETE n", // modifier letter grave accent, a backtick look-alike
	"＄p0 ｀ＭＡＴＣＨ",         // full-width dollar and backtick
	"\u202eevil\u202c",
	"a\x00b",
	"name:(x) OR *:*",
	"\\",
	"CALL dbms.killQueries()",
}

// TestInjectionCorpusStaysInParameters sends each injection as every free
// string argument of every tool: the call plans with the value only in its
// parameters, or fails with a clean CallError.
func TestInjectionCorpusStaysInParameters(t *testing.T) {
	f := newFixture(t, "code-rag.yaml", tools.Capabilities{FullText: true, APOC: true})
	templates := map[string]string{
		planner.QueryEntities:        `{"entity_type":"Scope","conditions":[{"field":"name","operator":"=","value":%s},{"field":"file","operator":"IN","value":[%s]}]}`,
		planner.GetEntityByID:        `{"entity_type":"Scope","id_value":%s}`,
		planner.ExploreRelationships: `{"start_entity_type":"File","start_conditions":[{"field":"path","operator":"STARTS WITH","value":%s}],"relationship_type":"CONTAINS"}`,
		planner.FulltextSearch:       `{"entity_type":"Scope","query":%s}`,
		planner.AggregateEntities:    `{"entity_type":"Scope","operation":"COUNT","conditions":[{"field":"signature","operator":"CONTAINS","value":%s}]}`,
	}
	for _, mode := range []string{"contains", "starts_with", "ends_with", "exact", "regex", "glob", "fuzzy"} {
		templates[planner.TextPatternSearch+" "+mode] = `{"entity_type":"Scope","field":"name","mode":"` + mode + `","pattern":%s}`
	}
	// The relational forms, on the movies graph: values inside
	// relationship tests, groups, relationship properties, aggregates over
	// related entities, explore's target conditions and find_paths' ids.
	movies := newFixture(t, "movies.yaml", tools.Capabilities{FullText: true})
	for kind, tmpl := range map[string]string{
		"via":     `{"entity_type":"Movie","conditions":[{"via":"ACTED_IN","quantifier":"all","conditions":[{"field":"name","operator":"=","value":%s}],"relationship_conditions":[{"field":"roles","operator":"CONTAINS","value":%s}]}]}`,
		"groups":  `{"entity_type":"Movie","conditions":[{"any_of":[{"field":"title","operator":"IN","value":[%s],"ignore_case":true},{"not":[{"field":"tagline","operator":"ENDS WITH","value":%s}]}]}]}`,
		"over":    `{"entity_type":"Person","operation":"COUNT","over":{"via":"REVIEWED","relationship_conditions":[{"field":"summary","operator":"STARTS WITH","value":%s}]}}`,
		"explore": `{"start_entity_type":"Person","relationship_types":["ACTED_IN","DIRECTED"],"target_conditions":[{"field":"title","operator":"=","value":%s}],"order_by":[{"field":"released"}]}`,
		"paths":   `{"from_entity_type":"Person","from_id":%s,"to_entity_type":"Movie","to_id":%s}`,
	} {
		tool := map[string]string{"via": planner.QueryEntities, "groups": planner.QueryEntities, "over": planner.AggregateEntities, "explore": planner.ExploreRelationships, "paths": planner.FindPaths}[kind]
		templates[tool+" "+kind+" movies"] = tmpl
	}
	for name, tmpl := range templates {
		tool, _, _ := strings.Cut(name, " ")
		f := f
		if strings.HasSuffix(name, " movies") {
			f = movies
		}
		for _, inj := range injections {
			q, _ := json.Marshal(inj)
			args := strings.ReplaceAll(tmpl, "%s", string(q))
			if _, err := f.plan(tool, args, nil); err != nil {
				var ce *tools.CallError
				if !errors.As(err, &ce) {
					t.Errorf("%s %q: not a CallError: %v", name, inj, err)
				}
				continue
			}
			checkValuesStayParameters(t, f, tool, []byte(args))
		}
	}
}

// TestHostileArgumentShapesGetCleanErrors covers what JSON itself can do:
// huge and non-finite numbers, deep nesting, enormous strings, wrong types.
func TestHostileArgumentShapesGetCleanErrors(t *testing.T) {
	f := newFixture(t, "code-rag.yaml", tools.Capabilities{FullText: true})
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	huge := `"` + strings.Repeat("a", 10<<20) + `"`
	cases := map[string][2]string{
		"huge number":         {planner.NumberRangeSearch, `{"entity_type":"File","field":"size","operator":"gt","value":1e400}`},
		"huge integer":        {planner.QueryEntities, `{"entity_type":"File","conditions":[{"field":"size","operator":">","value":123456789012345678901234567890}]}`},
		"NaN":                 {planner.NumberRangeSearch, `{"entity_type":"File","field":"size","operator":"gt","value":NaN}`},
		"Infinity":            {planner.NumberRangeSearch, `{"entity_type":"File","field":"size","operator":"gt","value":Infinity}`},
		"deep nesting":        {planner.QueryEntities, `{"entity_type":"Scope","conditions":` + deep + `}`},
		"deep value":          {planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"name","operator":"=","value":` + deep + `}]}`},
		"10 MB string":        {planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":` + huge + `}`},
		"not JSON":            {planner.QueryEntities, `{"entity_type":`},
		"array arguments":     {planner.QueryEntities, `[]`},
		"wrong value type":    {planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"startLine","operator":">","value":"ten"}]}`},
		"object as value":     {planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"name","operator":"=","value":{"$ne":1}}]}`},
		"limit over maximum":  {planner.QueryEntities, `{"entity_type":"Scope","limit":51}`},
		"negative limit":      {planner.QueryEntities, `{"entity_type":"Scope","limit":-1}`},
		"offset over maximum": {planner.QueryEntities, `{"entity_type":"Scope","offset":1000000000}`},
		"depth over maximum":  {planner.ExploreRelationships, `{"start_entity_type":"File","relationship_type":"CONTAINS","depth":50}`},
		"too many buckets":    {planner.NumberRangeSearch, `{"entity_type":"File","field":"size","operator":"histogram","buckets":1000000}`},
		"too many IN values":  {planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"name","operator":"IN","value":[` + strings.TrimSuffix(strings.Repeat(`"a",`, 1001), ",") + `]}]}`},
		"unknown argument":    {planner.QueryEntities, `{"entity_type":"Scope","cypher":"MATCH (n) DELETE n"}`},
		"tool name injection": {"query_entities`) DELETE n //", `{}`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := f.plan(c[0], c[1], nil)
			var ce *tools.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a CallError", err)
			}
			if len(ce.Error()) > 4000 {
				t.Errorf("the error is %d bytes long", len(ce.Error()))
			}
		})
	}
}

// TestPlannerClampsLimitsEvenWithoutValidation calls the planner directly
// with arguments that never passed the catalog (complete, as Parse leaves
// them, but out of bounds or hostile): limits, offsets and depths are
// clamped, unknown names are refused.
func TestPlannerClampsLimitsEvenWithoutValidation(t *testing.T) {
	f := newFixture(t, "code-rag.yaml", tools.Capabilities{FullText: true})
	st, err := f.p.Plan(planner.Call{Tool: planner.QueryEntities, Args: &planner.QueryEntitiesArgs{EntityType: "Scope", Limit: 1 << 30, Offset: 1 << 40}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Params["limit"] != int64(tools.DefaultLimits.MaxLimit) || st.Params["offset"] != int64(tools.DefaultLimits.MaxOffset) {
		t.Errorf("params %v", st.Params)
	}
	st, err = f.p.Plan(planner.Call{Tool: planner.ExploreRelationships, Args: &planner.ExploreRelationshipsArgs{StartEntityType: "File", RelationshipTypes: []string{"CONTAINS"}, Direction: "outgoing", Depth: 1000}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if levels := strings.Count(st.Cypher, "CALL (frontier, seen)"); levels != tools.DefaultLimits.MaxDepth {
		t.Errorf("depth not clamped: %d levels\n%s", levels, st.Cypher)
	}
	st, err = f.p.Plan(planner.Call{Tool: planner.AggregateEntities, Args: &planner.AggregateEntitiesArgs{EntityType: "Scope", Operation: "COUNT", GroupBy: "type", Limit: 1 << 30, Offset: -5}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Params["limit"] != int64(tools.DefaultLimits.MaxGroups) || st.Params["offset"] != int64(0) {
		t.Errorf("aggregate params %v", st.Params)
	}
	for _, c := range []struct {
		tool string
		args any
	}{
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "Scope`) DETACH DELETE n //"}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "Scope", OrderBy: tools.OrderByList{{Field: "name` DESC"}}}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "File", Conditions: []tools.Condition{{Via: "CONTAINS]->() DELETE n //"}}}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "File", Conditions: []tools.Condition{{Via: "CONTAINS", Entity: "Scope`) DELETE n //"}}}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "File", Conditions: []tools.Condition{{Via: "CONTAINS", Direction: "outgoing]->(m) DELETE m //"}}}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "File", Conditions: []tools.Condition{{Via: "CONTAINS", Quantifier: "some OR true"}}}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "File", Conditions: []tools.Condition{{Via: "CONTAINS", Count: &tools.CountTest{Operator: "> 0 OR true"}}}}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "File", Conditions: []tools.Condition{{Via: "CONTAINS", Entity: "Scope", Conditions: []tools.Condition{{Field: "name` = 1 OR 1", Operator: "=", Value: "x"}}}}}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "File", Conditions: []tools.Condition{{Via: "CONTAINS", RelationshipConditions: []tools.Condition{{Field: "x` = 1", Operator: "=", Value: "x"}}}}}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "File", Conditions: []tools.Condition{{AnyOf: []tools.Condition{{Field: "path", Operator: "=~", Value: "x"}}}}}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", Over: &tools.Over{Related: tools.Related{Via: "CONTAINS", Entity: "Scope` DELETE"}}}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", Over: &tools.Over{Related: tools.Related{Via: "CONTAINS", Direction: "outgoing"}, GroupBy: "x` DELETE"}}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", Over: &tools.Over{Path: []tools.Related{{Via: "CONTAINS", Direction: "outgoing", Entity: "Scope"}, {Via: "CALLS` DELETE", Direction: "outgoing"}}}}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", Over: &tools.Over{Path: []tools.Related{{Via: "CONTAINS", Direction: "outgoing", Entity: "Scope"}}, GroupByRelated: "name` DELETE"}}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "Scope", Operation: "COUNT", GroupBy: "modified_at", Bucket: "hour'), 13) DELETE n //"}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", GroupBy: "path", Having: &tools.Having{Operator: "> 0 OR true"}}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", Having: &tools.Having{Operator: ">"}}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", GroupBy: "path", Bucket: "hour"}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", Bucket: "hour"}},
		{planner.AggregateEntities, &planner.AggregateEntitiesArgs{EntityType: "File", Operation: "COUNT", GroupBy: "path", Over: &tools.Over{Related: tools.Related{Via: "CONTAINS", Direction: "outgoing"}, GroupBy: "order"}}},
		{planner.ExploreRelationships, &planner.ExploreRelationshipsArgs{StartEntityType: "File", RelationshipTypes: []string{"CONTAINS|IMPORTS"}}},
		{planner.FindPaths, &planner.FindPathsArgs{FromEntityType: "File", FromID: "a", ToEntityType: "File", ToID: "b", RelationshipTypes: []string{"CONTAINS*]-() DELETE n //"}}},
		{planner.FindPaths, &planner.FindPathsArgs{FromEntityType: "File", FromID: "a", ToEntityType: "File", ToID: "b", Direction: "->"}},
		{planner.QueryEntities, &planner.QueryEntitiesArgs{EntityType: "Scope", Conditions: []tools.Condition{{Field: "name", Operator: "= 1 OR 1", Value: "x"}}}},
		{planner.ExploreRelationships, &planner.ExploreRelationshipsArgs{StartEntityType: "File", RelationshipType: "CONTAINS]->() DELETE n //"}},
		{planner.NumberRangeSearch, &planner.NumberRangeSearchArgs{EntityType: "File", Field: "size", Operator: "gt"}},
		{planner.TextPatternSearch, &planner.TextPatternSearchArgs{EntityType: "Scope", Field: "name", Pattern: "x", Mode: "sql"}},
		{planner.QueryEntities, struct{}{}},
		{"no_such_tool", &planner.QueryEntitiesArgs{EntityType: "Scope"}},
	} {
		if _, err := f.p.Plan(planner.Call{Tool: c.tool, Args: c.args}, nil); err == nil {
			t.Errorf("%s %+v planned", c.tool, c.args)
		}
	}
}

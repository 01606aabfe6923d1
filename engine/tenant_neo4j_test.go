package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/cypher/scope"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/history/historytools"
	"github.com/ragforge/ragforge/internal/memory/write"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/internal/tree"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// flatEmbedder gives every text the same unit vector, so every embedded
// node is a perfect vector match: a search that leaks would find the
// other tenant's nodes too.
var flatEmbedder = engine.EmbedderFunc(func(_ context.Context, _ string, vi *model.VectorIndex) ([]float32, error) {
	v := make([]float32, vi.Dimensions)
	v[0] = 1
	return v, nil
})

// seedTwoTenants writes the same memories for alice and bob through the
// write tools; bob's texts carry the marker BOBONLY, so any result that
// shows it leaked. It returns bob's keys.
func seedTwoTenants(t *testing.T, e *engine.Engine) (aliceKeys, bobKeys map[string]string) {
	t.Helper()
	aliceKeys, bobKeys = map[string]string{}, map[string]string{}
	for _, tn := range []string{"alice", "bob"} {
		mark := ""
		keys := aliceKeys
		if tn == "bob" {
			mark, keys = " BOBONLY", bobKeys
		}
		w := func(tool string, args map[string]any) string {
			raw, _ := json.Marshal(args)
			res, err := e.Execute(tenant.With(context.Background(), tn), engine.Call{Name: tool, Arguments: raw})
			if err != nil {
				t.Fatalf("%s as %s: %v", tool, tn, err)
			}
			return res.Custom.(write.Result).EntityKey
		}
		keys["person"] = w("create_person", map[string]any{"name": "Ada" + mark, "canonical_name": "ada", "is_owner": true, "notes": "sails" + mark, "confidence": 0.8, "source": "chat"})
		keys["friend"] = w("create_person", map[string]any{"name": "Bo" + mark, "canonical_name": "bo", "confidence": 0.5, "source": "test"})
		keys["concept"] = w("create_concept", map[string]any{"name": "sailing", "description": "boats and wind" + mark, "confidence": 0.9, "source": "test"})
		keys["entity"] = w("create_entity", map[string]any{"name": "Harbour", "type": "place", "description": "a harbour" + mark, "notes": "windy" + mark, "source": "test", "confidence": 1})
		keys["source"] = w("create_source", map[string]any{"content_type": "conversation", "content": "we talked" + mark, "description": "talk" + mark, "source": "test", "confidence": 1})
		keys["artifact"] = w("create_artifact", map[string]any{"content_type": "md_file", "description": "plan" + mark, "output": "# plan" + mark, "source": "test", "confidence": 1})
		for _, r := range []struct{ from, to, typ string }{
			{"person", "concept", "thinks_about"}, {"person", "friend", "has_relationship_with"}, {"person", "entity", "relates_to"},
			{"concept", "person", "involves"}, {"source", "person", "mentions"}, {"concept", "artifact", "produced"}, {"artifact", "source", "sourced_from"},
		} {
			w("create_relationship", map[string]any{"from_entity_key": keys[r.from], "to_entity_key": keys[r.to], "relationship_type": r.typ, "source": "test", "confidence": 1})
		}
	}
	return aliceKeys, bobKeys
}

// toolCall is one call of the every-tool tests. want, when set, is text
// the result must hold; else it must hold one of the caller's own keys.
type toolCall struct {
	tool string
	args map[string]any
	want string
}

// tenancyCase is a tenant-scoped example config with two tenants' data and
// alice's calls: one or more of every tool its catalog offers (calls), and
// calls naming bob's keys, each of which must fail (foreign).
type tenancyCase struct {
	config string
	// overlays are config files unified with the config's; a case with
	// an analytics overlay needs Graph Data Science.
	overlays []string
	gds      bool
	embedder engine.Embedder
	// seed writes alice's and bob's data; bob's carry the marker BOBONLY.
	seed    func(t *testing.T, e *engine.Engine, d neo4j.DriverWithContext) (alice, bob map[string]string)
	calls   func(alice, bob map[string]string) []toolCall
	foreign func(alice, bob map[string]string) []toolCall
}

// model loads the case's config with its overlays.
func (tc tenancyCase) model(t *testing.T) *model.Model {
	t.Helper()
	m, err := config.Load(append([]string{"../testdata/configs/valid/" + tc.config + ".yaml"}, tc.overlays...)...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// toolOptions offer every tool the case's config has: aggregations,
// history, full-text, Graph Data Science when the case needs it, and the
// application's tool app.
func (tc tenancyCase) toolOptions(app tools.CustomTool) tools.Options {
	return tools.Options{Capabilities: &tools.Capabilities{FullText: true, GDS: tc.gds}, History: true, Aggregations: true, CustomTools: []tools.CustomTool{app}}
}

// appTool is an application's own tool, registered through
// tools.Options.CustomTools: it answers with the tenant its handler finds
// on the context, and counts its calls.
func appTool(calls *atomic.Int32) tools.CustomTool {
	return tools.CustomTool{
		Name: "whoami", Category: "app", Description: "Say which user the call runs for.", ReadOnly: true,
		InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			calls.Add(1)
			v, _ := tenant.From(ctx)
			return map[string]string{"tenant": v}, nil
		},
	}
}

// tenancyCases are the two example configs that declare a tenant: the
// memory graph (generated, write, traverse, explore and history tools,
// and with an overlay similarity and analytics) and the team drive
// (generated, traverse and tree tools). Each engine also offers the
// application tool whoami.
var tenancyCases = []tenancyCase{
	{
		config: "memory-graph", embedder: flatEmbedder, overlays: []string{"testdata/memory-graph-analytics.yaml"}, gds: true,
		seed: func(t *testing.T, e *engine.Engine, d neo4j.DriverWithContext) (alice, bob map[string]string) {
			alice, bob = seedTwoTenants(t, e)
			neo4jtest.Run(t, d, "CALL db.awaitIndexes(60)", nil)
			return alice, bob
		},
		calls: func(alice, _ map[string]string) []toolCall {
			return []toolCall{
				{"query_entities", map[string]any{"entity_type": "Person", "limit": 50}, ""},
				{"query_entities", map[string]any{"entity_type": "Entity", "conditions": []any{map[string]any{"field": "name", "operator": "=", "value": "Harbour"}}}, ""},
				{"query_entities", map[string]any{"entity_type": "Person", "include": []any{map[string]any{"via": "mentions", "direction": "incoming", "fields": []string{"description"}}}}, `"talk"`},
				{"get_entity_by_id", map[string]any{"entity_type": "Person", "id_value": alice["person"]}, ""},
				{"aggregate_entities", map[string]any{"entity_type": "Person", "operation": "COUNT", "group_by": "name"}, `"Ada"`},
				{"aggregate_entities", map[string]any{"entity_type": "Person", "operation": "COUNT", "over": map[string]any{"via": "thinks_about", "entity": "Concept"}, "group_by": "name"}, `{"group":"Ada","value":1,"count":1}`},
				// Totals, groups shown by their fields, and an aggregate
				// of a relationship property count alice's entities only.
				{"query_entities", map[string]any{"entity_type": "Person", "limit": 1, "total": true}, `"total"`},
				{"aggregate_entities", map[string]any{"entity_type": "Person", "operation": "COUNT", "group_by": "entity_key", "group_fields": []string{"name"}, "total": true}, `"Ada"`},
				{"aggregate_entities", map[string]any{"entity_type": "Person", "operation": "SUM", "over": map[string]any{"via": "thinks_about", "entity": "Concept", "field": "frequency"}, "group_by": "name"}, `"Ada"`},
				{"query_relationships", map[string]any{"relationship_type": "thinks_about", "total": true}, `"total"`},
				// Aggregates along a path, ranking by a related aggregate,
				// and two tests about one related entity (as).
				{"aggregate_entities", map[string]any{"entity_type": "Person", "operation": "COUNT", "over": map[string]any{"path": []any{map[string]any{"via": "thinks_about", "entity": "Concept"}, map[string]any{"via": "produced", "entity": "Artifact"}}}, "group_by": "name"}, `"Ada"`},
				{"aggregate_entities", map[string]any{"entity_type": "Person", "operation": "COUNT", "over": map[string]any{"path": []any{map[string]any{"via": "thinks_about", "entity": "Concept"}}, "each": "relationship"}, "group_by": "name"}, `"Ada"`},
				{"query_entities", map[string]any{"entity_type": "Person", "conditions": []any{map[string]any{"via": "thinks_about", "entity": "Concept", "aggregate": "COUNT", "operator": ">=", "value": 1}}}, `"Ada"`},
				{"query_entities", map[string]any{"entity_type": "Person", "conditions": []any{map[string]any{"via": "thinks_about", "entity": "Concept", "aggregate": "COUNT", "then": []any{map[string]any{"via": "produced", "entity": "Artifact"}}}}, "order_by": []any{map[string]any{"field": "count_thinks_about_produced", "direction": "DESC"}}}, ""},
				{"aggregate_entities", map[string]any{"entity_type": "Person", "operation": "COUNT", "over": map[string]any{"path": []any{map[string]any{"via": "thinks_about", "entity": "Concept"}}, "group_by_related": "name"}}, `"sailing"`},
				{"query_entities", map[string]any{"entity_type": "Person", "conditions": []any{map[string]any{"via": "thinks_about", "entity": "Concept", "as": "c"}, map[string]any{"via": "thinks_about", "entity": "Concept", "as": "c", "relationship_conditions": []any{map[string]any{"field": "created_at", "operator": "IS NOT NULL"}}}}}, `"Ada"`},
				{"query_relationships", map[string]any{"relationship_type": "thinks_about"}, ""},
				{"query_relationships", map[string]any{"relationship_type": "relates_to", "from_entity_type": "Person", "to_entity_type": "Entity", "to_conditions": []any{map[string]any{"field": "name", "operator": "=", "value": "Harbour"}}}, ""},
				{"explore_relationships", map[string]any{"start_entity_type": "Person", "relationship_type": "has_relationship_with", "direction": "both"}, ""},
				{"explore_relationships", map[string]any{"start_entity_type": "Concept", "relationship_type": "involves", "depth": 3, "limit": 50}, ""},
				{"explore_relationships", map[string]any{"start_entity_type": "Source", "relationship_type": "mentions", "depth": 2}, ""},
				// A related entity's computed field (Person.days_since_update,
				// 0 for the people just written) in explore's target
				// conditions and sort, query_relationships' end conditions,
				// include's fields and an aggregate test.
				{"explore_relationships", map[string]any{"start_entity_type": "Concept", "relationship_type": "involves", "target_entity_type": "Person", "target_conditions": []any{map[string]any{"field": "days_since_update", "operator": "<", "value": 30}}, "order_by": []any{map[string]any{"field": "days_since_update"}}}, ""},
				{"query_relationships", map[string]any{"relationship_type": "thinks_about", "from_entity_type": "Person", "from_conditions": []any{map[string]any{"field": "days_since_update", "operator": "<", "value": 30}}}, ""},
				{"query_entities", map[string]any{"entity_type": "Concept", "include": []any{map[string]any{"via": "involves", "entity": "Person", "fields": []string{"name", "days_since_update"}}}}, `"days_since_update":0`},
				{"query_entities", map[string]any{"entity_type": "Concept", "conditions": []any{map[string]any{"via": "involves", "entity": "Person", "aggregate": "MAX days_since_update", "operator": "<", "value": 30}}}, `"max_involves_days_since_update":0`},
				{"find_paths", map[string]any{"from_entity_type": "Person", "from_id": alice["person"], "to_entity_type": "Artifact", "to_id": alice["artifact"]}, ""},
				{"find_paths", map[string]any{"from_entity_type": "Source", "from_id": alice["source"], "to_entity_type": "Person", "to_id": alice["friend"], "direction": "both"}, ""},
				{"semantic_search", map[string]any{"entity_type": "Concept", "query": "boats", "min_score": 0}, ""},
				{"semantic_search", map[string]any{"entity_type": "Entity", "query": "harbour", "min_score": 0, "top_k": 20}, ""},
				{"fulltext_search", map[string]any{"entity_type": "Entity", "query": "harbour windy BOBONLY"}, ""},
				{"fulltext_search", map[string]any{"entity_type": "Entity", "query": "harbor", "fuzzy": true}, ""},
				{"text_pattern_search", map[string]any{"entity_type": "Person", "field": "name", "mode": "regex", "pattern": ".*"}, ""},
				{"text_pattern_search", map[string]any{"entity_type": "Person", "field": "notes", "mode": "contains", "pattern": "sails"}, ""},
				{"text_pattern_search", map[string]any{"entity_type": "Entity", "field": "name", "mode": "fuzzy", "pattern": "harbor"}, ""},
				{"number_range_search", map[string]any{"entity_type": "Person", "field": "confidence", "operator": "gte", "value": 0}, ""},
				{"number_range_search", map[string]any{"entity_type": "Person", "field": "confidence", "operator": "histogram"}, "count"},
				{"datetime_range_search", map[string]any{"entity_type": "Concept", "field": "updated_at", "mode": "after", "datetime": "2000-01-01"}, ""},
				{"enum_filter_search", map[string]any{"entity_type": "Entity", "field": "type", "values": []string{"place"}}, ""},
				{"enum_filter_search", map[string]any{"entity_type": "Source", "field": "content_type", "values": []string{"conversation"}}, ""},
				// A create with bob's very values finds alice's node: the
				// key is derived with the bound tenant.
				{"create_person", map[string]any{"name": "Ada", "canonical_name": "ada", "confidence": 0.9, "source": "test"}, ""},
				{"update_person", map[string]any{"entity_key": alice["person"], "notes": "sails far", "source": "test", "confidence": 1}, ""},
				{"create_concept", map[string]any{"name": "sailing", "description": "boats and wind", "source": "test", "confidence": 1}, ""},
				{"update_concept", map[string]any{"entity_key": alice["concept"], "notes": "every summer", "source": "test", "confidence": 1}, ""},
				{"create_entity", map[string]any{"name": "Harbour", "type": "place", "source": "test", "confidence": 1}, ""},
				{"update_entity", map[string]any{"entity_key": alice["entity"], "description": "the old harbour", "source": "test", "confidence": 1}, ""},
				{"create_source", map[string]any{"content_type": "conversation", "content": "we talked", "source": "test", "confidence": 1}, ""},
				{"update_source", map[string]any{"entity_key": alice["source"], "description": "a long talk", "source": "test", "confidence": 1}, ""},
				{"create_artifact", map[string]any{"content_type": "md_file", "description": "plan", "source": "test", "confidence": 1}, ""},
				{"update_artifact", map[string]any{"entity_key": alice["artifact"], "output": "# plan v2", "source": "test", "confidence": 1}, ""},
				{"create_relationship", map[string]any{"from_entity_key": alice["person"], "to_entity_key": alice["concept"], "relationship_type": "thinks_about", "source": "test", "confidence": 1}, `"created":false`},
				{"update_relationship", map[string]any{"from_entity_key": alice["person"], "to_entity_key": alice["concept"], "relationship_type": "thinks_about", "confidence": 0.7, "source": "test"}, `"created":false`},
				{"traverse", map[string]any{"cypher": "MATCH (p:Person) WHERE p.user_id = $tenant RETURN p.entity_key AS key"}, ""},
				{"explore", map[string]any{"queries": []any{map[string]any{"query": "boats", "threshold": 0}}, "text_matches": []string{"Ada", "Harbour"}}, ""},
				{"whoami", map[string]any{}, `"tenant":"alice"`},
				// The overlay's similarity and Graph Data Science tools:
				// alice's Ada shares her concept and entity only with
				// alice's own people, and the projections keep to her.
				{"find_similar_person", map[string]any{"id": alice["person"]}, ""},
				{"find_important_person", map[string]any{}, ""},
				{"find_person_clusters", map[string]any{}, ""},
				// The history tools read the Changes the writes above
				// and the seed recorded (change_tracking).
				{historytools.EntityHistory, map[string]any{"entity_type": "Person", "key": alice["person"]}, ""},
				{historytools.RecentlyModified, map[string]any{}, ""},
				{historytools.MostModified, map[string]any{}, ""},
				{historytools.Statistics, map[string]any{}, `"changes"`},
				{historytools.CompareVersions, map[string]any{"entity_type": "Person", "key": alice["person"]}, ""},
			}
		},
		foreign: func(alice, bob map[string]string) []toolCall {
			return []toolCall{
				{"update_person", map[string]any{"entity_key": bob["person"], "notes": "alice was here", "source": "test", "confidence": 1}, ""},
				{"update_artifact", map[string]any{"entity_key": bob["artifact"], "output": "alice was here", "source": "test", "confidence": 1}, ""},
				{"create_relationship", map[string]any{"from_entity_key": alice["person"], "to_entity_key": bob["concept"], "relationship_type": "thinks_about", "source": "test", "confidence": 1}, ""},
				{"update_relationship", map[string]any{"from_entity_key": bob["person"], "to_entity_key": bob["concept"], "relationship_type": "thinks_about", "confidence": 0.1, "source": "test"}, ""},
			}
		},
	},
	{
		config: "team-drive",
		seed: func(t *testing.T, e *engine.Engine, d neo4j.DriverWithContext) (alice, bob map[string]string) {
			fixturetest.LoadTwoDrives(t, d)
			alice, bob = map[string]string{}, map[string]string{}
			for tn, keys := range map[string]map[string]string{"alice": alice, "bob": bob} {
				keys["root"], keys["httptest"] = tn+":net/http", tn+":net/http/httptest/server.go"
				res, err := e.Execute(tenant.With(context.Background(), tn), engine.Call{Name: tree.CreateDiagram, Arguments: json.RawMessage(`{"name":"net/http"}`)})
				if err != nil {
					t.Fatalf("create_diagram as %s: %v", tn, err)
				}
				keys["diagram"] = res.Custom.(tree.DiagramResult).ID
			}
			return alice, bob
		},
		calls: func(alice, _ map[string]string) []toolCall {
			return []toolCall{
				{"query_entities", map[string]any{"entity_type": "Document", "limit": 50}, ""},
				{"query_entities", map[string]any{"entity_type": "Folder", "conditions": []any{map[string]any{"field": "path", "operator": "STARTS WITH", "value": "net/http/"}}}, ""},
				{"get_entity_by_id", map[string]any{"entity_type": "Document", "id_value": "alice:net/http/" + fixturetest.AliceOnly + ".md"}, fixturetest.AliceOnly},
				{"aggregate_entities", map[string]any{"entity_type": "Document", "operation": "SUM", "field": "size", "group_by": "language"}, `"markdown"`},
				{"explore_relationships", map[string]any{"start_entity_type": "Folder", "relationship_type": "CONTAINS", "direction": "outgoing", "depth": 2, "limit": 50}, ""},
				{"find_paths", map[string]any{"from_entity_type": "Folder", "from_id": alice["root"], "to_entity_type": "Document", "to_id": alice["httptest"]}, ""},
				{"fulltext_search", map[string]any{"entity_type": "Document", "query": "http BOBONLY"}, ""},
				{"text_pattern_search", map[string]any{"entity_type": "Document", "field": "path", "mode": "regex", "pattern": ".*"}, ""},
				{"number_range_search", map[string]any{"entity_type": "Document", "field": "size", "operator": "gte", "value": 0}, ""},
				{"datetime_range_search", map[string]any{"entity_type": "Document", "field": "modified", "mode": "after", "datetime": "2000-01-01"}, ""},
				{"enum_filter_search", map[string]any{"entity_type": "Document", "field": "language", "values": []string{"markdown", "go"}}, ""},
				{tree.QueryFileTree, map[string]any{"limit": tree.MaxQueryLimit}, fixturetest.AliceOnly},
				{tree.QueryFileTree, map[string]any{"filters": map[string]any{"path_patterns": []string{"**/*.md"}}}, fixturetest.AliceOnly},
				{tree.CreateDiagram, map[string]any{"name": "net/http", "filters": map[string]any{"exclude_paths": []string{"**/*_test.go"}}}, fixturetest.AliceOnly},
				{tree.UpdateDiagramFilters, map[string]any{"diagram_id": alice["diagram"], "filters": map[string]any{"languages": []string{"go"}}, "additive": true}, alice["diagram"]},
				{"traverse", map[string]any{"cypher": "MATCH (d:Document) WHERE d.workspace_id = $tenant RETURN d.node_id AS id"}, ""},
				{"whoami", map[string]any{}, `"tenant":"alice"`},
			}
		},
		foreign: func(_, bob map[string]string) []toolCall {
			return []toolCall{
				{tree.UpdateDiagramFilters, map[string]any{"diagram_id": bob["diagram"], "filters": map[string]any{"languages": []string{"go"}}}, ""},
			}
		},
	},
}

// TestEveryToolSeesOnlyTheBoundTenant runs, for each tenant-scoped example
// config, every tool its catalog offers — generated (aggregations on),
// write, traverse, explore, tree, history, similarity, Graph Data Science
// and an application's own — as alice on an engine whose
// default tenant is bob: each result holds alice's data and none of bob's,
// nor the tenant field; every generated statement's plan is proven scoped;
// alice's calls naming bob's keys fail and change nothing of bob's; and
// no node is left without a tenant. It fails naming any offered tool it
// does not exercise.
func TestEveryToolSeesOnlyTheBoundTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	for _, tc := range tenancyCases {
		t.Run(tc.config, func(t *testing.T) {
			ctx := context.Background()
			neo4jtest.Run(t, d, "MATCH (n) WHERE NOT n:"+neo4jtest.MarkerLabel+" DETACH DELETE n", nil)
			if tc.gds {
				neo4jtest.RequireGDS(t, d)
			}
			m := tc.model(t)
			if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
				t.Fatal(err)
			}
			var whoamiCalls atomic.Int32
			e, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database(), Embedder: tc.embedder, Tenant: "bob",
				Tools: tc.toolOptions(appTool(&whoamiCalls))})
			if err != nil {
				t.Fatal(err)
			}
			field := m.Tenant.Field
			alice, bob := tc.seed(t, e, d)
			bobBefore := tenantGraph(t, d, field, "bob")
			asAlice := tenant.With(ctx, "alice")

			covered := map[string]bool{}
			for _, c := range tc.calls(alice, bob) {
				covered[c.tool] = true
				raw, _ := json.Marshal(c.args)
				res, err := e.Execute(asAlice, engine.Call{Name: c.tool, Arguments: raw})
				if err != nil {
					t.Errorf("%s %s: %v", c.tool, raw, err)
					continue
				}
				out, _ := json.Marshal(res)
				if strings.Contains(string(out), "BOBONLY") || containsAny(string(out), bob) {
					t.Errorf("%s %s returned bob's data: %s", c.tool, raw, out)
				}
				if strings.Contains(string(out), `"`+field+`"`) {
					t.Errorf("%s %s shows the tenant field: %s", c.tool, raw, out)
				}
				if mine := c.want == "" && containsAny(string(out), alice) || c.want != "" && strings.Contains(string(out), c.want); !mine {
					t.Errorf("%s %s found none of alice's own data (want %q): %s", c.tool, raw, c.want, out)
				}
				if tl := e.Tools().Tool(c.tool); tl != nil && !tl.Custom() {
					checkScopedPlan(t, e, d, asAlice, field, c.tool, raw)
				}
			}
			for _, tl := range e.Tools().Tools {
				if !covered[tl.Name] {
					t.Errorf("tool %s is offered but not exercised by this test: add a call of it to the %s case", tl.Name, tc.config)
				}
			}
			for _, c := range tc.foreign(alice, bob) {
				raw, _ := json.Marshal(c.args)
				var ce *tools.CallError
				if res, err := e.Execute(asAlice, engine.Call{Name: c.tool, Arguments: raw}); !errors.As(err, &ce) {
					out, _ := json.Marshal(res)
					t.Errorf("alice's %s %s naming bob's key: got %s, %v; want a CallError (not found)", c.tool, raw, out, err)
				}
			}
			if after := tenantGraph(t, d, field, "bob"); !reflect.DeepEqual(bobBefore, after) {
				t.Errorf("alice's calls changed bob's graph:\nbefore %v\nafter  %v", bobBefore, after)
			}
			for q, what := range map[string]string{
				"MATCH (n) WHERE n[$f] IS NULL AND NOT n:" + neo4jtest.MarkerLabel + " RETURN count(n) AS c": "nodes without a tenant",
				"MATCH (a)-[r]->(b) WHERE a[$f] <> b[$f] RETURN count(r) AS c":                               "relationships between two tenants",
			} {
				res, err := neo4j.ExecuteQuery(ctx, d, q, map[string]any{"f": field}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
				if err != nil {
					t.Fatal(err)
				}
				if c := res.Records[0].Values[0].(int64); c != 0 {
					t.Errorf("%d %s", c, what)
				}
			}
			// The engine's default tenant reaches handlers on the context
			// like a request's binding.
			res, err := e.Execute(ctx, engine.Call{Name: "whoami"})
			if out, _ := json.Marshal(res); err != nil || !strings.Contains(string(out), `"tenant":"bob"`) {
				t.Errorf("whoami under the engine's default tenant: %s, %v; want bob", out, err)
			}
		})
	}
	// Bob's id is not found by alice, and the tenant field cannot be named.
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}})
	if err != nil {
		t.Fatal(err)
	}
	neo4jtest.Run(t, d, "MATCH (n) WHERE NOT n:"+neo4jtest.MarkerLabel+" DETACH DELETE n", nil)
	_, bob := seedTwoTenants(t, e)
	ctx := tenant.With(context.Background(), "alice")
	raw, _ := json.Marshal(map[string]any{"entity_type": "Person", "id_value": bob["person"]})
	res, err := e.Execute(ctx, engine.Call{Name: "get_entity_by_id", Arguments: raw})
	if out, _ := json.Marshal(res); err == nil && (res.Count > 0 || !strings.Contains(string(out), `no Person has entity_key \"`+bob["person"])) {
		t.Errorf("alice read bob's person by id, or was not told it is not hers: %s", out)
	}
	raw, _ = json.Marshal(map[string]any{"entity_type": "Person", "conditions": []any{map[string]any{"field": "user_id", "operator": "=", "value": "bob"}}})
	var ce *tools.CallError
	if _, err := e.Execute(ctx, engine.Call{Name: "query_entities", Arguments: raw}); !errors.As(err, &ce) {
		t.Errorf("a condition on the tenant field was accepted: %v", err)
	}
}

// checkScopedPlan proves on Neo4j's plan that a generated tool's
// statement (and a scan's next chunks and fetch step) keeps every node to
// the tenant: the proof traverse demands of an agent's Cypher. The same
// EXPLAIN shows that Neo4j deprecates nothing in them (Cypher 25 removes
// what 5.x deprecates); the statements of the other tools are checked as
// they run, by the driver neo4jtest.Open returns.
func checkScopedPlan(t *testing.T, e *engine.Engine, d neo4j.DriverWithContext, ctx context.Context, field, tool string, raw json.RawMessage) {
	t.Helper()
	st, err := e.Plan(ctx, engine.Call{Name: tool, Arguments: raw})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*planner.Statement{st, st.Next, st.Fetch} {
		if s == nil {
			continue
		}
		res, err := neo4j.ExecuteQuery(ctx, d, "EXPLAIN "+s.Cypher, s.Params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
		if err != nil {
			t.Fatalf("EXPLAIN %s: %v", tool, err)
		}
		if err := scope.Check(readonly.PlanOf(res.Summary.Plan()), field, tenant.Param); err != nil {
			t.Errorf("%s %s: the plan of its statement is not proven scoped: %v\n%s", tool, raw, err, s.Cypher)
		}
		for _, dep := range neo4jtest.Deprecations(res.Summary) {
			t.Errorf("%s %s: Neo4j deprecates a construct of its statement (Cypher 25 removes it): %s\n%s", tool, raw, dep, s.Cypher)
		}
	}
}

// tenantGraph is everything of one tenant: its nodes' labels and
// properties and their relationships' types, properties and ends, in a
// stable order, to compare before and after another tenant's calls.
func tenantGraph(t *testing.T, d neo4j.DriverWithContext, field, tn string) []any {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, `MATCH (n) WHERE n[$f] = $tn
		OPTIONAL MATCH (n)-[r]-(m)
		WITH n, r, m ORDER BY elementId(n), elementId(r)
		RETURN collect([elementId(n), labels(n), properties(n), type(r), properties(r), elementId(m)]) AS g`,
		map[string]any{"f": field, "tn": tn}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := res.Records[0].Values[0].([]any)
	if len(g) == 0 {
		t.Fatalf("tenant %s has no nodes", tn)
	}
	return g
}

// TestAnUnboundCallIsRefusedBeforeAnyHandlerRuns: on an engine of a
// tenant-scoped config with no default tenant, every offered tool — an
// application's own included — called with no tenant bound is refused
// with tenant.ErrUnbound before its arguments are read (they are empty
// here, which each would otherwise refuse differently) and before its
// handler runs: the application's handler is never called and nothing is
// written. Plan (explain) still shows the statement, its tenant null.
func TestAnUnboundCallIsRefusedBeforeAnyHandlerRuns(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	for _, tc := range tenancyCases {
		var calls atomic.Int32
		m := tc.model(t)
		e, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database(), Embedder: tc.embedder, Tools: tc.toolOptions(appTool(&calls))})
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Tools().Tools) < 10 || e.Tools().Tool("whoami") == nil {
			t.Fatalf("%s: catalog of %d tools, without the application's", tc.config, len(e.Tools().Tools))
		}
		for _, tl := range e.Tools().Tools {
			for _, args := range []string{"", "{}"} {
				if _, err := e.Execute(ctx, engine.Call{Name: tl.Name, Arguments: json.RawMessage(args)}); !errors.Is(err, tenant.ErrUnbound) {
					t.Errorf("%s: unbound %s(%s) returned %v; want tenant.ErrUnbound", tc.config, tl.Name, args, err)
				}
			}
		}
		if n := calls.Load(); n != 0 {
			t.Errorf("%s: the application's handler ran %d times for unbound calls", tc.config, n)
		}
		// An empty tenant is no binding.
		if _, err := e.Execute(tenant.With(ctx, ""), engine.Call{Name: "whoami"}); !errors.Is(err, tenant.ErrUnbound) || calls.Load() != 0 {
			t.Errorf("%s: a call bound to the empty tenant ran: %v", tc.config, err)
		}
		st, err := e.Plan(ctx, engine.Call{Name: "query_entities", Arguments: json.RawMessage(`{"entity_type":"` + m.Entities[0].Name + `"}`)})
		if err != nil || st.Params[tenant.Param] != nil {
			t.Errorf("%s: explain of an unbound call: %v, tenant %v; want the statement with a null tenant", tc.config, err, st.Params[tenant.Param])
		}
	}
	res, err := neo4j.ExecuteQuery(ctx, d, "MATCH (n) WHERE NOT n:"+neo4jtest.MarkerLabel+" RETURN count(n) AS c", nil,
		neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Records[0].Values[0].(int64); c != 0 {
		t.Errorf("unbound calls wrote %d nodes", c)
	}
}

func containsAny(s string, keys map[string]string) bool {
	for _, k := range keys {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

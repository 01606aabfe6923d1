package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/cypher/scope"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/memory/write"
	"github.com/ragforge/ragforge/internal/neo4jtest"
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
		keys["friend"] = w("create_person", map[string]any{"name": "Bo" + mark, "canonical_name": "bo", "confidence": 0.5})
		keys["concept"] = w("create_concept", map[string]any{"name": "sailing", "description": "boats and wind" + mark, "confidence": 0.9})
		keys["entity"] = w("create_entity", map[string]any{"name": "Harbour", "type": "place", "description": "a harbour" + mark, "notes": "windy" + mark})
		keys["source"] = w("create_source", map[string]any{"content_type": "conversation", "content": "we talked" + mark, "description": "talk" + mark})
		keys["artifact"] = w("create_artifact", map[string]any{"content_type": "md_file", "description": "plan" + mark, "output": "# plan" + mark})
		for _, r := range []struct{ from, to, typ string }{
			{"person", "concept", "thinks_about"}, {"person", "friend", "has_relationship_with"}, {"person", "entity", "relates_to"},
			{"concept", "person", "involves"}, {"source", "person", "mentions"}, {"concept", "artifact", "produced"}, {"artifact", "source", "sourced_from"},
		} {
			w("create_relationship", map[string]any{"from_entity_key": keys[r.from], "to_entity_key": keys[r.to], "relationship_type": r.typ})
		}
	}
	return aliceKeys, bobKeys
}

func TestEveryReadToolSeesOnlyTheBoundTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(m, engine.Options{Driver: d, Database: neo4jtest.Database(), Embedder: flatEmbedder,
		Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}})
	if err != nil {
		t.Fatal(err)
	}
	alice, bob := seedTwoTenants(t, e)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(60)", nil)

	calls := []struct {
		tool string
		args map[string]any
	}{
		{"query_entities", map[string]any{"entity_type": "Person", "limit": 50}},
		{"query_entities", map[string]any{"entity_type": "Entity", "conditions": []any{map[string]any{"field": "name", "operator": "=", "value": "Harbour"}}}},
		{"get_entity_by_id", map[string]any{"entity_type": "Person", "id_value": alice["person"]}},
		{"explore_relationships", map[string]any{"start_entity_type": "Person", "relationship_type": "has_relationship_with", "direction": "both"}},
		{"explore_relationships", map[string]any{"start_entity_type": "Concept", "relationship_type": "involves", "depth": 3, "limit": 50}},
		{"explore_relationships", map[string]any{"start_entity_type": "Source", "relationship_type": "mentions", "depth": 2}},
		{"find_paths", map[string]any{"from_entity_type": "Person", "from_id": alice["person"], "to_entity_type": "Artifact", "to_id": alice["artifact"]}},
		{"find_paths", map[string]any{"from_entity_type": "Source", "from_id": alice["source"], "to_entity_type": "Person", "to_id": alice["friend"], "direction": "both"}},
		{"semantic_search", map[string]any{"entity_type": "Concept", "query": "boats", "min_score": 0}},
		{"semantic_search", map[string]any{"entity_type": "Entity", "query": "harbour", "min_score": 0, "top_k": 20}},
		{"fulltext_search", map[string]any{"entity_type": "Entity", "query": "harbour windy BOBONLY"}},
		{"fulltext_search", map[string]any{"entity_type": "Entity", "query": "harbor", "fuzzy": true}},
		{"text_pattern_search", map[string]any{"entity_type": "Person", "field": "name", "mode": "regex", "pattern": ".*"}},
		{"text_pattern_search", map[string]any{"entity_type": "Person", "field": "notes", "mode": "contains", "pattern": "sails"}},
		{"text_pattern_search", map[string]any{"entity_type": "Entity", "field": "name", "mode": "fuzzy", "pattern": "harbor"}},
		{"number_range_search", map[string]any{"entity_type": "Person", "field": "confidence", "operator": "gte", "value": 0}},
		{"number_range_search", map[string]any{"entity_type": "Person", "field": "confidence", "operator": "histogram"}},
		{"datetime_range_search", map[string]any{"entity_type": "Concept", "field": "updated_at", "mode": "after", "datetime": "2000-01-01"}},
		{"enum_filter_search", map[string]any{"entity_type": "Entity", "field": "type", "values": []string{"place"}}},
		{"enum_filter_search", map[string]any{"entity_type": "Source", "field": "content_type", "values": []string{"conversation"}}},
	}
	covered := map[string]bool{}
	for _, c := range calls {
		raw, _ := json.Marshal(c.args)
		res, err := e.Execute(tenant.With(ctx, "alice"), engine.Call{Name: c.tool, Arguments: raw})
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, raw, err)
			continue
		}
		out, _ := json.Marshal(res)
		if strings.Contains(string(out), "BOBONLY") || containsAny(string(out), bob) {
			t.Errorf("%s %s returned bob's data: %s", c.tool, raw, out)
		}
		if strings.Contains(string(out), `"user_id"`) {
			t.Errorf("%s %s shows the tenant field: %s", c.tool, raw, out)
		}
		if !containsAny(string(out), alice) && !strings.Contains(string(out), "count") {
			t.Errorf("%s %s found none of alice's own data: %s", c.tool, raw, out)
		}
		covered[c.tool] = true
		// The same proof traverse demands of an agent's Cypher holds for
		// the generated statement, on Neo4j's plan.
		st, err := e.Plan(tenant.With(ctx, "alice"), engine.Call{Name: c.tool, Arguments: raw})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []*planner.Statement{st, st.Fetch} {
			if s == nil {
				continue
			}
			res, err := neo4j.ExecuteQuery(ctx, d, "EXPLAIN "+s.Cypher, s.Params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
			if err != nil {
				t.Fatalf("EXPLAIN %s: %v", c.tool, err)
			}
			if err := scope.Check(readonly.PlanOf(res.Summary.Plan()), "user_id", tenant.Param); err != nil {
				t.Errorf("%s %s: the plan of its statement is not proven scoped: %v\n%s", c.tool, raw, err, s.Cypher)
			}
		}
	}
	for _, tl := range e.Tools().Tools {
		if !tl.Custom() && !covered[tl.Name] {
			t.Errorf("generated tool %s is not exercised by this test", tl.Name)
		}
	}
	// Bob's id is not found by alice, and the tenant field cannot be named.
	raw, _ := json.Marshal(map[string]any{"entity_type": "Person", "id_value": bob["person"]})
	res, err := e.Execute(tenant.With(ctx, "alice"), engine.Call{Name: "get_entity_by_id", Arguments: raw})
	if out, _ := json.Marshal(res); err == nil && strings.Contains(string(out), bob["person"]) {
		t.Errorf("alice read bob's person by id: %s", out)
	}
	raw, _ = json.Marshal(map[string]any{"entity_type": "Person", "conditions": []any{map[string]any{"field": "user_id", "operator": "=", "value": "bob"}}})
	var ce *tools.CallError
	if _, err := e.Execute(tenant.With(ctx, "alice"), engine.Call{Name: "query_entities", Arguments: raw}); !errors.As(err, &ce) {
		t.Errorf("a condition on the tenant field was accepted: %v", err)
	}
	// No binding, no reads.
	raw, _ = json.Marshal(map[string]any{"entity_type": "Person"})
	if _, err := e.Execute(ctx, engine.Call{Name: "query_entities", Arguments: raw}); !errors.Is(err, tenant.ErrUnbound) {
		t.Errorf("an unbound read ran: %v", err)
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

package explore_test

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
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/memory/explore"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

var clock = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

func daysAgo(n int) time.Time { return clock.Add(-time.Duration(n) * 24 * time.Hour) }

func memoryModel(t testing.TB) *model.Model {
	t.Helper()
	m, err := config.Load("../../../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// mem is one node of a test memory graph.
type mem struct {
	label, tenant, key string
	props              map[string]any
}

// rel is one relationship of a test memory graph, between keys.
type rel struct {
	from, typ, to string
	props         map[string]any
}

// seed creates the declared indexes, then the nodes (their descriptions
// embedded with embedder.Offline where a vector index covers them) and
// the relationships.
func seed(t testing.TB, d neo4j.DriverWithContext, m *model.Model, nodes []mem, rels []rel) {
	t.Helper()
	ctx := context.Background()
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	rows := map[string][]map[string]any{}
	for _, n := range nodes {
		p := map[string]any{"user_id": n.tenant, "entity_key": n.key}
		for k, v := range n.props {
			p[k] = v
		}
		for _, vi := range m.Entity(n.label).VectorIndexes {
			if text, ok := p[vi.Field].(string); ok {
				vec, err := embedder.Offline{}.Embed(ctx, text, vi)
				if err != nil {
					t.Fatal(err)
				}
				p[vi.Property] = vec
			}
		}
		rows[n.label] = append(rows[n.label], p)
	}
	for label, rs := range rows {
		for i := 0; i < len(rs); i += 500 {
			neo4jtest.Run(t, d, "UNWIND $rows AS r CREATE (n:`"+label+"`) SET n = r", map[string]any{"rows": rs[i:min(i+500, len(rs))]})
		}
	}
	byType := map[string][]map[string]any{}
	for _, r := range rels {
		props := r.props
		if props == nil {
			props = map[string]any{}
		}
		byType[r.typ] = append(byType[r.typ], map[string]any{"from": r.from, "to": r.to, "props": props})
	}
	for typ, rs := range byType {
		for i := 0; i < len(rs); i += 500 {
			neo4jtest.Run(t, d, "UNWIND $rows AS r MATCH (a {entity_key: r.from}) MATCH (b {entity_key: r.to}) CREATE (a)-[x:`"+typ+"`]->(b) SET x = r.props",
				map[string]any{"rows": rs[i:min(i+500, len(rs))]})
		}
	}
}

const (
	sailing = "sailing trip around the greek islands next summer"
	kitchen = "renovating the kitchen with new oak cabinets"
	notes   = "call notes about the sailing trip and the greek islands"
	packing = "packing list for the sailing trip"
)

// twoTenants is alice's memory and bob's: bob's nodes have the same
// names and texts (so they score as well as alice's) and a few edges
// cross into alice's graph, as a bad write could leave them.
func twoTenants() ([]mem, []rel) {
	nodes := []mem{
		{"Person", "alice", "a_owner", map[string]any{"name": "Alice Martin", "canonical_name": "alice martin", "is_owner": true, "updated_at": daysAgo(1)}},
		{"Person", "alice", "a_marie", map[string]any{"name": "Marie Curie", "canonical_name": "marie curie", "is_owner": false, "updated_at": daysAgo(2)}},
		{"Person", "alice", "a_jean", map[string]any{"name": "Jean Dupont", "canonical_name": "jean dupont", "updated_at": daysAgo(40)}},
		{"Concept", "alice", "a_sailing", map[string]any{"name": "Sailing trip", "description": sailing, "updated_at": daysAgo(1)}},
		{"Concept", "alice", "a_sailing_old", map[string]any{"name": "Old sailing trip", "description": sailing, "updated_at": daysAgo(200)}},
		{"Concept", "alice", "a_kitchen", map[string]any{"name": "Kitchen renovation", "description": kitchen, "updated_at": daysAgo(3)}},
		{"Concept", "alice", "a_kitchen_hub", map[string]any{"name": "Kitchen plans", "description": kitchen, "updated_at": daysAgo(3)}},
		{"Concept", "alice", "a_rust", map[string]any{"name": "Learning Rust", "description": "learning the rust programming language", "updated_at": daysAgo(5)}},
		{"Entity", "alice", "a_acme", map[string]any{"name": "Acme Corporation", "type": "company", "description": "software company where alice works", "updated_at": daysAgo(10)}},
		{"Entity", "alice", "a_lisbon", map[string]any{"name": "Lisbon", "type": "place", "description": "capital city of portugal"}},
		// Source stores updated_at as an ISO string, Artifact as epoch
		// milliseconds.
		{"Source", "alice", "a_call", map[string]any{"content_type": "note", "content": "c1", "description": notes, "updated_at": daysAgo(2).Format(time.RFC3339)}},
		{"Source", "alice", "a_call_old", map[string]any{"content_type": "note", "content": "c2", "description": notes, "updated_at": daysAgo(100).Format(time.RFC3339)}},
		{"Artifact", "alice", "a_packing", map[string]any{"content_type": "md_file", "description": packing, "updated_at": daysAgo(1).UnixMilli()}},
		{"Artifact", "alice", "a_packing_old", map[string]any{"content_type": "md_file", "description": packing, "updated_at": daysAgo(300).UnixMilli()}},

		{"Person", "bob", "b_owner", map[string]any{"name": "Alice Martin", "canonical_name": "alice martin", "is_owner": true, "updated_at": clock}},
		{"Person", "bob", "b_marie", map[string]any{"name": "Marie Curie", "canonical_name": "marie curie", "updated_at": clock}},
		{"Concept", "bob", "b_sailing", map[string]any{"name": "Sailing trip", "description": sailing, "updated_at": clock}},
		{"Entity", "bob", "b_acme", map[string]any{"name": "Acme Corporation", "type": "company", "description": "software company where alice works", "updated_at": clock}},
		{"Source", "bob", "b_call", map[string]any{"content_type": "note", "content": "c1", "description": notes, "updated_at": clock.Format(time.RFC3339)}},
		{"Artifact", "bob", "b_packing", map[string]any{"content_type": "md_file", "description": packing, "updated_at": clock.UnixMilli()}},
	}
	rels := []rel{
		{"a_owner", "thinks_about", "a_sailing", map[string]any{"mood": "excited_by", "updated_at": daysAgo(1)}},
		{"a_owner", "relates_to", "a_acme", map[string]any{"relevance": int64(8)}},
		{"a_owner", "has_relationship_with", "a_marie", map[string]any{"closeness": int64(5), "updated_at": daysAgo(2)}},
		{"a_owner", "thinks_about", "a_kitchen_hub", nil},
		{"a_sailing", "involves", "a_marie", map[string]any{"relevance": int64(9)}},
		{"a_sailing", "involves", "a_jean", map[string]any{"relevance": int64(2)}},
		{"a_sailing", "produced", "a_packing", map[string]any{"relevance": int64(7)}},
		{"a_sailing", "relates_to", "a_rust", map[string]any{"relevance": int64(4)}},
		{"a_sailing", "involves", "a_lisbon", map[string]any{"relevance": int64(1)}},
		{"a_call", "mentions", "a_sailing", nil},
		{"a_kitchen_hub", "involves", "a_lisbon", nil},
		{"b_owner", "thinks_about", "b_sailing", nil},
		{"b_sailing", "involves", "b_marie", map[string]any{"relevance": int64(9)}},
		// Edges across tenants, which no explore of alice's may follow.
		{"a_sailing", "involves", "b_marie", map[string]any{"relevance": int64(10)}},
		{"b_owner", "thinks_about", "a_sailing", nil},
		{"b_acme", "relates_to", "a_acme", map[string]any{"relevance": int64(10)}},
	}
	return nodes, rels
}

func newEngine(t testing.TB, d neo4j.DriverWithContext, m *model.Model, tn string) *engine.Engine {
	t.Helper()
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tenant: tn, Embedder: embedder.Offline{},
		Now: func() time.Time { return clock }, Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// run calls explore as tenant tn ("" binds none on the context).
func run(t testing.TB, e *engine.Engine, tn string, args map[string]any) (*explore.Result, error) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if tn != "" {
		ctx = tenant.With(ctx, tn)
	}
	res, err := e.Execute(ctx, engine.Call{Name: explore.ToolName, Arguments: raw})
	if err != nil {
		return nil, err
	}
	r, ok := res.Custom.(*explore.Result)
	if !ok {
		t.Fatalf("explore returned %T", res.Custom)
	}
	return r, nil
}

func mustRun(t testing.TB, e *engine.Engine, tn string, args map[string]any) *explore.Result {
	t.Helper()
	r, err := run(t, e, tn, args)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// setUp seeds the two tenants and returns an engine bound to no tenant.
func setUp(t *testing.T) *engine.Engine {
	t.Helper()
	d := neo4jtest.Open(t)
	m := memoryModel(t)
	nodes, rels := twoTenants()
	seed(t, d, m, nodes, rels)
	return newEngine(t, d, m, "")
}

func hitKeys(r *explore.Result, entity string) []string {
	var out []string
	for _, h := range r.Hits {
		if entity == "" || h.Entity == entity {
			out = append(out, h.Key.(string))
		}
	}
	return out
}

func edgeKeys(es []explore.Edge) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.From.Key.(string)+" "+e.Type+" "+e.To.Key.(string))
	}
	return out
}

var both = map[string]any{
	"queries":      []any{map[string]any{"query": "sailing trip greek islands"}},
	"text_matches": []any{"Mari Curie", "Acmee"},
}

func TestExploreFindsHitsByMeaningAndByFuzzyName(t *testing.T) {
	e := setUp(t)
	r := mustRun(t, e, "alice", both)
	got := hitKeys(r, "")
	for _, want := range []string{
		"a_sailing", "a_call", // vector: the query's words are in their descriptions
		"a_marie", // name match: "mari" and "curie" in "Marie Curie"
		"a_acme",  // full-text: "acmee"~1 matches "Acme"
	} {
		if !slices.Contains(got, want) {
			t.Errorf("hits %v lack %s", got, want)
		}
	}
	if slices.Contains(got, "a_kitchen") || slices.Contains(got, "a_rust") {
		t.Errorf("hits %v hold a concept the query does not match", got)
	}
	for _, h := range r.Hits {
		if h.Score <= 0 || h.Score > 1 || h.Salience <= 0 || h.Salience > h.Score {
			t.Errorf("hit %s: score %v, salience %v; want 0 < salience ≤ score ≤ 1", h.Key, h.Score, h.Salience)
		}
		if h.Entity == "Concept" && (h.Fields["name"] == nil || h.Fields["description"] == nil) {
			t.Errorf("concept hit %s shows fields %v; want its name and description", h.Key, h.Fields)
		}
	}
	// By name alone.
	r = mustRun(t, e, "alice", map[string]any{"text_matches": []any{"lisbonn"}})
	if got := hitKeys(r, ""); !slices.Equal(got, []string{"a_lisbon"}) {
		t.Errorf("text match lisbonn: hits %v; want [a_lisbon]", got)
	}
}

// TestExploreToleratesTyposWithoutAFullTextIndex: Person and Concept have
// no full-text index, so their names are matched in Go over the bounded
// candidates Neo4j keeps: a swapped pair of letters or a missing letter
// still finds the entity, an exact name scores above a name it is the
// start of, and a name that is neither close nor contained is not a hit.
func TestExploreToleratesTyposWithoutAFullTextIndex(t *testing.T) {
	e := setUp(t)
	for text, want := range map[string]struct {
		entity string
		keys   []string
	}{
		"Mraie Cuire": {"Person", []string{"a_marie"}},                     // two swaps
		"Jen Dupnt":   {"Person", []string{"a_jean"}},                      // two missing letters
		"Kithcen":     {"Concept", []string{"a_kitchen", "a_kitchen_hub"}}, // a swap, in a word of longer names
		"Leraning":    {"Concept", []string{"a_rust"}},
	} {
		r := mustRun(t, e, "alice", map[string]any{"text_matches": []any{text}})
		// Only the misspelt entity is close to the text among its kind.
		if got := slices.Sorted(slices.Values(hitKeys(r, want.entity))); !slices.Equal(got, want.keys) {
			t.Errorf("%q: %s hits %v; want %v", text, want.entity, got, want.keys)
		}
	}
	r := mustRun(t, e, "alice", map[string]any{"text_matches": []any{"Sailing trip"}})
	score := map[string]float64{}
	for _, h := range r.Hits {
		score[h.Key.(string)] = h.Score
	}
	if score["a_sailing"] != 1 || !(score["a_sailing_old"] > 0 && score["a_sailing_old"] < score["a_sailing"]) {
		t.Errorf("scores %v; want the exact name 1 and the name containing it lower", score)
	}
	r = mustRun(t, e, "alice", map[string]any{"text_matches": []any{"Zorglub"}})
	if got := hitKeys(r, "Person"); len(got) != 0 {
		t.Errorf("Zorglub: person hits %v", got)
	}
}

func TestExploreReturnsEdgesBetweenHitsTheOwnersEdgesAndBoundedNeighbours(t *testing.T) {
	e := setUp(t)
	r := mustRun(t, e, "alice", both)
	edges := edgeKeys(r.Edges)
	for _, want := range []string{"a_sailing involves a_marie", "a_call mentions a_sailing"} {
		if !slices.Contains(edges, want) {
			t.Errorf("edges between hits %v lack %s", edges, want)
		}
	}
	if r.Owner == nil || r.Owner.Key != "a_owner" || r.Owner.Fields["name"] != "Alice Martin" {
		t.Fatalf("owner = %+v; want a_owner", r.Owner)
	}
	owner := edgeKeys(r.OwnerEdges)
	for _, want := range []string{"a_owner thinks_about a_sailing", "a_owner relates_to a_acme", "a_owner has_relationship_with a_marie"} {
		if !slices.Contains(owner, want) {
			t.Errorf("owner edges %v lack %s", owner, want)
		}
	}
	for _, e := range r.OwnerEdges {
		if e.Type == "thinks_about" && e.Properties["mood"] != "excited_by" {
			t.Errorf("owner edge %+v lacks its mood", e)
		}
	}
	// a_sailing's neighbours outside the hits, best first: packing (7),
	// rust (4), jean (2); lisbon (1) is past NeighboursPerHit.
	var fromSailing []string
	for _, ne := range r.NeighbourEdges {
		if ne.From.Key == "a_sailing" {
			fromSailing = append(fromSailing, ne.To.Key.(string))
		}
	}
	if want := []string{"a_packing", "a_rust", "a_jean"}; !slices.Equal(fromSailing, want) {
		t.Errorf("a_sailing's neighbour edges lead to %v; want %v", fromSailing, want)
	}
	var neighbours []string
	for _, n := range r.Neighbours {
		neighbours = append(neighbours, n.Key.(string))
	}
	if slices.Contains(neighbours, "a_lisbon") || slices.Contains(neighbours, "a_owner") {
		t.Errorf("neighbours %v hold lisbon (past the bound) or the owner (shown apart)", neighbours)
	}
	// Top edges: by relevance, then date.
	top := edgeKeys(r.TopEdges)
	if len(top) == 0 || len(top) > explore.TopEdges || top[0] != "a_sailing involves a_marie" || !slices.Contains(top, "a_owner relates_to a_acme") {
		t.Errorf("top edges %v; want the relevance 9 edge first and the owner's relevance 8 edge among them", top)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(top)))) != len(top) {
		t.Errorf("top edges %v repeat an edge (an owner's edge to a hit is also between hits)", top)
	}
	if i, j := slices.Index(top, "a_owner thinks_about a_sailing"), slices.Index(top, "a_call mentions a_sailing"); i < 0 || j >= 0 && j < i {
		t.Errorf("top edges %v: the dated edge without relevance must come before the undated one", top)
	}
}

func TestExploreRanksHitsBySalienceDegreeAndRecencyWhateverTheDateStorage(t *testing.T) {
	e := setUp(t)
	r := mustRun(t, e, "alice", map[string]any{
		"queries":      []any{map[string]any{"query": sailing}, map[string]any{"query": kitchen}, map[string]any{"query": notes}},
		"text_matches": []any{"packing list"},
		"explanations": true,
	})
	before := func(a, b string) {
		t.Helper()
		keys := hitKeys(r, "")
		i, j := slices.Index(keys, a), slices.Index(keys, b)
		if i < 0 || j < 0 || i > j {
			t.Errorf("hits %v: want %s before %s", keys, a, b)
		}
	}
	// Same texts, so the same scores: the recent node first, whether the
	// date is temporal (Concept), an ISO string (Source) or epoch
	// milliseconds (Artifact); with the same date, the connected node.
	before("a_sailing", "a_sailing_old")
	before("a_call", "a_call_old")
	before("a_packing", "a_packing_old")
	before("a_kitchen_hub", "a_kitchen")
	for i := 1; i < len(r.Hits); i++ {
		if r.Hits[i].Salience > r.Hits[i-1].Salience {
			t.Errorf("hits not in salience order at %d: %v > %v", i, r.Hits[i].Salience, r.Hits[i-1].Salience)
		}
	}
	for _, h := range r.Hits {
		if h.Why == nil {
			t.Fatalf("hit %s lacks why with explanations", h.Key)
		}
		if h.Key == "a_packing_old" && h.Why.RecencyWeight > 0.01 {
			t.Errorf("a 300-day-old artifact has recency weight %v; want 0.5^(300/30)", h.Why.RecencyWeight)
		}
		if h.Key == "a_call" && (h.Why.RecencyWeight < 0.9 || h.Why.RecencyWeight > 0.96) {
			t.Errorf("a 2-day-old source has recency weight %v; want 0.5^(2/30) ≈ 0.955", h.Why.RecencyWeight)
		}
	}
}

func TestExploreKeepsTheTopHitsOfEachEntity(t *testing.T) {
	e := setUp(t)
	args := map[string]any{"queries": []any{map[string]any{"query": sailing}, map[string]any{"query": kitchen}}, "explanations": true}
	r := mustRun(t, e, "alice", args)
	if got := hitKeys(r, "Concept"); len(got) != 4 {
		t.Errorf("concepts %v; want the 4 that match (the config keeps 5)", got)
	}
	args["top"] = map[string]any{"Concept": 2}
	r = mustRun(t, e, "alice", args)
	if got := hitKeys(r, "Concept"); !slices.Equal(got, []string{"a_sailing", "a_kitchen_hub"}) {
		t.Errorf("concepts with top 2: %v; want [a_sailing a_kitchen_hub]", got)
	}
	for _, c := range r.Explanations.Entities {
		if c.Entity == "Concept" && (c.Candidates != 4 || c.Kept != 2 || c.DroppedByTop != 2 || c.Top != 2) {
			t.Errorf("concept counts %+v; want 4 candidates, 2 kept, 2 dropped by top 2", c)
		}
	}
	args["top"] = map[string]any{"Concept": 500}
	if _, err := run(t, e, "alice", args); err != nil {
		t.Errorf("a top over the bound is clamped, not refused: %v", err)
	}
}

func TestExploreExplanationsCountHitsPerSourceAndWhatTheThresholdDropped(t *testing.T) {
	e := setUp(t)
	r := mustRun(t, e, "alice", map[string]any{"queries": []any{map[string]any{"query": "sailing trip", "threshold": 0.95}}, "text_matches": []any{"Acmee"}, "explanations": true})
	ex := r.Explanations
	if ex == nil || ex.Salience == "" {
		t.Fatalf("explanations = %+v", ex)
	}
	dropped := 0
	for _, s := range ex.Sources {
		dropped += s.DroppedByThreshold
		if strings.HasPrefix(s.Source, "fulltext entity_text") && s.Hits != 1 {
			t.Errorf("source %+v: want the one Acme of alice's", s)
		}
	}
	if dropped == 0 {
		t.Errorf("a 0.95 threshold dropped nothing: %+v", ex.Sources)
	}
	if len(hitKeys(r, "Concept")) != 0 {
		t.Errorf("concepts %v pass a 0.95 threshold for a partial query", hitKeys(r, "Concept"))
	}
}

// TestExploreReturnsNoNodeOfAnotherTenant: bob's nodes score as well as
// alice's and edges cross into alice's graph, yet alice sees none of
// bob's nodes, nor any tenant field or embedding; bob sees only his.
func TestExploreReturnsNoNodeOfAnotherTenant(t *testing.T) {
	e := setUp(t)
	for tn, other := range map[string]string{"alice": "b_", "bob": "a_"} {
		r := mustRun(t, e, tn, map[string]any{
			"queries":      []any{map[string]any{"query": sailing, "threshold": 0}, map[string]any{"query": notes, "threshold": 0}, map[string]any{"query": packing, "threshold": 0}},
			"text_matches": []any{"Marie Curie", "Acme", "Alice Martin", "packing"},
			"explanations": true,
		})
		if len(r.Hits) < 6 || len(r.OwnerEdges) == 0 {
			t.Fatalf("%s: %d hits, %d owner edges; want every entity found and the owner's edges", tn, len(r.Hits), len(r.OwnerEdges))
		}
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		s := string(raw)
		for _, leak := range []string{`"` + other, "user_id", `"embedding"`, `"alice"`, `"bob"`} {
			if strings.Contains(s, leak) {
				t.Errorf("%s's explore shows %s: %s", tn, leak, s)
			}
		}
	}
}

func TestExploreRefusesACallWithNoTenantBound(t *testing.T) {
	e := setUp(t)
	if _, err := run(t, e, "", both); !errors.Is(err, tenant.ErrUnbound) {
		t.Errorf("unbound explore: err = %v; want tenant.ErrUnbound", err)
	}
}

package materialize

import (
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
)

// scopeModel is a Scope entity with an expression field, a field reading
// it, a cypher field and a field reading the cypher field.
func scopeModel(mat model.Materialize) *model.Model {
	e := &model.Entity{
		Name: "Scope", UniqueField: "uuid",
		Fields: []*model.Field{
			{Name: "uuid", Type: model.String}, {Name: "startLine", Type: model.Integer}, {Name: "endLine", Type: model.Integer},
		},
		Computed: []*model.ComputedField{
			{Field: model.Field{Name: "line_count", Type: model.Integer}, Expression: "endLine - startLine + 1", Materialized: mat, Index: true},
			{Field: model.Field{Name: "is_large", Type: model.Boolean}, Expression: "line_count > 100", Materialized: model.Never},
			{Field: model.Field{Name: "change_count", Type: model.Integer}, Cypher: "OPTIONAL MATCH (n)-[:HAS_CHANGE]->(c:Change) RETURN count(c) AS change_count", Materialized: model.Auto},
			{Field: model.Field{Name: "busy", Type: model.Boolean}, Expression: "change_count > 3", Materialized: model.Auto},
		},
	}
	return &model.Model{Entities: []*model.Entity{e}, Materialization: model.Materialization{
		Window: 7 * 24 * time.Hour, MinUses: 100, MinNodes: 10000, UnusedAfter: 30 * 24 * time.Hour,
	}}
}

func compiledScope(t *testing.T, m *model.Model) *computed.Entity {
	t.Helper()
	return MustCompile(t, m).Entity("Scope")
}

var now = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

func TestDecideExplainsEveryOutcomeWithItsNumbers(t *testing.T) {
	m := scopeModel(model.Auto)
	ce := compiledScope(t, m)
	lc := ce.Field("line_count")
	for _, tc := range []struct {
		name  string
		field *computed.Field
		mat   model.Materialize
		usage Usage
		nodes int64
		state *FieldState
		want  Decision
		text  string
	}{
		{"threshold reached", lc, model.Auto, Usage{Order: 1204, LastUsed: "2026-06-10"}, 812330, nil, Materialize,
			"line_count: 1,204 order uses in 7 days ≥ 100; Scope has 812,330 nodes ≥ 10,000 → materialize"},
		{"too few uses", lc, model.Auto, Usage{Order: 12, Filter: 3}, 812330, nil, Runtime,
			"line_count: 15 filter and order uses (3 filter, 12 order) in 7 days < 100 → runtime"},
		{"projections do not count", lc, model.Auto, Usage{Project: 5000, Filter: 1}, 812330, nil, Runtime,
			"line_count: 1 filter use in 7 days < 100 → runtime"},
		{"too few nodes", lc, model.Auto, Usage{Filter: 500}, 812, nil, Runtime,
			"line_count: 500 filter uses in 7 days ≥ 100; Scope has 812 nodes < 10,000 → runtime"},
		{"no server", lc, model.Auto, Usage{Filter: 500}, -1, nil, Materialize,
			"Scope node count unknown (no server), min_nodes 10,000 not checked → materialize"},
		{"hysteresis keeps a quiet field", lc, model.Auto, Usage{Order: 2, LastUsed: "2026-05-20"}, 812330, &FieldState{Status: StatusReady}, Materialize,
			"line_count: materialized; 2 order uses in 7 days; last filter or order use 21 days ago, within unused_after 30 days (keep) → materialize"},
		{"unused for unused_after", lc, model.Auto, Usage{Project: 10, LastUsed: "2026-05-11"}, 812330, &FieldState{Status: StatusReady}, Runtime,
			"line_count: materialized, but no filter or order use for 30 days (last 2026-05-11) ≥ unused_after 30 days → runtime"},
		{"always", lc, model.Always, Usage{}, 3, nil, Materialize, "line_count: materialized: true → materialize"},
		{"never, with values to drop", lc, model.Never, Usage{Order: 1e6}, 1e6, &FieldState{Status: StatusReady}, Runtime,
			"line_count: materialized: false (apply drops the stored values) → runtime"},
		{"cypher field goes stale", ce.Field("change_count"), model.Auto, Usage{Order: 100}, 20000, nil, Materialize,
			"(it is a cypher field (reads other nodes)): `materialize refresh` recomputes it → materialize"},
		{"a field reading a cypher field goes stale", ce.Field("busy"), model.Auto, Usage{Filter: 100}, 20000, nil, Materialize,
			"(it reads cypher field change_count (other nodes))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.field.Config.Materialized = tc.mat
			defer func() { tc.field.Config.Materialized = model.Auto }()
			v := Decide(m.Materialization, Input{Field: tc.field, Entity: ce, Usage: tc.usage, Nodes: tc.nodes, State: tc.state}, now)
			if v.Decision != tc.want || !strings.Contains(v.Reason, tc.text) {
				t.Errorf("got %s: %q\nwant %s containing %q", v.Decision, v.Reason, tc.want, tc.text)
			}
		})
	}
}

func TestStalenessNamesClockReads(t *testing.T) {
	m := scopeModel(model.Auto)
	m.Entities[0].Fields = append(m.Entities[0].Fields, &model.Field{Name: "seen", Type: model.Datetime, StoredAs: model.Temporal})
	m.Entities[0].Computed = append(m.Entities[0].Computed, &model.ComputedField{Field: model.Field{Name: "age", Type: model.Integer}, Expression: "days_since(seen)"})
	ce := compiledScope(t, m)
	if got := Staleness(ce.Field("age"), ce); got != "it reads now()" {
		t.Errorf("age: %q", got)
	}
	if got := Staleness(ce.Field("is_large"), ce); got != "" {
		t.Errorf("is_large reads only its own node: %q", got)
	}
}

func TestHashesChangeWithTheExpressionAndWithDependencies(t *testing.T) {
	m := scopeModel(model.Auto)
	h1 := mustHashes(t, m)
	ref := func(f string) model.FieldRef { return model.FieldRef{Entity: "Scope", Field: f} }
	if len(h1[ref("line_count")]) != 64 || h1[ref("line_count")] == h1[ref("is_large")] {
		t.Fatalf("hashes %v", h1)
	}
	// Same config, same hashes (stable across processes).
	if h := mustHashes(t, scopeModel(model.Auto)); h[ref("line_count")] != h1[ref("line_count")] {
		t.Error("hash is not stable")
	}
	// Materialized setting and description do not change what is stored.
	m2 := scopeModel(model.Always)
	m2.Entities[0].Computed[0].Description = "other words"
	if h := mustHashes(t, m2); h[ref("line_count")] != h1[ref("line_count")] {
		t.Error("hash depends on the materialized setting")
	}
	// A dependency's new expression changes the dependent's hash.
	m3 := scopeModel(model.Auto)
	m3.Entities[0].Computed[0].Expression = "endLine - startLine"
	h3 := mustHashes(t, m3)
	if h3[ref("line_count")] == h1[ref("line_count")] || h3[ref("is_large")] == h1[ref("is_large")] {
		t.Error("changing line_count did not change line_count's and is_large's hashes")
	}
	if h3[ref("change_count")] != h1[ref("change_count")] {
		t.Error("changing line_count changed an unrelated field's hash")
	}
}

func mustHashes(t *testing.T, m *model.Model) map[model.FieldRef]string {
	t.Helper()
	h, err := Hashes(MustCompile(t, m))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestReadyStateTrustsOnlyReadyStatesOfTheSameHashAndProperty(t *testing.T) {
	ref := model.FieldRef{Entity: "Scope", Field: "line_count"}
	hashes := map[model.FieldRef]string{ref: "h1"}
	props := map[model.FieldRef]string{ref: "line_count"}
	for _, tc := range []struct {
		name  string
		state []FieldState
		ready bool
	}{
		{"ready", []FieldState{{Entity: "Scope", Field: "line_count", Property: "line_count", Hash: "h1", Status: StatusReady}}, true},
		{"missing", nil, false},
		{"building", []FieldState{{Entity: "Scope", Field: "line_count", Property: "line_count", Hash: "h1", Status: StatusBuilding}}, false},
		{"dropping", []FieldState{{Entity: "Scope", Field: "line_count", Property: "line_count", Hash: "h1", Status: StatusDropping}}, false},
		{"stale hash", []FieldState{{Entity: "Scope", Field: "line_count", Property: "line_count", Hash: "h0", Status: StatusReady}}, false},
		{"other property", []FieldState{{Entity: "Scope", Field: "line_count", Property: "lc", Hash: "h1", Status: StatusReady}}, false},
	} {
		if got := ReadyState(tc.state, hashes, props).Ready("Scope", "line_count"); got != tc.ready {
			t.Errorf("%s: ready = %v, want %v", tc.name, got, tc.ready)
		}
	}
}

func TestRecomputeWritesEveryNamedFieldForOneNode(t *testing.T) {
	cm := MustCompile(t, scopeModel(model.Auto))
	q, err := Recompute(cm, "Scope", []string{"line_count", "busy", "change_count"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(q, "MATCH (n:`Scope`) WHERE n.`uuid` = $id\nCALL (n) {") || strings.Count(q, "CALL (n) { CALL (n)") != 1 ||
		!strings.Contains(q, "SET n.`line_count` = ((n.`endLine` - n.`startLine`) + 1), n.`busy` = ") {
		t.Errorf("statement:\n%s", q)
	}
	if _, err := Recompute(cm, "Scope", []string{"nope"}); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := Recompute(cm, "Nope", []string{"line_count"}); err == nil {
		t.Error("unknown entity accepted")
	}
}

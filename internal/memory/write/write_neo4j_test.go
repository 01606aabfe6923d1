package write_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/memory/write"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/materialize"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

var clock = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

func memoryModel(t testing.TB) *model.Model {
	t.Helper()
	m, err := config.Load("../../../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// newEngine builds the engine of m on d, writing at clock, with tn as
// its default tenant; adjust changes its options.
func newEngine(t testing.TB, d neo4j.DriverWithContext, m *model.Model, tn string, adjust ...func(*engine.Options)) *engine.Engine {
	t.Helper()
	opts := engine.Options{Driver: d, Database: neo4jtest.Database(), Tenant: tn, Now: func() time.Time { return clock },
		Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}}
	for _, f := range adjust {
		f(&opts)
	}
	e, err := engine.New(t.Context(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// call runs one tool call under tenant tn (the context binding).
func call(t testing.TB, e *engine.Engine, tn, name string, args any) (*engine.Result, error) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return e.Execute(tenant.With(context.Background(), tn), engine.Call{Name: name, Arguments: raw})
}

func mustWrite(t testing.TB, e *engine.Engine, tn, name string, args any) write.Result {
	t.Helper()
	res, err := call(t, e, tn, name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	r, ok := res.Custom.(write.Result)
	if !ok {
		t.Fatalf("%s returned %T", name, res.Custom)
	}
	return r
}

func query(t testing.TB, d neo4j.DriverWithContext, q string, params map[string]any) []*neo4j.Record {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, q, params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	return res.Records
}

func callError(t testing.TB, err error, path string) *tools.CallError {
	t.Helper()
	var ce *tools.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("want a CallError at %s, got %v", path, err)
	}
	if ce.Problems[0].Path != path {
		t.Fatalf("want the problem at %s, got %+v", path, ce.Problems)
	}
	return ce
}

func TestCreateMergesOnTheDerivedKeySoARetryNeverDuplicates(t *testing.T) {
	d := neo4jtest.Open(t)
	e := newEngine(t, d, memoryModel(t), "")
	ada := map[string]any{"name": "Ada", "canonical_name": "ada lovelace", "situation": "writing notes", "source": "chat-1", "confidence": 0.9}
	first := mustWrite(t, e, "alice", "create_person", ada)
	if !first.Created || !strings.HasPrefix(first.EntityKey, "person_") {
		t.Fatalf("first create: %+v", first)
	}
	// The same values (canonical name spelt with other case and spaces) find the same node.
	ada["canonical_name"] = "Ada  Lovelace"
	ada["situation"] = "travelling"
	again := mustWrite(t, e, "alice", "create_person", ada)
	if again.Created || again.EntityKey != first.EntityKey {
		t.Fatalf("retry: %+v (first %+v)", again, first)
	}
	if !strings.Contains(again.Message, "Kept the stored canonical_name (immutable)") || !strings.Contains(again.Message, "situation") {
		t.Errorf("retry message %q", again.Message)
	}
	recs := query(t, d, "MATCH (p:Person) RETURN p.entity_key AS k, p.user_id AS u, p.canonical_name AS c, p.situation AS s, p.last_update_source AS src, p.confidence AS conf, p.updated_at AS up, p.created_at AS cr", nil)
	if len(recs) != 1 {
		t.Fatalf("%d Person nodes after a retried create", len(recs))
	}
	got := recs[0].AsMap()
	if got["u"] != "alice" || got["c"] != "ada lovelace" || got["s"] != "travelling" || got["src"] != "chat-1" || got["conf"] != 0.9 {
		t.Errorf("stored %v", got)
	}
	if up, ok := got["up"].(time.Time); !ok || !up.Equal(clock) {
		t.Errorf("updated_at %v (%T), want the write's time as a temporal value", got["up"], got["up"])
	}
	if _, ok := got["cr"].(time.Time); !ok {
		t.Errorf("created_at %v", got["cr"])
	}
}

func TestUpdateChangesOnlyGivenFieldsAndRefusesImmutableAndUnknownOnes(t *testing.T) {
	d := neo4jtest.Open(t)
	e := newEngine(t, d, memoryModel(t), "")
	k := mustWrite(t, e, "alice", "create_person", map[string]any{"name": "Bo", "canonical_name": "bo", "notes": "likes tea", "interests": "go", "source": "test", "confidence": 1}).EntityKey
	up := mustWrite(t, e, "alice", "update_person", map[string]any{"entity_key": k, "notes": "likes coffee", "source": "chat-2", "confidence": 1})
	if up.Created || up.EntityKey != k || !strings.Contains(up.Message, "set notes") {
		t.Errorf("update: %+v", up)
	}
	recs := query(t, d, "MATCH (p:Person) RETURN p.notes AS n, p.interests AS i, p.last_update_source AS s", nil)
	if m := recs[0].AsMap(); m["n"] != "likes coffee" || m["i"] != "go" || m["s"] != "chat-2" {
		t.Errorf("after update %v", m)
	}
	_, err := call(t, e, "alice", "update_person", map[string]any{"entity_key": k, "canonical_name": "robert", "source": "test", "confidence": 1})
	if ce := callError(t, err, "/canonical_name"); !strings.Contains(ce.Error(), "immutable") {
		t.Errorf("immutable refusal %v", ce)
	}
	_, err = call(t, e, "alice", "update_person", map[string]any{"entity_key": k, "nickname": "b", "source": "test", "confidence": 1})
	if err == nil || !strings.Contains(err.Error(), "nickname") {
		t.Errorf("unknown field: %v", err)
	}
	_, err = call(t, e, "alice", "update_person", map[string]any{"entity_key": "person_nope", "notes": "x", "source": "test", "confidence": 1})
	if ce := callError(t, err, "/entity_key"); !strings.Contains(ce.Error(), "create_person") {
		t.Errorf("missing key %v", ce)
	}
	_, err = call(t, e, "alice", "create_person", map[string]any{"name": "No canonical", "source": "test", "confidence": 1})
	if err == nil || !strings.Contains(err.Error(), "canonical_name") {
		t.Errorf("required field: %v", err)
	}
	_, err = call(t, e, "alice", "user_id", nil)
	if err == nil {
		t.Error("a tool named after the tenant field exists")
	}
	_, err = call(t, e, "alice", "create_person", map[string]any{"name": "X", "canonical_name": "x", "user_id": "bob", "source": "test", "confidence": 1})
	if err == nil || !strings.Contains(err.Error(), "user_id") {
		t.Errorf("the tenant field was accepted as an argument: %v", err)
	}
}

func TestRelationshipsCheckTheirEndpointsTypesAndProperties(t *testing.T) {
	d := neo4jtest.Open(t)
	e := newEngine(t, d, memoryModel(t), "")
	p := mustWrite(t, e, "alice", "create_person", map[string]any{"name": "Cy", "canonical_name": "cy", "source": "test", "confidence": 1}).EntityKey
	q := mustWrite(t, e, "alice", "create_person", map[string]any{"name": "Di", "canonical_name": "di", "source": "test", "confidence": 1}).EntityKey
	c := mustWrite(t, e, "alice", "create_concept", map[string]any{"name": "sailing", "source": "test", "confidence": 1}).EntityKey

	r := mustWrite(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": p, "to_entity_key": c, "relationship_type": "thinks_about",
		"properties": map[string]any{"mood": "loves", "frequency": 3, "colour": "blue"}, "source": "chat-3", "confidence": 0.7})
	if !r.Created || !strings.Contains(r.Message, "Dropped colour") || !strings.Contains(r.Message, "set frequency, mood") {
		t.Errorf("create: %+v", r)
	}
	r = mustWrite(t, e, "alice", "update_relationship", map[string]any{"from_entity_key": p, "to_entity_key": c, "relationship_type": "thinks_about", "source": "chat-4", "confidence": 1,
		"properties": map[string]any{"mood": "misses"}})
	if r.Created {
		t.Errorf("update made a second relationship: %+v", r)
	}
	recs := query(t, d, "MATCH (:Person)-[r:thinks_about]->(:Concept) RETURN count(r) AS n, collect(r.mood)[0] AS mood, collect(r.frequency)[0] AS f, collect(r.colour)[0] AS colour, collect(r.last_update_source)[0] AS src", nil)
	if m := recs[0].AsMap(); m["n"] != int64(1) || m["mood"] != "misses" || m["f"] != 3.0 || m["colour"] != nil || m["src"] != "chat-4" {
		t.Errorf("stored relationship %v", m)
	}
	// The declared direction: a Concept does not think about a Person.
	_, err := call(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": c, "to_entity_key": p, "relationship_type": "thinks_about", "source": "test", "confidence": 1})
	if ce := callError(t, err, "/relationship_type"); !strings.Contains(ce.Error(), "Person -> Concept") {
		t.Errorf("wrong direction: %v", ce)
	}
	// A typed property is checked.
	_, err = call(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": p, "to_entity_key": c, "relationship_type": "thinks_about", "properties": map[string]any{"mood": "bored"}, "source": "test", "confidence": 1})
	callError(t, err, "/properties/mood")
	_, err = call(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": p, "to_entity_key": q, "relationship_type": "has_relationship_with", "properties": map[string]any{"closeness": 9}, "source": "test", "confidence": 1})
	callError(t, err, "/properties/closeness")
	// A both-ways type is one relationship whichever end comes first.
	mustWrite(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": p, "to_entity_key": q, "relationship_type": "has_relationship_with", "properties": map[string]any{"closeness": 4}, "source": "test", "confidence": 1})
	back := mustWrite(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": q, "to_entity_key": p, "relationship_type": "has_relationship_with", "properties": map[string]any{"closeness": 5}, "source": "test", "confidence": 1})
	if back.Created {
		t.Errorf("the reversed both-ways write made a second relationship: %+v", back)
	}
	if n := query(t, d, "MATCH ()-[r:has_relationship_with]->() RETURN count(r) AS n, collect(r.closeness)[0] AS c", nil)[0].AsMap(); n["n"] != int64(1) || n["c"] != int64(5) {
		t.Errorf("has_relationship_with %v", n)
	}
	_, err = call(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": p, "to_entity_key": "concept_nope", "relationship_type": "thinks_about", "source": "test", "confidence": 1})
	callError(t, err, "/to_entity_key")
	_, err = call(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": p, "to_entity_key": c, "relationship_type": "hates", "source": "test", "confidence": 1})
	if err == nil || !strings.Contains(err.Error(), "relationship_type") {
		t.Errorf("unknown type: %v", err)
	}
}

func TestWritesStayInsideTheBoundTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	e := newEngine(t, d, memoryModel(t), "")
	a := mustWrite(t, e, "alice", "create_person", map[string]any{"name": "Eve", "canonical_name": "eve", "source": "test", "confidence": 1}).EntityKey
	b := mustWrite(t, e, "bob", "create_person", map[string]any{"name": "Eve", "canonical_name": "eve", "source": "test", "confidence": 1}).EntityKey
	if a == b {
		t.Fatalf("two tenants' Eve share the key %s", a)
	}
	bc := mustWrite(t, e, "bob", "create_concept", map[string]any{"name": "chess", "source": "test", "confidence": 1}).EntityKey
	_, err := call(t, e, "alice", "update_person", map[string]any{"entity_key": b, "notes": "hijack", "source": "test", "confidence": 1})
	callError(t, err, "/entity_key")
	_, err = call(t, e, "alice", "create_relationship", map[string]any{"from_entity_key": a, "to_entity_key": bc, "relationship_type": "thinks_about", "source": "test", "confidence": 1})
	callError(t, err, "/to_entity_key")
	if n := query(t, d, "MATCH (p:Person {user_id: 'bob'}) RETURN p.notes AS n", nil)[0].AsMap()["n"]; n != nil {
		t.Errorf("alice changed bob's node: notes %v", n)
	}
	// The only relationships are those from each node to its recorded
	// Changes, in its own tenant.
	if n := query(t, d, "MATCH (a)-[r]->(b) WHERE type(r) <> 'HAS_CHANGE' OR a.user_id <> b.user_id RETURN count(r) AS n", nil)[0].AsMap()["n"]; n != int64(0) {
		t.Errorf("%v relationships across tenants", n)
	}
	// Without a bound tenant nothing is written.
	_, err = e.Execute(context.Background(), engine.Call{Name: "create_person", Arguments: json.RawMessage(`{"confidence": 1, "source": "test", "name":"Zed","canonical_name":"zed"}`)})
	if !errors.Is(err, tenant.ErrUnbound) {
		t.Errorf("unbound write: %v", err)
	}
}

// noteConfig has a writable entity whose computed field is stored.
const noteConfig = `
tenant: {field: user_id}
provenance: {updated_at: updated_at}
entities:
  - name: Note
    unique_field: note_key
    writable: {create: true, update: true}
    key: {field: note_key, from: [user_id, title]}
    searchable_fields:
      - {name: note_key, type: string}
      - {name: user_id, type: string}
      - {name: title, type: string}
      - {name: words, type: integer}
      - {name: extra, type: integer}
      - {name: updated_at, type: datetime, stored_as: epoch_millis}
    computed_fields:
      - {name: total, type: integer, expression: words + extra, materialized: true}
`

func TestWriteRecomputesAStoredComputedFieldInTheSameTransaction(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	m, err := config.LoadSources(config.Source{Name: "note.yaml", Data: []byte(noteConfig)})
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, d, m, "alice")
	k := mustWrite(t, e, "alice", "create_note", map[string]any{"title": "plan", "words": 10, "extra": 2}).EntityKey
	cm, err := computed.CompileModel(m)
	if err != nil {
		t.Fatal(err)
	}
	x, err := materialize.New(cm, d, materialize.Options{Database: neo4jtest.Database(), Grace: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, e, "alice", "update_note", map[string]any{"entity_key": k, "words": 40})
	mustWrite(t, e, "alice", "create_note", map[string]any{"title": "later", "words": 1, "extra": 1})
	recs := query(t, d, "MATCH (n:Note) RETURN n.title AS t, n.total AS total, n.updated_at AS up ORDER BY t", nil)
	if a, b := recs[0].AsMap(), recs[1].AsMap(); a["total"] != int64(2) || b["total"] != int64(42) || b["up"] != clock.UnixMilli() {
		t.Errorf("stored totals after writes: %v %v", a, b)
	}
	drift, err := x.Verify(ctx, nil)
	if err != nil || len(drift) != 1 || drift[0].Drift != 0 {
		t.Errorf("verify after writes: %+v, %v", drift, err)
	}
}

// TestRequiredProvenanceRefusesAnUnsourcedWrite: memory-graph requires
// provenance, so every write tool's schema requires source and
// confidence, and a write without them, or with a blank source, is
// refused at that argument's path and writes nothing; a config that does
// not require provenance takes the same write without them.
func TestRequiredProvenanceRefusesAnUnsourcedWrite(t *testing.T) {
	d := neo4jtest.Open(t)
	m := memoryModel(t)
	e := newEngine(t, d, m, "")
	for _, tool := range write.New(m, tools.Env{}).Tools() {
		var s struct{ Required []string }
		if err := json.Unmarshal(tool.InputJSON(), &s); err != nil || !slices.Contains(s.Required, "source") || !slices.Contains(s.Required, "confidence") {
			t.Errorf("%s requires %v (%v), want source and confidence", tool.Name, s.Required, err)
		}
	}
	k := mustWrite(t, e, "alice", "create_person", map[string]any{"name": "Fay", "canonical_name": "fay", "source": "chat-9", "confidence": 0.6}).EntityKey
	for _, c := range []struct {
		tool string
		args map[string]any
		path string
		want string
	}{
		{"create_person", map[string]any{"name": "Gil", "canonical_name": "gil", "confidence": 0.5}, "", `missing required argument "source"`},
		{"create_person", map[string]any{"name": "Gil", "canonical_name": "gil", "source": "chat"}, "", `missing required argument "confidence"`},
		{"create_person", map[string]any{"name": "Gil", "canonical_name": "gil", "source": "  ", "confidence": 0.5}, "/source", "say where you learned this"},
		{"update_person", map[string]any{"entity_key": k, "notes": "n", "confidence": 0.5}, "", `missing required argument "source"`},
		{"update_relationship", map[string]any{"from_entity_key": k, "to_entity_key": k, "relationship_type": "has_relationship_with", "source": "chat"}, "", `missing required argument "confidence"`},
	} {
		_, err := call(t, e, "alice", c.tool, c.args)
		if ce := callError(t, err, c.path); !strings.Contains(ce.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.tool, c.args, ce, c.want)
		}
	}
	// The one create recorded its Change; a refused write adds nothing.
	rec := query(t, d, "MATCH (p:Person) RETURN count(p) AS n, collect(p.notes)[0] AS notes, count { ()-[r]->() WHERE type(r) <> 'HAS_CHANGE' } AS rels", nil)[0].AsMap()
	if rec["n"] != int64(1) || rec["notes"] != nil || rec["rels"] != int64(0) {
		t.Errorf("refused writes changed the graph: %v", rec)
	}

	// Without required provenance the same write needs neither.
	optional := memoryModel(t)
	optional.Provenance.Required = false
	mustWrite(t, newEngine(t, d, optional, ""), "alice", "create_person", map[string]any{"name": "Gil", "canonical_name": "gil"})
}

package write_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestWritesRecordTheirChangesInTheTenant: memory-graph tracks its
// entities, so a create records a created Change with the values set, an
// update an updated Change with the changed fields' old and new values
// and a unified diff of the text with its lines counted, a write that
// changes nothing records nothing, and every Change carries the writer's
// tenant and provenance.
func TestWritesRecordTheirChangesInTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	e := newEngine(t, d, memoryModel(t), "")
	k := mustWrite(t, e, "alice", "create_person", map[string]any{"name": "Bo", "canonical_name": "bo", "notes": "likes tea\nplays chess\n", "source": "chat-1", "confidence": 1}).EntityKey
	mustWrite(t, e, "alice", "update_person", map[string]any{"entity_key": k, "notes": "likes coffee\nplays chess\nruns\n", "interests": "go", "source": "chat-2", "confidence": 0.5})
	mustWrite(t, e, "alice", "update_person", map[string]any{"entity_key": k, "notes": "likes coffee\nplays chess\nruns\n", "source": "chat-2", "confidence": 0.5})
	mustWrite(t, e, "bob", "create_person", map[string]any{"name": "Bo", "canonical_name": "bo", "source": "chat-9", "confidence": 1})

	recs := query(t, d, "MATCH (p:Person {entity_key: $k, user_id: 'alice'})-[:HAS_CHANGE]->(c:MemoryChange) "+
		"RETURN c {.*} AS c ORDER BY c.timestamp, c.kind", map[string]any{"k": k})
	if len(recs) != 2 {
		t.Fatalf("%d Changes of alice's Person, want 2 (the no-op update records none)", len(recs))
	}
	created, _ := recs[0].Get("c")
	updated, _ := recs[1].Get("c")
	c, u := created.(map[string]any), updated.(map[string]any)
	if c["kind"] != change.Created || c["user_id"] != "alice" || c["entity_type"] != "Person" || c["entity_key"] != k || c["source"] != "chat-1" {
		t.Errorf("created Change %v", c)
	}
	if got := c["changed_fields"]; !slices.Equal(strs(got), []string{"canonical_name", "name", "notes"}) {
		t.Errorf("created Change fields %v", got)
	}
	if ts, ok := c["timestamp"].(time.Time); !ok || !ts.Equal(clock) {
		t.Errorf("timestamp %v (%T), want the write's time as a DATETIME", c["timestamp"], c["timestamp"])
	}
	if u["kind"] != change.Updated || u["source"] != "chat-2" || u["confidence"] != 0.5 || !slices.Equal(strs(u["changed_fields"]), []string{"interests", "notes"}) {
		t.Errorf("updated Change %v", u)
	}
	var old, new map[string]any
	if err := json.Unmarshal([]byte(u["old_values"].(string)), &old); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(u["new_values"].(string)), &new); err != nil {
		t.Fatal(err)
	}
	if old["notes"] != "likes tea\nplays chess\n" || old["interests"] != nil || new["notes"] != "likes coffee\nplays chess\nruns\n" || new["interests"] != "go" {
		t.Errorf("old %v new %v", old, new)
	}
	wantDiff, added, removed := change.Unified("notes", "likes tea\nplays chess\n", "likes coffee\nplays chess\nruns\n")
	// interests had no value: its diff adds its one line.
	_, ia, ir := change.Unified("interests", "", "go")
	if u["lines_added"] != int64(added+ia) || u["lines_removed"] != int64(removed+ir) || added != 2 || removed != 1 {
		t.Errorf("lines +%v -%v, want +%d -%d", u["lines_added"], u["lines_removed"], added+ia, removed+ir)
	}
	if diff, _ := u["diff"].(string); len(diff) < len(wantDiff) || diff[len(diff)-len(wantDiff):] != wantDiff {
		t.Errorf("diff %q, want it to end with %q", diff, wantDiff)
	}
	if n := query(t, d, "MATCH (c:MemoryChange) WHERE c.user_id = 'bob' RETURN count(c) AS n", nil)[0].Values[0]; n != int64(1) {
		t.Errorf("bob has %v Changes, want 1", n)
	}
}

// TestRelationshipWritesRecordChangesOnTheirTrackedEnds: a relationship
// write records a Change on each tracked end, in the writer's tenant:
// created when it made the relationship (with every property set),
// updated with the changed properties' old and new values and a diff of
// text, nothing when it changed nothing; each names the relationship as
// its end sees it. An end whose entity is not tracked records nothing.
func TestRelationshipWritesRecordChangesOnTheirTrackedEnds(t *testing.T) {
	d := neo4jtest.Open(t)
	e := newEngine(t, d, memoryModel(t), "")
	prov := func(args map[string]any, src string) map[string]any {
		args["source"], args["confidence"] = src, 0.8
		return args
	}
	chess := mustWrite(t, e, "alice", "create_concept", prov(map[string]any{"name": "chess"}, "chat-1")).EntityKey
	goKey := mustWrite(t, e, "alice", "create_concept", prov(map[string]any{"name": "go"}, "chat-1")).EntityKey
	rel := func(tool, notes string, relevance int, src string) {
		mustWrite(t, e, "alice", tool, prov(map[string]any{"from_entity_key": chess, "to_entity_key": goKey, "relationship_type": "relates_to",
			"properties": map[string]any{"notes": notes, "relevance": relevance}}, src))
	}
	rel("create_relationship", "both board games\n", 3, "chat-2")
	rel("update_relationship", "both board games\nboth ancient\n", 3, "chat-3")
	rel("update_relationship", "both board games\nboth ancient\n", 3, "chat-4")
	// bob's concepts of the same names are other nodes: his write records
	// on his nodes only.
	bc := mustWrite(t, e, "bob", "create_concept", prov(map[string]any{"name": "chess"}, "chat-5")).EntityKey
	bg := mustWrite(t, e, "bob", "create_concept", prov(map[string]any{"name": "go"}, "chat-5")).EntityKey
	mustWrite(t, e, "bob", "create_relationship", prov(map[string]any{"from_entity_key": bc, "to_entity_key": bg, "relationship_type": "relates_to"}, "chat-5"))

	diff, added, removed := change.Unified("notes", "both board games\n", "both board games\nboth ancient\n")
	for _, end := range []struct{ key, other, direction string }{{chess, goKey, "outgoing"}, {goKey, chess, "incoming"}} {
		recs := query(t, d, "MATCH (n:Concept {entity_key: $k, user_id: 'alice'})-[:HAS_CHANGE]->(c:MemoryChange) WHERE c.relationship_type IS NOT NULL "+
			"RETURN c {.*} AS c ORDER BY c.kind", map[string]any{"k": end.key})
		if len(recs) != 2 {
			t.Fatalf("%s has %d relationship Changes, want 2 (created, updated; the no-op update records none)", end.key, len(recs))
		}
		cv, _ := recs[0].Get("c")
		uv, _ := recs[1].Get("c")
		c, u := cv.(map[string]any), uv.(map[string]any)
		for _, x := range []map[string]any{c, u} {
			if x["relationship_type"] != "relates_to" || x["direction"] != end.direction || x["other_entity_type"] != "Concept" || x["other_entity_key"] != end.other ||
				x["entity_type"] != "Concept" || x["entity_key"] != end.key || x["user_id"] != "alice" || x["confidence"] != 0.8 {
				t.Errorf("%s: Change %v", end.key, x)
			}
			if ts, ok := x["timestamp"].(time.Time); !ok || !ts.Equal(clock) {
				t.Errorf("timestamp %v", x["timestamp"])
			}
		}
		ca, _, _ := change.Unified("notes", "", "both board games\n")
		if c["kind"] != change.Created || c["source"] != "chat-2" || !slices.Equal(strs(c["changed_fields"]), []string{"notes", "relevance"}) ||
			c["new_values"] != `{"notes":"both board games\n","relevance":3}` || c["old_values"] != nil || c["diff"] != ca {
			t.Errorf("created Change %v", c)
		}
		if u["kind"] != change.Updated || u["source"] != "chat-3" || !slices.Equal(strs(u["changed_fields"]), []string{"notes"}) ||
			u["old_values"] != `{"notes":"both board games\n"}` || u["new_values"] != `{"notes":"both board games\nboth ancient\n"}` ||
			u["diff"] != diff || u["lines_added"] != int64(added) || u["lines_removed"] != int64(removed) {
			t.Errorf("updated Change %v, want diff %q +%d -%d", u, diff, added, removed)
		}
	}
	recs := query(t, d, "MATCH (c:MemoryChange) WHERE c.relationship_type IS NOT NULL RETURN c.user_id AS u, c.kind AS kind, count(*) AS n ORDER BY u, kind", nil)
	if len(recs) != 3 || recs[2].AsMap()["u"] != "bob" || recs[2].AsMap()["n"] != int64(2) || recs[2].AsMap()["kind"] != change.Created {
		t.Errorf("relationship Changes by tenant %v, want bob's one relationship recorded on his two concepts", recs)
	}

	// Concept untracked: a Person's thinks_about records on the Person only.
	m := memoryModel(t)
	m.ChangeTracking.Entities = slices.DeleteFunc(m.ChangeTracking.Entities, func(s string) bool { return s == "Concept" })
	u := newEngine(t, d, m, "")
	p := mustWrite(t, u, "carol", "create_person", prov(map[string]any{"name": "Ed", "canonical_name": "ed"}, "chat-6")).EntityKey
	c := mustWrite(t, u, "carol", "create_concept", prov(map[string]any{"name": "sailing"}, "chat-6")).EntityKey
	mustWrite(t, u, "carol", "create_relationship", prov(map[string]any{"from_entity_key": p, "to_entity_key": c, "relationship_type": "thinks_about"}, "chat-7"))
	recs = query(t, d, "MATCH (n {user_id: 'carol'})-[:HAS_CHANGE]->(c:MemoryChange) RETURN labels(n)[0] AS l, c.kind AS kind, c.relationship_type AS r, c.direction AS dir, c.other_entity_key AS o ORDER BY r", nil)
	// Cypher sorts nulls last.
	want := [][]any{{"Person", change.Created, "thinks_about", "outgoing", c}, {"Person", change.Created, nil, nil, nil}}
	if len(recs) != len(want) {
		t.Fatalf("carol's Changes %v, want %v (none on the untracked Concept)", recs, want)
	}
	for i, r := range recs {
		if !slices.Equal(r.Values, want[i]) {
			t.Errorf("carol's Change %d: %v, want %v", i, r.Values, want[i])
		}
	}
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

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
	mustWrite(t, e, "alice", "update_person", map[string]any{"entity_key": k, "notes": "likes coffee\nplays chess\nruns\n", "source": "chat-3", "confidence": 1})
	mustWrite(t, e, "bob", "create_person", map[string]any{"name": "Bo", "canonical_name": "bo", "source": "chat-4", "confidence": 1})

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

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

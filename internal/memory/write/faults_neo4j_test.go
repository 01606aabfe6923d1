package write_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/memory/write"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestEveryWriteAppliesOnceWhenRetriedAfterAFault makes the database fail
// under each kind of write (create and update of an entity and of a
// relationship), in turn: the commit's answer lost with the connection,
// the commit never answered until the call's deadline, the connection
// refused before the call. Each failed write's error says what happened:
// the database unavailable (not applied), or the commit's outcome unknown
// (it may have been applied) — never a timeout of the statement — and is
// retryable. Every unacknowledged write is retried until acknowledged;
// then each operation is applied once: one node per create, one
// relationship per create_relationship, one Change per operation on
// each tracked end, whatever the faults.
func TestEveryWriteAppliesOnceWhenRetriedAfterAFault(t *testing.T) {
	neo4jtest.Open(t)
	p := neo4jtest.NewProxy(t)
	d := p.Driver(t)
	e := newEngine(t, d, memoryModel(t), "", func(o *engine.Options) { o.Timeout = 2 * time.Second })
	faults := []neo4jtest.ProxyMode{neo4jtest.LoseCommitReply, neo4jtest.HoldCommitReply, neo4jtest.Refuse, neo4jtest.Forward}
	const concepts = 5
	prov := map[string]any{"source": "chat-1", "confidence": 0.9}
	with := func(args map[string]any) map[string]any {
		for k, v := range prov {
			args[k] = v
		}
		return args
	}
	ops := 0
	unknown, unknownApplied, unavailable := 0, 0, 0
	// do runs one write under the next fault, then retries it until it is
	// acknowledged, and returns its result.
	do := func(tool string, args map[string]any, applied func() bool) write.Result {
		t.Helper()
		mode := faults[ops%len(faults)]
		ops++
		if err := p.Set(mode); err != nil {
			t.Fatal(err)
		}
		res, err := call(t, e, "alice", tool, args)
		if err := p.Set(neo4jtest.Forward); err != nil {
			t.Fatal(err)
		}
		if err == nil {
			return res.Custom.(write.Result)
		}
		var r interface{ Retryable() bool }
		switch {
		case errors.Is(err, engine.ErrCommitUnknown):
			unknown++
			if applied() {
				unknownApplied++
			}
		case errors.Is(err, engine.ErrUnavailable):
			unavailable++
			if applied() {
				t.Errorf("%s under %s: said the database was unavailable, and the write was applied", tool, mode)
			}
		default:
			t.Errorf("%s under %s: %v; want the database unavailable or the commit's outcome unknown", tool, mode, err)
		}
		if !errors.As(err, &r) || !r.Retryable() || strings.Contains(err.Error(), "timed out") || strings.Contains(err.Error(), "ran longer") {
			t.Errorf("%s under %s: %v is not a retryable fault of the database", tool, mode, err)
		}
		return mustWrite(t, e, "alice", tool, args)
	}
	count := func(q string, params map[string]any) int64 {
		return query(t, d, q, params)[0].Values[0].(int64)
	}
	keys := make([]string, concepts)
	for i := range concepts {
		name := fmt.Sprintf("c%d", i)
		exists := func() bool {
			return count("MATCH (c:Concept {user_id: 'alice', name: $n}) RETURN count(c)", map[string]any{"n": name}) > 0
		}
		keys[i] = do("create_concept", with(map[string]any{"name": name, "notes": "first"}), exists).EntityKey
		do("update_concept", with(map[string]any{"entity_key": keys[i], "notes": "second"}), func() bool {
			return count("MATCH (c:Concept {entity_key: $k, notes: 'second'}) RETURN count(c)", map[string]any{"k": keys[i]}) > 0
		})
	}
	for i := range concepts - 1 {
		rel := func(notes string) map[string]any {
			return with(map[string]any{"from_entity_key": keys[i], "to_entity_key": keys[i+1], "relationship_type": "relates_to", "properties": map[string]any{"notes": notes}})
		}
		between := map[string]any{"a": keys[i], "b": keys[i+1]}
		do("create_relationship", rel("first"), func() bool {
			return count("MATCH (:Concept {entity_key: $a})-[r:relates_to]->(:Concept {entity_key: $b}) RETURN count(r)", between) > 0
		})
		do("update_relationship", rel("second"), func() bool {
			return count("MATCH (:Concept {entity_key: $a})-[r:relates_to {notes: 'second'}]->(:Concept {entity_key: $b}) RETURN count(r)", between) > 0
		})
	}
	t.Logf("%d writes: %d commits unanswered (%d of them applied), %d refused connections; each retried until acknowledged", ops, unknown, unknownApplied, unavailable)
	if unknownApplied == 0 || unavailable == 0 {
		t.Errorf("the faults did not happen: %d applied writes reported unknown, %d unavailable", unknownApplied, unavailable)
	}
	if n := count("MATCH (c:Concept {user_id: 'alice'}) RETURN count(c)", nil); n != concepts {
		t.Errorf("%d concepts, want %d", n, concepts)
	}
	if n := count("MATCH (:Concept {user_id: 'alice'})-[r:relates_to]->() RETURN count(r)", nil); n != concepts-1 {
		t.Errorf("%d relationships, want %d", n, concepts-1)
	}
	for i, k := range keys {
		// created and updated, and the same for each relationship it ends.
		want := int64(2)
		if i > 0 {
			want += 2
		}
		if i < concepts-1 {
			want += 2
		}
		if n := count("MATCH (:Concept {entity_key: $k})-[:HAS_CHANGE]->(c:MemoryChange) RETURN count(c)", map[string]any{"k": k}); n != want {
			t.Errorf("concept %d has %d Changes, want %d: one per operation", i, n, want)
		}
	}
}

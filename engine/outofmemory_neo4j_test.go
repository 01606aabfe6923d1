package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestAStatementOverTheServersMemoryLimitIsACallErrorNamingWhatToNarrow
// runs, on the real server, a statement that needs more memory than one
// transaction may use (scripts/neo4j sets db.memory.transaction.max). Neo4j
// stops it with its out-of-memory error, and the agent receives a
// CallError pointing at the argument to narrow — not an internal error,
// and not after the driver retried it.
func TestAStatementOverTheServersMemoryLimitIsACallErrorNamingWhatToNarrow(t *testing.T) {
	d := neo4jtest.Open(t)
	limit := neo4jtest.RequireTransactionMemoryLimit(t, d)
	e := newEngine(t, d, "../testdata/configs/valid/code-rag.yaml", engine.Options{Tools: tools.Options{RawCypher: true, Capabilities: &tools.Capabilities{}}})
	_, err := e.Execute(context.Background(), engine.Call{Name: planner.RunCypher,
		Arguments: []byte(`{"query": "UNWIND range(1, 40000000) AS x WITH collect(x) AS xs RETURN size(xs) AS n"}`)})
	var ce *tools.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("with db.memory.transaction.max=%s: got %v (%T), want a CallError", limit, err, err)
	}
	if len(ce.Problems) == 0 || ce.Problems[0].Path != "/query" {
		t.Errorf("the error names %+v, want /query: %v", ce.Problems, ce)
	}
	t.Logf("db.memory.transaction.max=%s; the agent sees: %v", limit, ce)
}

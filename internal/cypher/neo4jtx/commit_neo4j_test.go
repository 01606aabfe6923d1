package neo4jtx_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestAWriteWhoseCommitGoesUnansweredSaysItMayHaveBeenApplied: through a
// proxy that drops Neo4j's answer to the COMMIT (and closes the
// connection, or holds it silent until the deadline), Write returns a
// CommitUnknownError saying the write may have been applied and that
// retrying is safe, never a timeout of the statement nor a plain
// failure, and the node it created is there; a connection cut before
// the commit is the database unavailable (retry) and nothing is applied.
func TestAWriteWhoseCommitGoesUnansweredSaysItMayHaveBeenApplied(t *testing.T) {
	direct := neo4jtest.Open(t)
	p := neo4jtest.NewProxy(t)
	d := p.Driver(t)
	count := func(id string) int64 {
		recs, err := neo4jtx.Query(context.Background(), direct, neo4jtest.Database(), neo4j.AccessModeRead, "MATCH (n:CommitProbe {id: $id}) RETURN count(n) AS c", map[string]any{"id": id})
		if err != nil {
			t.Fatal(err)
		}
		return recs[0].Values[0].(int64)
	}
	create := func(id string) func(tx neo4j.ManagedTransaction) (any, error) {
		return func(tx neo4j.ManagedTransaction) (any, error) {
			res, err := tx.Run(context.Background(), "CREATE (:CommitProbe {id: $id})", map[string]any{"id": id})
			if err != nil {
				return nil, err
			}
			_, err = res.Consume(context.Background())
			return nil, err
		}
	}
	for _, mode := range []neo4jtest.ProxyMode{neo4jtest.LoseCommitReply, neo4jtest.HoldCommitReply} {
		id := mode.String()
		if err := p.Set(mode); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err := neo4jtx.Write(context.Background(), d, neo4jtest.Database(), 2*time.Second, create(id))
		took := time.Since(start)
		var cu *neo4jtx.CommitUnknownError
		var to *neo4jtx.TimeoutError
		if !errors.As(err, &cu) || !errors.Is(err, neo4jtx.ErrCommitUnknown) || errors.As(err, &to) || !cu.Retryable() ||
			!strings.Contains(err.Error(), "may have been applied") || !strings.Contains(err.Error(), "retrying the same call is safe") {
			t.Errorf("%s: got %v, want a CommitUnknownError saying it may have been applied and retrying is safe", mode, err)
		}
		if took > 3*time.Second {
			t.Errorf("%s: Write took %v, more than its 2s timeout and a second", mode, took)
		}
		if n := count(id); n != 1 {
			t.Errorf("%s: %d nodes, want the 1 the unanswered commit applied", mode, n)
		}
		t.Logf("%s: %v after %v", mode, err, took.Round(time.Millisecond))
		if err := p.Set(neo4jtest.Forward); err != nil {
			t.Fatal(err)
		}
	}
	// Cut inside the work, before the commit: the driver retries until
	// the deadline; nothing committed, and the error says to retry.
	_, err := neo4jtx.Write(context.Background(), d, neo4jtest.Database(), 2*time.Second, func(tx neo4j.ManagedTransaction) (any, error) {
		if _, err := create("cut")(tx); err != nil {
			return nil, err
		}
		if err := p.Set(neo4jtest.Cut); err != nil {
			return nil, err
		}
		res, err := tx.Run(context.Background(), "RETURN 1", nil)
		if err != nil {
			return nil, err
		}
		_, err = res.Consume(context.Background())
		return nil, err
	})
	if !errors.Is(err, neo4jtx.ErrUnavailable) || errors.Is(err, neo4jtx.ErrCommitUnknown) {
		t.Errorf("cut before the commit: got %v, want the database unavailable", err)
	}
	if err := p.Set(neo4jtest.Forward); err != nil {
		t.Fatal(err)
	}
	if n := count("cut"); n != 0 {
		t.Errorf("cut before the commit: %d nodes, want none", n)
	}
}

package neo4jtx_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// ints reads a result's first column as int64s.
func ints(got *[]int64) func(neo4j.ResultWithContext) error {
	return func(res neo4j.ResultWithContext) error {
		*got = nil
		for res.Next(context.Background()) {
			*got = append(*got, res.Record().Values[0].(int64))
		}
		return res.Err()
	}
}

const threeRows = "UNWIND range(1, 3) AS i RETURN i"

// proxied returns a proxy to the test server, a driver through it, and
// ReadOne of a statement on that driver, which returns the rows. The
// driver's connection is open already: a first read opened it
// (handshake, HELLO, LOGON).
func proxied(t *testing.T) (*neo4jtest.Proxy, neo4j.DriverWithContext, func(cypher string) ([]int64, error)) {
	neo4jtest.Open(t)
	p := neo4jtest.NewProxy(t)
	d := p.Driver(t)
	readOne := func(cypher string) ([]int64, error) {
		var got []int64
		err := neo4jtx.ReadOne(context.Background(), d, neo4jtest.Database(), time.Minute, cypher, nil, ints(&got))
		return got, err
	}
	if _, err := readOne(threeRows); err != nil {
		t.Fatal(err)
	}
	return p, d, readOne
}

func TestReadOneTakesOneRoundTripWhereAManagedReadTakesThree(t *testing.T) {
	p, d, readOne := proxied(t)
	ctx := context.Background()
	before := p.Sends()
	got, err := readOne(threeRows)
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Sends() - before; n != 1 || !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("ReadOne: %d round trips, rows %v; want 1 round trip and rows [1 2 3]", n, got)
	}
	before = p.Sends()
	_, err = neo4jtx.Read(ctx, d, neo4jtest.Database(), time.Minute, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, threeRows, nil)
		if err != nil {
			return nil, err
		}
		return nil, ints(&got)(res)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Sends() - before; n != 3 {
		t.Errorf("the same statement in a managed read transaction (Read): %d round trips, want 3 (BEGIN; RUN and PULL; COMMIT)", n)
	}
}

func TestReadOneReadsAfterTheChainsBookmarksAndJoinsIt(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	var got []int64
	read := func(ctx context.Context) error {
		return neo4jtx.ReadOne(ctx, d, neo4jtest.Database(), 2*time.Second, threeRows, nil, ints(&got))
	}

	// The read's bookmark joins the chain.
	chain := neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{})
	if err := read(neo4jtx.WithBookmarks(ctx, chain)); err != nil {
		t.Fatal(err)
	}
	if b, _ := chain.GetBookmarks(ctx); len(b) != 1 || b[0] == "" {
		t.Fatalf("after ReadOne the chain holds %q, want the read's bookmark", b)
	}

	// The RUN carries the chain's bookmarks: one Neo4j did not issue is
	// refused before anything is read, and not retried.
	got = nil
	bad := neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{InitialBookmarks: []string{"not-a-bookmark"}})
	err := read(neo4jtx.WithBookmarks(ctx, bad))
	var ne *neo4j.Neo4jError
	if !errors.As(err, &ne) || ne.Code != "Neo.ClientError.Transaction.InvalidBookmark" || got != nil {
		t.Errorf("a bookmark Neo4j did not issue: got %v and rows %v, want InvalidBookmark and no rows", err, got)
	}

	// (One Neo4j has not reached holds the read until the deadline: see
	// cmd/ragforge-plan's TestThreeReplicasOnARoutingURI…, whose reads run
	// here.)
}

func TestReadOneRetriesAReadWhosePooledConnectionWasClosed(t *testing.T) {
	p, d, readOne := proxied(t)
	ctx := context.Background()
	cut := func() {
		t.Helper()
		if err := p.Set(neo4jtest.Cut); err != nil {
			t.Fatal(err)
		}
		if err := p.Set(neo4jtest.Forward); err != nil {
			t.Fatal(err)
		}
	}
	// What the driver does on its own with an auto-commit read on the
	// pooled connection the server closed: it fails.
	cut()
	s := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: neo4jtest.Database(), AccessMode: neo4j.AccessModeRead})
	// A managed read, which the driver retries, pools a live connection
	// again.
	_, err := s.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) { return tx.Run(ctx, "RETURN 1", nil) })
	if err != nil {
		t.Fatal(err)
	}
	cut()
	res, err := s.Run(ctx, threeRows, nil)
	if err == nil {
		_, err = res.Consume(ctx)
	}
	s.Close(ctx)
	if err == nil || !neo4j.IsRetryable(err) {
		t.Fatalf("a bare auto-commit read on a closed pooled connection: got %v, want a retryable failure (the case ReadOne retries)", err)
	}
	// ReadOne retries it and answers.
	if _, err := readOne(threeRows); err != nil {
		t.Fatal(err)
	}
	cut()
	if got, err := readOne(threeRows); err != nil || !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("ReadOne on a closed pooled connection: got %v and rows %v, want rows [1 2 3]", err, got)
	}
	if _, err := readOne("RETURN 1/0 AS i"); err == nil || !strings.Contains(err.Error(), "/ by zero") {
		t.Errorf("a statement Neo4j fails: got %v, want its error", err)
	}
}

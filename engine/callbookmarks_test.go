package engine_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
)

// TestReadAfterStartsACallsChainOrJoinsTheSessions: without a chain the
// given bookmarks start the call's own, which ChainBookmarks reads; with
// a session's chain they join it, beside what it held.
func TestReadAfterStartsACallsChainOrJoinsTheSessions(t *testing.T) {
	ctx := context.Background()
	if got := engine.ChainBookmarks(ctx); got != nil {
		t.Errorf("no chain: %v", got)
	}
	if got := engine.ChainBookmarks(engine.ReadAfter(ctx, []string{"FB:a"})); !slices.Equal(got, []string{"FB:a"}) {
		t.Errorf("a call's own chain: %v", got)
	}
	session := neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{InitialBookmarks: neo4j.Bookmarks{"FB:s"}})
	got := engine.ChainBookmarks(engine.ReadAfter(engine.WithBookmarkManager(ctx, session), []string{"FB:a"}))
	slices.Sort(got)
	if !slices.Equal(got, []string{"FB:a", "FB:s"}) {
		t.Errorf("a session's chain: %v", got)
	}
}

// TestBookmarkErrorExplainsOnlyWhatBookmarksCaused: an invalid bookmark
// becomes an error saying to send a result's unchanged; a deadline with
// bookmarks stays retryable and names them; other errors, and errors of
// calls given none, are unchanged.
func TestBookmarkErrorExplainsOnlyWhatBookmarksCaused(t *testing.T) {
	given := []string{"FB:x"}
	invalid := &neo4j.Neo4jError{Code: "Neo.ClientError.Transaction.InvalidBookmark", Msg: "Parsing of supplied bookmarks failed"}
	if err := engine.BookmarkError(invalid, given); err == nil || !strings.Contains(err.Error(), "unchanged") || errors.Is(err, engine.ErrUnavailable) {
		t.Errorf("invalid: %v", err)
	}
	late := &engine.UnavailableError{Cause: "no answer before the call's deadline", Err: &neo4j.ConnectivityError{Inner: context.DeadlineExceeded}}
	if err := engine.BookmarkError(late, given); !errors.Is(err, engine.ErrUnavailable) || !strings.Contains(err.Error(), "FB:x") {
		t.Errorf("late: %v", err)
	}
	refused := &engine.UnavailableError{Cause: "connection refused", Err: errors.New("dial tcp: connection refused")}
	for _, tc := range []struct {
		err   error
		given []string
	}{{refused, given}, {invalid, nil}, {late, nil}} {
		if err := engine.BookmarkError(tc.err, tc.given); err != tc.err {
			t.Errorf("BookmarkError(%v, %v) = %v, want it unchanged", tc.err, tc.given, err)
		}
	}
}

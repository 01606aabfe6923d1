package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
)

// Per-call bookmarks let a client that talks to many servers (replicas
// behind a load balancer, each with its own driver) read its own writes:
// a result carries the bookmarks of its transactions ([ChainBookmarks]),
// and a later call that hands them back ([ReadAfter]) reads only once
// the Neo4j member it reaches has applied them, whichever replica and
// member serve it. They travel on the context, as the session chains of
// [WithBookmarks] do, so no tool's signature knows of them.

// ReadAfter returns ctx whose call reads after bookmarks, the bookmarks
// an earlier call's result carried (from any server on the same Neo4j
// DBMS). They join the bookmark chain ctx carries (a session's), or
// start the call's own chain, which [ChainBookmarks] then reads. Neo4j
// checks them when the call's first transaction begins: a string it did
// not issue fails that transaction before it reads anything
// ([BookmarkError] says so).
func ReadAfter(ctx context.Context, bookmarks []string) context.Context {
	m := neo4jtx.Bookmarks(ctx)
	if m == nil {
		return WithBookmarkManager(ctx, neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{InitialBookmarks: bookmarks}))
	}
	if len(bookmarks) > 0 {
		// The default manager's update cannot fail.
		_ = m.UpdateBookmarks(ctx, nil, bookmarks)
	}
	return ctx
}

// ChainBookmarks returns the bookmarks of ctx's chain: after a call on a
// chain of its own ([ReadAfter]), those of its last transaction (or the
// ones it was given, if it ran none), which a client hands back to read
// after it. Nil when ctx carries no chain.
func ChainBookmarks(ctx context.Context) []string {
	m := neo4jtx.Bookmarks(ctx)
	if m == nil {
		return nil
	}
	b, err := m.GetBookmarks(ctx)
	if err != nil {
		return nil
	}
	return b
}

// invalidBookmark is Neo4j's code for a bookmark it cannot parse.
const invalidBookmark = "Neo.ClientError.Transaction.InvalidBookmark"

// BookmarkError explains the error of a call that was given bookmarks
// (err returned by Execute after [ReadAfter]) when they are its cause:
//
//   - a string Neo4j did not issue: Neo4j refuses the transaction before
//     it reads anything; the error says to send back the strings a
//     result carried, unchanged;
//   - no answer by the call's deadline, or Neo4j's own wait ended
//     (db.transaction.bookmark_ready_timeout): a member that has not
//     applied the bookmarks' transactions holds the read until it has,
//     so the error stays retryable ([ErrUnavailable]) and says what the
//     read may have waited for.
//
// (A bookmark of a database the server does not hold is ignored by
// Neo4j 5: the read does not wait for it, and there is no error.) Other
// errors, and every error of a call given no bookmarks, are returned
// unchanged.
func BookmarkError(err error, bookmarks []string) error {
	if err == nil || len(bookmarks) == 0 {
		return err
	}
	var ne *neo4j.Neo4jError
	if errors.As(err, &ne) && ne.Code == invalidBookmark {
		return fmt.Errorf("the bookmarks this call sent back are not bookmarks Neo4j issued (%s: %s): nothing was read; send back the strings a result's bookmarks held, unchanged, or none", ne.Code, ne.Msg)
	}
	var un *UnavailableError
	if errors.As(err, &un) && (deadlinePassed(err) || strings.Contains(un.Cause, "BookmarkTimeout")) {
		return &UnavailableError{
			Cause: fmt.Sprintf("this call sent back bookmarks (%s) and Neo4j did not answer by the deadline: a member that has not applied their transactions yet "+
				"holds the read until it has (retry), and a bookmark from another Neo4j deployment is never reached (send none); %s", strings.Join(bookmarks, ", "), un.Cause),
			Err: err,
		}
	}
	return err
}

// deadlinePassed reports whether err is the call's deadline, also as the
// driver reports it: a ConnectivityError, which does not unwrap, around
// the context's error.
func deadlinePassed(err error) bool {
	var ce *neo4j.ConnectivityError
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ce) && errors.Is(ce.Inner, context.DeadlineExceeded)
}

// Package neo4jtx opens the transactions of tool calls. Every read and
// write a tool call makes on Neo4j (the engine's statements, run_cypher's
// EXPLAIN check, traverse, the write, tree and explore tools) goes through
// [Read] or [Write] (or [ReadOne], a read of one statement in one round
// trip), so that all of them, in one place:
//
//   - keep to the call's deadline: the transaction timeout Neo4j enforces
//     is what is left of the context's deadline, and connection waits and
//     driver retries end with the context (docs/design.md, invariant 9);
//   - join the call's bookmark chain ([WithBookmarks]), so a read that a
//     cluster routes to another member sees the writes before it;
//   - route reads to readers (read access mode) and writes to the leader;
//   - report failures the same way ([Classify]): a database that cannot
//     be reached is an [*UnavailableError] (retryable), a statement that
//     ran past the deadline a [*TimeoutError], a statement Neo4j ran out of
//     memory for an [*OutOfMemoryError], and a write whose commit was sent
//     but never answered (the connection lost, the deadline passed) a
//     [*CommitUnknownError]: it may have been applied.
//
// Statements outside a tool call (materialization, introspection, schema
// apply, capability checks) run through [Query] instead: neo4j.ExecuteQuery's
// semantics, on a session; those that need a session of their own open it
// with [Session], on the same bookmark chain.
package neo4jtx

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// DefaultTimeout is the transaction timeout of one tool call when its
// options set none: engine.Options.Timeout's default, and the default of
// every handler package (write, traverse, explore, similar, history,
// analytics) used without the engine.
const DefaultTimeout = 30 * time.Second

type bookmarksKey struct{}

// WithBookmarks returns ctx carrying m: every transaction opened with the
// returned context (or one derived from it) starts after the writes m has
// seen and adds its own, so the transactions of one chain are causally
// ordered on a cluster.
func WithBookmarks(ctx context.Context, m neo4j.BookmarkManager) context.Context {
	return context.WithValue(ctx, bookmarksKey{}, m)
}

// Bookmarks returns the bookmark manager ctx carries, nil if none.
func Bookmarks(ctx context.Context) neo4j.BookmarkManager {
	m, _ := ctx.Value(bookmarksKey{}).(neo4j.BookmarkManager)
	return m
}

// Phase is what a call is doing on the database.
type Phase int32

const (
	// Idle: no transaction is open (embedding, planning, a handler's own
	// work).
	Idle Phase = iota
	// Waiting: a transaction is being opened and its first statement sent,
	// and the server has not answered yet (connecting, retrying).
	Waiting
	// Running: the server accepted a statement of the current attempt and
	// is running it.
	Running
	// Committing: a write's work is done and its commit is sent; until
	// Neo4j answers, whether the write was applied is unknown.
	Committing
)

// Tracker records the phase of one call's transactions, so that a caller
// whose deadline comes while a transaction is still under way can tell a
// database that never answered from a statement that ran too long.
type Tracker struct{ phase atomic.Int32 }

type trackerKey struct{}

// Track returns ctx carrying a new Tracker, and the tracker.
func Track(ctx context.Context) (context.Context, *Tracker) {
	t := &Tracker{}
	return context.WithValue(ctx, trackerKey{}, t), t
}

// Phase returns the phase of the call's transaction under way.
func (t *Tracker) Phase() Phase { return Phase(t.phase.Load()) }

func (t *Tracker) set(p Phase) { t.phase.Store(int32(p)) }

// tracker returns ctx's tracker, or a new one for this transaction alone.
func tracker(ctx context.Context) *Tracker {
	if t, ok := ctx.Value(trackerKey{}).(*Tracker); ok {
		return t
	}
	return &Tracker{}
}

// Read runs work in a read transaction (routed to a reader on a cluster)
// on database; see [Write].
func Read(ctx context.Context, d neo4j.DriverWithContext, database string, timeout time.Duration, work neo4j.ManagedTransactionWork) (any, error) {
	return run(ctx, d, database, neo4j.AccessModeRead, timeout, work)
}

// Write runs work in a write transaction on database. timeout, when
// positive, bounds the transaction if ctx's deadline is later or absent;
// the transaction timeout sent to Neo4j is the time left until the
// earlier of the two, so the server stops the statement when the caller
// stops waiting. The session joins the bookmark chain of ctx
// ([WithBookmarks]). A failure is classified by [Classify]; work's own
// errors come back as work returned them. A nil d is [ErrNoDriver].
func Write(ctx context.Context, d neo4j.DriverWithContext, database string, timeout time.Duration, work neo4j.ManagedTransactionWork) (any, error) {
	return run(ctx, d, database, neo4j.AccessModeWrite, timeout, work)
}

func run(ctx context.Context, d neo4j.DriverWithContext, database string, mode neo4j.AccessMode, timeout time.Duration, work neo4j.ManagedTransactionWork) (any, error) {
	ctx, cancel, txOpts, err := bound(ctx, d, timeout)
	if err != nil {
		return nil, err
	}
	defer cancel()
	tr := tracker(ctx)
	tr.set(Waiting)
	defer tr.set(Idle)
	sess := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: database, AccessMode: mode, BookmarkManager: Bookmarks(ctx)})
	defer sess.Close(ctx)
	body := func(tx neo4j.ManagedTransaction) (any, error) {
		// Each attempt (the driver retries) waits for its own answer.
		tr.set(Waiting)
		out, err := work(trackedTx{tx, tr})
		switch {
		case err != nil && ctx.Err() == nil && neo4j.IsRetryable(err):
			// The driver retries: the next attempt waits for a connection
			// again. (A read the deadline cut is not retried; it stays
			// Running, for Classify.)
			tr.set(Waiting)
		case err != nil:
		case mode == neo4j.AccessModeWrite:
			// The driver commits once the work returns.
			tr.set(Committing)
		}
		return out, stopRetry(err)
	}
	var out any
	if mode == neo4j.AccessModeRead {
		out, err = sess.ExecuteRead(ctx, body, txOpts...)
	} else {
		out, err = sess.ExecuteWrite(ctx, body, txOpts...)
	}
	if err != nil {
		if tr.Phase() == Committing && !serverAnswered(err) {
			return nil, &CommitUnknownError{Cause: describeCommit(ctx, err), Err: err}
		}
		return nil, Classify(ctx, d, err, tr.Phase() == Running)
	}
	return out, nil
}

// bound returns ctx bounded by timeout (when positive and earlier than
// ctx's own deadline), its cancel, and the transaction timeout to send
// Neo4j: the time left until the deadline, so the server stops the
// statement when the caller stops waiting. A nil d is [ErrNoDriver]; a
// deadline already passed is classified here, as Neo4j reads a zero
// timeout as "none".
func bound(ctx context.Context, d neo4j.DriverWithContext, timeout time.Duration) (context.Context, context.CancelFunc, []func(*neo4j.TransactionConfig), error) {
	if d == nil {
		return ctx, func() {}, nil, ErrNoDriver
	}
	cancel := context.CancelFunc(func() {})
	if timeout > 0 {
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > timeout {
			ctx, cancel = context.WithTimeout(ctx, timeout)
		}
	}
	dl, ok := ctx.Deadline()
	if !ok {
		return ctx, cancel, nil, nil
	}
	left := time.Until(dl).Truncate(time.Millisecond)
	if left <= 0 {
		cancel()
		return ctx, func() {}, nil, Classify(ctx, d, context.DeadlineExceeded, false)
	}
	return ctx, cancel, []func(*neo4j.TransactionConfig){neo4j.WithTxTimeout(left)}, nil
}

// trackedTx is a transaction that marks the call Running once the server
// has answered a statement (a RUN's reply arrives after Neo4j planned it
// and started it).
type trackedTx struct {
	neo4j.ManagedTransaction
	tr *Tracker
}

func (t trackedTx) Run(ctx context.Context, cypher string, params map[string]any) (neo4j.ResultWithContext, error) {
	res, err := t.ManagedTransaction.Run(ctx, cypher, params)
	if err == nil {
		t.tr.set(Running)
	}
	return res, err
}

// Query runs cypher as neo4j.ExecuteQuery runs it — one managed
// transaction in mode on database, retried as the driver retries, joined
// to the driver's ExecuteQuery bookmark chain — and returns its records,
// for the statements ragforge runs outside a tool call (materialization,
// introspection, schema apply, capability checks). It opens a session
// rather than calling neo4j.ExecuteQuery, which runs through a method the
// driver does not export, so that a driver wrapping sessions sees every
// statement: the tests' driver fails any statement Neo4j reports as
// deprecated. ctx bounds it; no transaction timeout is set.
func Query(ctx context.Context, d neo4j.DriverWithContext, database string, mode neo4j.AccessMode, cypher string, params map[string]any) ([]*neo4j.Record, error) {
	if d == nil {
		return nil, ErrNoDriver
	}
	sess := Session(ctx, d, database, mode)
	defer sess.Close(ctx)
	work := func(tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		res, err := tx.Run(ctx, cypher, params)
		if err != nil {
			return nil, err
		}
		return res.Collect(ctx)
	}
	if mode == neo4j.AccessModeRead {
		return neo4j.ExecuteRead(ctx, sess, work)
	}
	return neo4j.ExecuteWrite(ctx, sess, work)
}

// Session opens a session in mode on database, joined to the driver's
// ExecuteQuery bookmark chain as Query's are, for the statements outside
// a tool call that need a session of their own (auto-commit for CALL …
// IN TRANSACTIONS, streamed reads, several transactions in a row): a read
// routed to a cluster's reader then sees the writes before it, and Query
// sees theirs.
func Session(ctx context.Context, d neo4j.DriverWithContext, database string, mode neo4j.AccessMode) neo4j.SessionWithContext {
	return d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: database, AccessMode: mode, BookmarkManager: d.ExecuteQueryBookmarkManager()})
}

package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/tools"
)

// ErrUnavailable is what errors.Is finds in the error of a call that could
// not reach the database (see [UnavailableError]).
var ErrUnavailable = neo4jtx.ErrUnavailable

// UnavailableError is the error of a call that could not reach the
// database before its deadline: connections refused, cut or unanswered,
// the driver out of retries, a server still starting, a cluster without a
// leader. Nothing is wrong with the call: Retryable reports true, and the
// same call may succeed in a few seconds, on the same engine. Its message
// says so ("the database is unavailable (…); retry in a few seconds"),
// Cause says what the driver saw and Unwrap returns the driver's error.
type UnavailableError = neo4jtx.UnavailableError

// ErrCommitUnknown is what errors.Is finds in the error of a write whose
// commit went unanswered (see [CommitUnknownError]).
var ErrCommitUnknown = neo4jtx.ErrCommitUnknown

// CommitUnknownError is the error of a write whose commit was sent and
// never answered (the connection lost, or the deadline passed, during the
// commit): it may have been applied. Retryable reports true: every write
// tool is idempotent, so the same call applies it once.
type CommitUnknownError = neo4jtx.CommitUnknownError

// WithBookmarks returns ctx carrying a new bookmark chain: every call
// Executed with the returned context (or one derived from it) sees the
// writes of the calls before it in the chain, even on a cluster that
// sends its reads to another member than the one that took the write.
// Start one chain per conversation or user session (the MCP server keeps
// one per MCP session); a call made without one chains only its own
// transactions.
//
// Chaining costs a reader the wait until it has caught up with the
// chain's last write, so calls that need not see each other's writes are
// better off in different chains.
func WithBookmarks(ctx context.Context) context.Context {
	return WithBookmarkManager(ctx, neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{}))
}

// WithBookmarkManager returns ctx carrying m as the bookmark chain of its
// calls (see [WithBookmarks]): pass the driver's
// ExecuteQueryBookmarkManager to chain tool calls after the application's
// own neo4j.ExecuteQuery writes, or a manager shared with other sessions.
func WithBookmarkManager(ctx context.Context, m neo4j.BookmarkManager) context.Context {
	return neo4jtx.WithBookmarks(ctx, m)
}

// deadlineGrace is how long Execute waits, after the deadline, for the
// call's work to report what stopped it.
const deadlineGrace = 250 * time.Millisecond

// deadlineError is the error of a call whose work did not return by its
// deadline, judged by what its transaction was doing.
func (e *Engine) deadlineError(ctx context.Context, tr *neo4jtx.Tracker) error {
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("engine: call abandoned: %w", ctx.Err())
	}
	switch tr.Phase() {
	case neo4jtx.Waiting:
		return neo4jtx.Classify(context.Background(), e.opts.Driver, context.DeadlineExceeded, false)
	case neo4jtx.Running:
		return &neo4jtx.TimeoutError{Err: context.DeadlineExceeded}
	case neo4jtx.Committing:
		return &neo4jtx.CommitUnknownError{Cause: "the call's deadline passed before Neo4j answered the commit", Err: context.DeadlineExceeded}
	}
	return context.DeadlineExceeded
}

// callError gives a failed call's error the form its reader acts on: the
// database unavailable and a write's commit unanswered as the retryable
// errors themselves (whichever handler met them), out of memory as a CallError naming the arguments that narrow
// the work, a failure of an agent-written statement that readonly.Fault
// finds its fault (refused, unplannable, refused by Neo4j as it ran,
// past the deadline) as a CallError on the statement, and any other
// statement past the deadline as the timeout. It is the one place that
// decides for run_cypher and traverse alike, whether the handler returned
// the error or the deadline came first.
func (e *Engine) callError(ctx context.Context, tool string, err error) error {
	var un *UnavailableError
	var cu *CommitUnknownError
	var to *neo4jtx.TimeoutError
	var oom *neo4jtx.OutOfMemoryError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &cu):
		return cu
	case errors.As(err, &un):
		return un
	case errors.As(err, &oom):
		return e.narrowError(tool, oom)
	}
	if arg := e.statementArg(tool); arg != "" {
		if msg, ok := readonly.Fault(err); ok {
			return tools.Fail(tool, arg, nil, "%s", msg)
		}
	}
	switch {
	case errors.As(err, &to), errors.Is(err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("engine: %s timed out (the call took longer than the configured timeout of %v): %w", tool, e.opts.Timeout, err)
	}
	return err
}

// narrowError is the CallError of a call Neo4j ran out of memory for: one
// problem per argument that narrows the tool's work, with the advice its
// declaration gives (tools.Schema.Narrow, listed by Tool.Narrowing).
func (e *Engine) narrowError(tool string, oom *neo4jtx.OutOfMemoryError) error {
	const head = "Neo4j ran out of memory running this call"
	if arg := e.statementArg(tool); arg != "" {
		return tools.Fail(tool, arg, nil, "%s; match fewer nodes early, add LIMIT, or aggregate instead of returning rows", head)
	}
	ce := &tools.CallError{Tool: tool}
	if t := e.catalog.Tool(tool); t != nil {
		for _, n := range t.Narrowing() {
			ce.Problems = append(ce.Problems, tools.Problem{Path: "/" + n.Arg, Message: fmt.Sprintf("%s; ask for %s", head, n.Advice)})
		}
	}
	if len(ce.Problems) == 0 {
		ce.Problems = []tools.Problem{{Message: head + " (" + oom.Code + "); ask for less"}}
	}
	return ce
}

package neo4jtx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// ErrNoDriver is the error of a tool call made without a Neo4j driver: an
// engine or a handler built with none (to list or plan the tools offline,
// as `ragforge-plan tools` does) can describe its tools but not run them.
// Every handler returns this one error (engine.ErrNoDriver is the same
// value), and so do [Read] and [Write] given a nil driver, so a caller
// tests for it with errors.Is whichever tool it called.
var ErrNoDriver = errors.New("no Neo4j driver configured: the tools can be listed and planned but not run")

// ErrUnavailable is what errors.Is finds in every [*UnavailableError].
var ErrUnavailable = errors.New("the database is unavailable")

// UnavailableError is a call that could not reach the database: no
// connection before the deadline, connections refused or cut, the driver
// out of retries, a server still starting or a cluster without a leader.
// The call did not run (or its transaction did not commit), nothing is
// wrong with it, and the same call may succeed in a few seconds.
type UnavailableError struct {
	// Cause says what the driver saw, for the operator.
	Cause string
	// Err is the driver's error.
	Err error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("the database is unavailable (%s); retry in a few seconds", e.Cause)
}

// Unwrap returns the driver's error.
func (e *UnavailableError) Unwrap() error { return e.Err }

// Is reports target == ErrUnavailable.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// Retryable is true: the call can be made again unchanged.
func (e *UnavailableError) Retryable() bool { return true }

// ErrCommitUnknown is what errors.Is finds in every [*CommitUnknownError].
var ErrCommitUnknown = errors.New("the write's commit outcome is unknown")

// CommitUnknownError is a write whose commit was sent and never answered:
// the connection was lost, or the call's deadline passed, after the work
// was done and before Neo4j said whether it committed. The write may have
// been applied or not; the caller cannot tell and must not be told it
// failed. Retrying the same call is safe: every write tool is idempotent
// (a retried create finds the node it made, a retried update sets the
// same values, and neither records a second Change).
type CommitUnknownError struct {
	// Cause says what the driver saw, for the operator.
	Cause string
	// Err is the driver's error.
	Err error
}

func (e *CommitUnknownError) Error() string {
	return fmt.Sprintf("the database stopped answering while this write was committing (%s): it may have been applied or not; "+
		"retrying the same call is safe, as every write tool is idempotent (a retry finds what the first attempt wrote and records no second change)", e.Cause)
}

// Unwrap returns the driver's error.
func (e *CommitUnknownError) Unwrap() error { return e.Err }

// Is reports target == ErrCommitUnknown.
func (e *CommitUnknownError) Is(target error) bool { return target == ErrCommitUnknown }

// Retryable is true: the same call can be made again, and applies once.
func (e *CommitUnknownError) Retryable() bool { return true }

// serverAnswered reports whether err is Neo4j's own answer (a FAILURE):
// a commit Neo4j refused was not applied.
func serverAnswered(err error) bool {
	var ne *neo4j.Neo4jError
	return errors.As(err, &ne)
}

// describeCommit says why a commit went unanswered.
func describeCommit(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "the call's deadline passed before Neo4j answered the commit"
	}
	var limit *neo4j.TransactionExecutionLimit
	if errors.As(err, &limit) {
		if last := lastCause(limit.Errors); last != nil {
			err = last
		}
	}
	return describe(err)
}

// TimeoutError is a statement that the server accepted and that ran past
// the transaction timeout (the call's deadline): the call asked for too
// much work, not the database's fault.
type TimeoutError struct{ Err error }

func (e *TimeoutError) Error() string {
	return "the statement ran longer than the call's timeout: " + e.Err.Error()
}

// Unwrap returns the driver's error.
func (e *TimeoutError) Unwrap() error { return e.Err }

// OutOfMemoryError is a statement Neo4j stopped because it needed more
// memory than the transaction or the server's pool may use: the call must
// ask for less (a smaller limit or depth, tighter conditions).
//
// It keeps Neo4j's code and message but deliberately has no Unwrap: the
// server's error is transient, and the driver retries whatever unwraps to
// a transient error, which here would run the same statement out of memory
// again until the deadline.
type OutOfMemoryError struct {
	Code, Msg string
}

func (e *OutOfMemoryError) Error() string {
	return fmt.Sprintf("Neo4j ran out of memory running the statement (%s: %s)", e.Code, e.Msg)
}

// outOfMemoryCodes are Neo4j 5's codes for a statement out of memory.
var outOfMemoryCodes = []string{
	"Neo.TransientError.General.MemoryPoolOutOfMemoryError",
	"Neo.TransientError.General.TransactionOutOfMemoryError",
	"Neo.TransientError.General.TransactionMemoryLimit",
	"Neo.TransientError.General.OutOfMemoryError",
}

// timeoutCodes are Neo4j's codes for a transaction stopped by its timeout.
var timeoutCodes = []string{
	"Neo.ClientError.Transaction.TransactionTimedOut",
	"Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
}

// unavailableCode reports whether a server error means the database (or
// the cluster member) cannot serve the transaction now, though it will:
// starting, stopping, no leader, a follower behind the chain's bookmark.
func unavailableCode(code string) bool {
	return strings.HasSuffix(code, ".DatabaseUnavailable") ||
		strings.HasPrefix(code, "Neo.TransientError.Cluster.") ||
		code == "Neo.ClientError.Cluster.NotALeader" ||
		code == "Neo.ClientError.General.ForbiddenOnReadOnlyDatabase" ||
		code == "Neo.TransientError.Transaction.BookmarkTimeout"
}

// StatementFault returns Neo4j's message when err is Neo4j refusing a
// statement as wrong in itself, which its author can fix and no one else
// can. It is the one reading of that question, whether Neo4j answered
// EXPLAIN (package readonly's PlanError) or the run (run_cypher and
// traverse answer the agent with a CallError on its statement):
//
//   - every Neo.ClientError.Statement.* code: syntax, semantics, types,
//     arithmetic (RETURN 1/0, an overflow), a bad argument, a missing
//     parameter, a write in a read transaction, a property or entity
//     that is not there, an external resource it cannot load;
//   - Neo.ClientError.Procedure.ProcedureNotFound: a procedure the server
//     lacks, misspelt like a function is (a Statement error);
//   - Neo.ClientError.Procedure.ProcedureCallFailed: a procedure refusing
//     its arguments (an index that does not exist, a query the index
//     cannot parse, a vector of the wrong dimension).
//
// Every other error is not the statement's fault: the server's
// (DatabaseError, TransientError), the connection's, the operator's (a
// security error, a database that does not exist), and the timeout and
// out-of-memory errors [Classify] names.
func StatementFault(err error) (string, bool) {
	var ne *neo4j.Neo4jError
	if errors.As(err, &ne) && (strings.HasPrefix(ne.Code, "Neo.ClientError.Statement.") ||
		ne.Code == "Neo.ClientError.Procedure.ProcedureNotFound" ||
		ne.Code == "Neo.ClientError.Procedure.ProcedureCallFailed") {
		return ne.Msg, true
	}
	return "", false
}

// stopRetry turns an out-of-memory error of the work into one the driver
// does not retry (see [OutOfMemoryError]).
func stopRetry(err error) error {
	var ne *neo4j.Neo4jError
	if err != nil && errors.As(err, &ne) && slices.Contains(outOfMemoryCodes, ne.Code) {
		return &OutOfMemoryError{Code: ne.Code, Msg: ne.Msg}
	}
	return err
}

// Classify is the one reading of a failed tool-call transaction (or of a
// startup check of the connection):
//
//   - an out-of-memory statement: [*OutOfMemoryError];
//   - Neo4j's transaction timeout, or the deadline of ctx passing after
//     the server answered the statement (answered) while the connection
//     still held: [*TimeoutError];
//   - the deadline passing before the server answered, connectivity
//     errors at any stage (refused, reset, closed, no connection from the
//     pool, a connection lost while the statement ran), the driver out of
//     retries, a database starting or without a leader:
//     [*UnavailableError], naming d's address; a connection lost is never
//     the statement's timeout, whenever the deadline passed;
//   - anything else (a cancelled ctx, a bad statement, a security error,
//     the work's own errors) comes back unchanged.
func Classify(ctx context.Context, d neo4j.DriverWithContext, err error, answered bool) error {
	if err == nil {
		return nil
	}
	var oom *OutOfMemoryError
	var to *TimeoutError
	var un *UnavailableError
	if errors.As(err, &oom) || errors.As(err, &to) || errors.As(err, &un) {
		return err
	}
	ctxDeadline := errors.Is(ctx.Err(), context.DeadlineExceeded)
	var limit *neo4j.TransactionExecutionLimit
	if errors.As(err, &limit) {
		// The driver retried a retryable failure until it gave up; its last
		// real error says which.
		last := lastCause(limit.Errors)
		var ne *neo4j.Neo4jError
		switch {
		case last != nil && errors.As(last, &ne) && slices.Contains(outOfMemoryCodes, ne.Code):
			return &OutOfMemoryError{Code: ne.Code, Msg: ne.Msg}
		case ctxDeadline && answered && !lost(last):
			return &TimeoutError{Err: err}
		case last != nil:
			return &UnavailableError{Cause: describe(last), Err: err}
		}
		return unanswered(ctx, d, err)
	}
	var ne *neo4j.Neo4jError
	if errors.As(err, &ne) {
		switch {
		case slices.Contains(outOfMemoryCodes, ne.Code):
			return &OutOfMemoryError{Code: ne.Code, Msg: ne.Msg}
		case slices.Contains(timeoutCodes, ne.Code):
			return &TimeoutError{Err: err}
		case unavailableCode(ne.Code):
			return &UnavailableError{Cause: ne.Code + ": " + ne.Msg, Err: err}
		}
		return err
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return err
	}
	switch {
	// The driver reports a deadline as the context's error, or as a read
	// or write on the connection that timed out.
	case errors.Is(err, context.DeadlineExceeded) || ctxDeadline && connectivity(err) && !lost(err):
		if answered {
			return &TimeoutError{Err: err}
		}
		return unanswered(ctx, d, err)
	case connectivity(err):
		return &UnavailableError{Cause: describe(err), Err: err}
	}
	return err
}

// unanswered is the error of a deadline that passed before the server
// answered. errors.Is finds the deadline in it even when the driver
// reported it as a read that timed out (a ConnectivityError around an
// error that does not unwrap), as an auto-commit read ([ReadOne]) cut
// while it waits for its bookmarks does; only when ctx's deadline has
// passed, so a call its caller cancelled never reads as a deadline.
func unanswered(ctx context.Context, d neo4j.DriverWithContext, err error) error {
	where := "the server"
	if d != nil {
		u := d.Target()
		where = u.Scheme + "://" + u.Host
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%w: %w", context.DeadlineExceeded, err)
	}
	return &UnavailableError{Cause: "no answer from " + where + " before the call's deadline", Err: err}
}

// lastCause returns the last error of a retry sequence that is not the
// context's own.
func lastCause(errs []error) error {
	for i := len(errs) - 1; i >= 0; i-- {
		if e := errs[i]; e != nil && !errors.Is(e, context.DeadlineExceeded) && !errors.Is(e, context.Canceled) {
			return e
		}
	}
	return nil
}

// connectivity reports errors of the connection itself: the driver's
// ConnectivityError (refused, reset, pool timeouts, no routing table),
// network errors and a connection closed mid-message.
func connectivity(err error) bool {
	var ce *neo4j.ConnectivityError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// lost reports a connection that failed rather than one whose read the
// deadline cut: closed by the server, reset, refused, or any network
// error other than a timeout.
func lost(err error) bool {
	if err == nil {
		return false
	}
	var ce *neo4j.ConnectivityError
	if errors.As(err, &ce) && ce.Inner != nil {
		err = ce.Inner
	}
	var ne net.Error
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &ne) && !ne.Timeout()
}

// describe says what err is, without the driver's type prefix.
func describe(err error) string {
	var ce *neo4j.ConnectivityError
	if errors.As(err, &ce) && ce.Inner != nil {
		err = ce.Inner
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "the server closed the connection"
	}
	return err.Error()
}

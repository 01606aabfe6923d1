package neo4jtx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// The shared test server cannot be made to run out of memory without
// changing its settings (db.memory.transaction.max) under the other
// tests, so these tests classify the driver's own error values, with the
// codes Neo4j 5.26 sends.

func TestOutOfMemoryIsNotRetriedAndIsClassifiedAsSuch(t *testing.T) {
	for _, code := range outOfMemoryCodes {
		ne := &neo4j.Neo4jError{Code: code, Msg: "The allocation of an extra 2.0 MiB would use more than the limit 10.0 MiB."}
		if !neo4j.IsRetryable(ne) {
			t.Fatalf("%s: the driver does not retry it; stopRetry is not needed", code)
		}
		stopped := stopRetry(fmt.Errorf("reading: %w", ne))
		if neo4j.IsRetryable(stopped) {
			t.Errorf("%s: the driver would retry %v", code, stopped)
		}
		var oom *OutOfMemoryError
		if got := Classify(context.Background(), nil, stopped, true); !errors.As(got, &oom) || oom.Code != code {
			t.Errorf("%s: classified as %v", code, got)
		}
		// Out of retries (an OOM at commit is retried by the driver).
		limit := &neo4j.TransactionExecutionLimit{Cause: "timeout", Errors: []error{ne, context.DeadlineExceeded}}
		if got := Classify(context.Background(), nil, limit, true); !errors.As(got, &oom) {
			t.Errorf("%s after retries: classified as %v", code, got)
		}
	}
}

func TestClassifyTellsAnUnavailableDatabaseFromASlowStatement(t *testing.T) {
	expired, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	syntax := &neo4j.Neo4jError{Code: "Neo.ClientError.Statement.SyntaxError", Msg: "Invalid input"}
	own := errors.New("the work's own error")
	for _, c := range []struct {
		name     string
		ctx      context.Context
		err      error
		answered bool
		want     string // unavailable, timeout or same
	}{
		{"refused", context.Background(), &neo4j.ConnectivityError{Inner: errors.New("dial tcp: connection refused")}, false, "unavailable"},
		{"closed", context.Background(), &neo4j.ConnectivityError{Inner: io.EOF}, false, "unavailable"},
		{"starting", context.Background(), &neo4j.Neo4jError{Code: "Neo.TransientError.General.DatabaseUnavailable", Msg: "Database 'neo4j' is unavailable."}, false, "unavailable"},
		{"no leader", context.Background(), &neo4j.Neo4jError{Code: "Neo.ClientError.Cluster.NotALeader", Msg: "No write operations are allowed"}, false, "unavailable"},
		{"follower behind", context.Background(), &neo4j.Neo4jError{Code: "Neo.TransientError.Transaction.BookmarkTimeout", Msg: "Bookmark wait timed out"}, false, "unavailable"},
		{"retries exhausted", context.Background(), &neo4j.TransactionExecutionLimit{Cause: "timeout", Errors: []error{io.EOF, io.EOF}}, false, "unavailable"},
		{"deadline before an answer", expired, context.DeadlineExceeded, false, "unavailable"},
		{"read timed out before an answer", expired, &neo4j.ConnectivityError{Inner: errors.New("i/o timeout")}, false, "unavailable"},
		{"deadline while running", expired, context.DeadlineExceeded, true, "timeout"},
		{"retries of a connection lost while running, stopped by the deadline", expired, &neo4j.TransactionExecutionLimit{Cause: "context deadline exceeded", Errors: []error{io.EOF}}, true, "unavailable"},
		{"retries of a read the deadline cut while running", expired, &neo4j.TransactionExecutionLimit{Cause: "context deadline exceeded", Errors: []error{errors.New("read cut")}}, true, "timeout"},
		{"connection closed while running, past the deadline", expired, &neo4j.ConnectivityError{Inner: io.EOF}, true, "unavailable"},
		{"connection reset while running, past the deadline", expired, &neo4j.ConnectivityError{Inner: &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}}, true, "unavailable"},
		{"read cut by the deadline while running", expired, &neo4j.ConnectivityError{Inner: errors.New("Timeout while reading from connection")}, true, "timeout"},
		{"server timeout", context.Background(), &neo4j.Neo4jError{Code: "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration", Msg: "terminated"}, true, "timeout"},
		{"bad statement", context.Background(), syntax, true, "same"},
		{"wrong password", context.Background(), &neo4j.Neo4jError{Code: "Neo.ClientError.Security.Unauthorized", Msg: "The client is unauthorized"}, false, "same"},
		{"caller gone", cancelled, context.Canceled, false, "same"},
		{"work's own error past the deadline", expired, own, true, "same"},
	} {
		got := Classify(c.ctx, nil, c.err, c.answered)
		var to *TimeoutError
		switch c.want {
		case "unavailable":
			var ue *UnavailableError
			if !errors.Is(got, ErrUnavailable) || !errors.As(got, &ue) || !ue.Retryable() {
				t.Errorf("%s: got %v, want the database unavailable", c.name, got)
			}
		case "timeout":
			if !errors.As(got, &to) {
				t.Errorf("%s: got %v, want a timeout", c.name, got)
			}
		case "same":
			if got != c.err {
				t.Errorf("%s: got %v, want %v unchanged", c.name, got, c.err)
			}
		}
	}
	// A read the deadline cut before Neo4j answered is the deadline too,
	// though the driver's error around it does not unwrap to it.
	if got := Classify(expired, nil, &neo4j.ConnectivityError{Inner: errors.New("Timeout while reading from connection")}, false); !errors.Is(got, context.DeadlineExceeded) || !errors.Is(got, ErrUnavailable) {
		t.Errorf("a read the deadline cut before an answer: got %v, want the database unavailable and the deadline", got)
	}
	if msg, ok := StatementFault(fmt.Errorf("wrapped: %w", syntax)); !ok || msg != "Invalid input" {
		t.Errorf("StatementFault = %q, %v", msg, ok)
	}
}

// TestStatementFaultIsTheStatementsAndNothingElse: every client error of
// the Statement class, an unknown procedure and a procedure refusing its
// arguments are the statement's fault (its author gets Neo4j's message);
// the server's, the operator's, the timeout and out of memory are not.
func TestStatementFaultIsTheStatementsAndNothingElse(t *testing.T) {
	for code, fault := range map[string]bool{
		"Neo.ClientError.Statement.SyntaxError":                 true,
		"Neo.ClientError.Statement.SemanticError":               true,
		"Neo.ClientError.Statement.ArithmeticError":             true,
		"Neo.ClientError.Statement.TypeError":                   true,
		"Neo.ClientError.Statement.ArgumentError":               true,
		"Neo.ClientError.Statement.ParameterMissing":            true,
		"Neo.ClientError.Statement.AccessMode":                  true,
		"Neo.ClientError.Statement.PropertyNotFound":            true,
		"Neo.ClientError.Statement.EntityNotFound":              true,
		"Neo.ClientError.Statement.ExternalResourceFailed":      true,
		"Neo.ClientError.Procedure.ProcedureNotFound":           true,
		"Neo.ClientError.Procedure.ProcedureCallFailed":         true,
		"Neo.DatabaseError.Statement.ExecutionFailed":           false,
		"Neo.DatabaseError.General.UnknownError":                false,
		"Neo.ClientError.Security.Forbidden":                    false,
		"Neo.ClientError.Database.DatabaseNotFound":             false,
		"Neo.ClientError.Transaction.TransactionTimedOut":       false,
		"Neo.ClientError.Procedure.ProcedureRegistrationFailed": false,
		"Neo.TransientError.General.TransactionMemoryLimit":     false,
		"Neo.TransientError.Transaction.DeadlockDetected":       false,
		"Neo.ClientError.General.ForbiddenOnReadOnlyDatabase":   false,
		"Neo.ClientError.Request.Invalid":                       false,
		"Neo.ClientError.Cluster.NotALeader":                    false,
		"Neo.TransientError.General.DatabaseUnavailable":        false,
		"Neo.ClientError.Schema.ConstraintValidationFailed":     false,
		"Neo.ClientError.Transaction.TransactionMarkedAsFailed": false,
		"Neo.ClientError.Procedure.ProcedureTimedOut":           false,
	} {
		msg, ok := StatementFault(fmt.Errorf("running: %w", &neo4j.Neo4jError{Code: code, Msg: "Neo4j's words"}))
		if ok != fault || ok && msg != "Neo4j's words" {
			t.Errorf("%s: StatementFault = %q, %v; want fault %v", code, msg, ok, fault)
		}
	}
	for _, err := range []error{errors.New("not Neo4j's"), &OutOfMemoryError{Code: "Neo.TransientError.General.TransactionMemoryLimit"}, &TimeoutError{Err: context.DeadlineExceeded}} {
		if msg, ok := StatementFault(err); ok {
			t.Errorf("%v: StatementFault = %q, want no fault", err, msg)
		}
	}
}

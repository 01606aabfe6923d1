package neo4jtest

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/notifications"
)

// The driver Open returns fails its test on every statement whose result
// summary carries a DEPRECATION notification: Neo4j 5.26 is the LTS, and
// Cypher 25 (Neo4j 2025.x) removes what 5.x deprecates, so a deprecated
// construct in any statement ragforge runs (a tool's, materialize's,
// schemaapply's, a handler's) must show up in the integration test that
// runs it. It wraps the real driver, never a mock: each statement still
// runs on the server, and the check reads the summary the driver already
// has once a result is read to its end (Consume, Collect, Single, the last
// Next), so it costs no extra round trip. A result left unread is not
// checked.
type deprecations struct {
	t testing.TB
	// over is set when the test's cleanup starts: a statement a
	// goroutine finishes later must not log into a finished test.
	over atomic.Bool
}

// checkDeprecations wraps d for t; see [deprecations]. neo4j.ExecuteQuery
// runs its statement through a method the driver does not export, which no
// wrapper can replace: its statements go unchecked.
func checkDeprecations(t testing.TB, d neo4j.DriverWithContext) neo4j.DriverWithContext {
	c := &deprecations{t: t}
	t.Cleanup(func() { c.over.Store(true) })
	return checkedDriver{d, c}
}

// check fails the test for each deprecation in s.
func (c *deprecations) check(s neo4j.ResultSummary) {
	if s == nil || c.over.Load() {
		return
	}
	for _, d := range Deprecations(s) {
		c.t.Errorf("neo4jtest: Neo4j deprecates a construct of a statement this test ran (Cypher 25 removes it): %s\nstatement: %s", d, s.Query().Text())
	}
}

// Deprecations returns the DEPRECATION notifications of a statement's
// summary, each as "code: description"; an EXPLAIN's summary has them
// too, without the statement having run.
func Deprecations(s neo4j.ResultSummary) []string {
	var out []string
	for _, n := range s.Notifications() {
		if n.Category() == notifications.Deprecation {
			out = append(out, n.Code()+": "+strings.TrimSpace(n.Description()))
		}
	}
	return out
}

// result checks the summary of the wrapped result once it is read.
func (c *deprecations) result(r neo4j.ResultWithContext, err error) (neo4j.ResultWithContext, error) {
	if err != nil {
		return r, err
	}
	return &checkedResult{ResultWithContext: r, c: c}, nil
}

type checkedDriver struct {
	neo4j.DriverWithContext
	c *deprecations
}

func (d checkedDriver) NewSession(ctx context.Context, config neo4j.SessionConfig) neo4j.SessionWithContext {
	return checkedSession{d.DriverWithContext.NewSession(ctx, config), d.c}
}

type checkedSession struct {
	neo4j.SessionWithContext
	c *deprecations
}

func (s checkedSession) Run(ctx context.Context, cypher string, params map[string]any, configurers ...func(*neo4j.TransactionConfig)) (neo4j.ResultWithContext, error) {
	return s.c.result(s.SessionWithContext.Run(ctx, cypher, params, configurers...))
}

func (s checkedSession) ExecuteRead(ctx context.Context, work neo4j.ManagedTransactionWork, configurers ...func(*neo4j.TransactionConfig)) (any, error) {
	return s.SessionWithContext.ExecuteRead(ctx, s.checked(work), configurers...)
}

func (s checkedSession) ExecuteWrite(ctx context.Context, work neo4j.ManagedTransactionWork, configurers ...func(*neo4j.TransactionConfig)) (any, error) {
	return s.SessionWithContext.ExecuteWrite(ctx, s.checked(work), configurers...)
}

func (s checkedSession) checked(work neo4j.ManagedTransactionWork) neo4j.ManagedTransactionWork {
	return func(tx neo4j.ManagedTransaction) (any, error) { return work(checkedTx{tx, s.c}) }
}

func (s checkedSession) BeginTransaction(ctx context.Context, configurers ...func(*neo4j.TransactionConfig)) (neo4j.ExplicitTransaction, error) {
	tx, err := s.SessionWithContext.BeginTransaction(ctx, configurers...)
	if err != nil {
		return tx, err
	}
	return checkedExplicitTx{tx, s.c}, nil
}

type checkedTx struct {
	neo4j.ManagedTransaction
	c *deprecations
}

func (t checkedTx) Run(ctx context.Context, cypher string, params map[string]any) (neo4j.ResultWithContext, error) {
	return t.c.result(t.ManagedTransaction.Run(ctx, cypher, params))
}

type checkedExplicitTx struct {
	neo4j.ExplicitTransaction
	c *deprecations
}

func (t checkedExplicitTx) Run(ctx context.Context, cypher string, params map[string]any) (neo4j.ResultWithContext, error) {
	return t.c.result(t.ExplicitTransaction.Run(ctx, cypher, params))
}

// checkedResult checks the summary when the result has been read to its
// end without an error.
type checkedResult struct {
	neo4j.ResultWithContext
	c *deprecations
	// checked is set once the summary was checked, so that a Consume
	// after the last Next does not report it again.
	checked bool
}

// read checks the summary of a result the caller has read to its end.
func (r *checkedResult) read(ctx context.Context) {
	if s, err := r.ResultWithContext.Consume(ctx); err == nil {
		r.summary(s)
	}
}

func (r *checkedResult) summary(s neo4j.ResultSummary) {
	if !r.checked {
		r.checked = true
		r.c.check(s)
	}
}

func (r *checkedResult) Next(ctx context.Context) bool {
	more := r.ResultWithContext.Next(ctx)
	if !more && r.Err() == nil {
		r.read(ctx)
	}
	return more
}

func (r *checkedResult) NextRecord(ctx context.Context, record **neo4j.Record) bool {
	more := r.ResultWithContext.NextRecord(ctx, record)
	if !more && r.Err() == nil {
		r.read(ctx)
	}
	return more
}

func (r *checkedResult) Collect(ctx context.Context) ([]*neo4j.Record, error) {
	recs, err := r.ResultWithContext.Collect(ctx)
	if err == nil {
		r.read(ctx)
	}
	return recs, err
}

func (r *checkedResult) Single(ctx context.Context) (*neo4j.Record, error) {
	rec, err := r.ResultWithContext.Single(ctx)
	if err == nil {
		r.read(ctx)
	}
	return rec, err
}

func (r *checkedResult) Consume(ctx context.Context) (neo4j.ResultSummary, error) {
	s, err := r.ResultWithContext.Consume(ctx)
	if err == nil {
		r.summary(s)
	}
	return s, err
}

// AllowDeprecations returns the driver under Open's deprecation check, for
// a test whose statements are an agent's Cypher (run_cypher, traverse):
// an agent may send anything Neo4j 5 accepts, deprecated forms included,
// and the read-only and tenant checks must judge those too. Statements
// ragforge writes stay checked in every other test.
func AllowDeprecations(d neo4j.DriverWithContext) neo4j.DriverWithContext {
	if c, ok := d.(checkedDriver); ok {
		return c.DriverWithContext
	}
	return d
}

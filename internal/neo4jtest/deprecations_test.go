package neo4jtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// errorRecorder stands in for a test to observe the errors the
// deprecation check reports.
type errorRecorder struct {
	testing.TB
	errs []string
}

func (r *errorRecorder) Errorf(f string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(f, args...))
}

// managed runs q in a managed transaction (a write one when write) and
// reads its result with read.
func managed(ctx context.Context, d neo4j.DriverWithContext, q string, write bool, read func(neo4j.ResultWithContext) error) error {
	s := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: Database()})
	defer s.Close(ctx)
	exec := s.ExecuteRead
	if write {
		exec = s.ExecuteWrite
	}
	_, err := exec(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, q, nil)
		if err != nil {
			return nil, err
		}
		return nil, read(res)
	})
	return err
}

// TestEveryWayOfRunningAStatementReportsItsDeprecations runs a statement
// Neo4j 5.26 deprecates (id()) and one it does not, through each way the
// project runs statements on a session, and expects exactly one report,
// naming the notification and the statement, for each deprecated run.
func TestEveryWayOfRunningAStatementReportsItsDeprecations(t *testing.T) {
	// The driver Open returns checks for t; the recorder checks the
	// driver under it, so that the deprecated statement fails only the
	// recorder.
	real := Open(t).(checkedDriver).DriverWithContext
	ctx := context.Background()
	const deprecated = "MATCH (n) WHERE id(n) = -1 RETURN n"
	const current = "MATCH (n) WHERE elementId(n) = '' RETURN n"
	ways := map[string]func(d neo4j.DriverWithContext, q string) error{
		"session Run, Consume": func(d neo4j.DriverWithContext, q string) error {
			s := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: Database()})
			defer s.Close(ctx)
			res, err := s.Run(ctx, q, nil)
			if err == nil {
				_, err = res.Consume(ctx)
			}
			return err
		},
		"ExecuteRead, Next to the end, then Consume": func(d neo4j.DriverWithContext, q string) error {
			return managed(ctx, d, q, false, func(res neo4j.ResultWithContext) error {
				for res.Next(ctx) {
				}
				_, err := res.Consume(ctx)
				return err
			})
		},
		"ExecuteWrite, Collect": func(d neo4j.DriverWithContext, q string) error {
			return managed(ctx, d, q, true, func(res neo4j.ResultWithContext) error {
				_, err := res.Collect(ctx)
				return err
			})
		},
		"BeginTransaction, Single": func(d neo4j.DriverWithContext, q string) error {
			s := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: Database()})
			defer s.Close(ctx)
			tx, err := s.BeginTransaction(ctx)
			if err != nil {
				return err
			}
			defer tx.Close(ctx)
			res, err := tx.Run(ctx, "CALL () { "+q+" } RETURN count(*) AS n", nil)
			if err != nil {
				return err
			}
			_, err = res.Single(ctx)
			return err
		},
	}
	for name, run := range ways {
		t.Run(name, func(t *testing.T) {
			rec := &errorRecorder{TB: t}
			d := checkDeprecations(rec, real)
			if err := run(d, current); err != nil {
				t.Fatal(err)
			}
			if len(rec.errs) != 0 {
				t.Fatalf("a statement without deprecated constructs was reported: %q", rec.errs)
			}
			if err := run(d, deprecated); err != nil {
				t.Fatal(err)
			}
			// The notification's code, not the report's own wording, which
			// says "deprecates" whatever the notification.
			if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "Neo.ClientNotification.Statement.FeatureDeprecationWarning") ||
				!strings.Contains(rec.errs[0], "id(n)") {
				t.Fatalf("want one report naming the deprecation and the statement, got %q", rec.errs)
			}
		})
	}
}

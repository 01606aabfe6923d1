package materialize

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// TestStatusCountsEachNodeOnceAfterInterruptedRunsThatAlternateMethods
// interrupts applies mid-way, alternating the unwind and in-transactions
// methods, then lets one finish: after every run status reports at most
// one row per node, and at the end exactly one, with verify finding no
// drift. The unwind method resumes after its cursor and adds to the rows;
// the in-transactions method starts over and sets the rows itself, so a
// cursor it left behind made the next unwind run add its rows to the
// in-transactions count.
func TestStatusCountsEachNodeOnceAfterInterruptedRunsThatAlternateMethods(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	const nodes = 200
	seedScopes(t, d, nodes)
	m := scopeModel(model.Always)
	x := newMaterializer(t, d, m)
	only := []model.FieldRef{{Entity: "Scope", Field: "line_count"}}
	interrupt := errors.New("interrupted")
	for i, run := range []struct {
		method WriteMethod
		// stopAt is the rows after which the run is interrupted; 0 lets
		// it finish.
		stopAt int64
	}{
		{WriteUnwind, 40}, {WriteInTransactions, 160}, {WriteUnwind, 120}, {WriteInTransactions, 80}, {WriteUnwind, 0},
	} {
		name := fmt.Sprintf("run %d (%s", i+1, run.method)
		x.opts.Method = run.method
		x.opts.BatchSize = 40
		if run.method == WriteInTransactions {
			x.opts.BatchSize = 4 // chunks of 40 nodes
		}
		x.afterBatch = func(rows int64) error {
			if run.stopAt > 0 && rows >= run.stopAt {
				return interrupt
			}
			return nil
		}
		_, err := x.Apply(ctx, nil, only)
		if run.stopAt > 0 {
			name += fmt.Sprintf(", interrupted at %d rows)", run.stopAt)
			if !errors.Is(err, interrupt) {
				t.Fatalf("%s: %v", name, err)
			}
		} else if name += ")"; err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sts, err := x.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sts {
			if s.Name != "line_count" {
				continue
			}
			if s.Rows > nodes {
				t.Errorf("%s: status reports %d rows for %d nodes", name, s.Rows, nodes)
			}
			if run.stopAt == 0 && (s.Status != string(StatusReady) || s.Rows != nodes) {
				t.Errorf("%s: status %s with %d rows, want ready with %d", name, s.Status, s.Rows, nodes)
			}
		}
	}
	drift, err := x.Verify(ctx, only)
	if err != nil {
		t.Fatal(err)
	}
	if len(drift) != 1 || drift[0].Drift != 0 || drift[0].Nodes != nodes {
		t.Errorf("verify: %+v", drift)
	}
}

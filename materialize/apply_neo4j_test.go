package materialize

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// seedScopes creates n Scope nodes with line ranges (every 17th without
// a startLine, so line_count is null there) and a few changes.
func seedScopes(t *testing.T, d neo4j.DriverWithContext, n int) {
	t.Helper()
	neo4jtest.Run(t, d, `UNWIND range(1, $n) AS i
		CREATE (s:Scope {uuid: 'u' + i, endLine: 10 + (i * 37) % 500})
		SET s.startLine = CASE WHEN i % 17 = 0 THEN null ELSE 10 END
		FOREACH (_ IN CASE WHEN i % 10 = 0 THEN range(1, i % 7) ELSE [] END | CREATE (s)-[:HAS_CHANGE]->(:Change))`, map[string]any{"n": n})
}

func query1(t *testing.T, d neo4j.DriverWithContext, q string, params map[string]any) any {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, q, params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) == 0 {
		return nil
	}
	return res.Records[0].Values[0]
}

func newMaterializer(t *testing.T, d neo4j.DriverWithContext, m *model.Model) *Materializer {
	t.Helper()
	x, err := New(MustCompile(t, m), d, Options{Database: neo4jtest.Database(), BatchSize: 40, LockStaleAfter: 4 * time.Second, Grace: -1, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func actions(as []Action) map[string]Action {
	out := map[string]Action{}
	for _, a := range as {
		out[a.Name] = a
	}
	return out
}

func TestApplyWritesRuntimeValuesIndexesThemAndMarksThemReady(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	seedScopes(t, d, 230)
	m := scopeModel(model.Always)
	m.Entities[0].Computed[2].Materialized = model.Always // change_count (cypher, no index)
	x := newMaterializer(t, d, m)
	as, err := x.Apply(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := actions(as)
	if a["line_count"].Did != "materialized" || a["line_count"].Rows != 230 || a["change_count"].Did != "materialized" || a["is_large"].Did != "runtime" || a["busy"].Did != "runtime" {
		t.Fatalf("actions %+v", as)
	}
	if n := query1(t, d, "MATCH (s:Scope) WHERE s.line_count IS NULL <> s.startLine IS NULL OR s.line_count <> s.endLine - s.startLine + 1 RETURN count(s)", nil); n != int64(0) {
		t.Errorf("%d nodes hold a wrong line_count", n)
	}
	if n := query1(t, d, "MATCH (s:Scope) WHERE s.change_count <> COUNT { (s)-[:HAS_CHANGE]->(:Change) } RETURN count(s)", nil); n != int64(0) {
		t.Errorf("%d nodes hold a wrong change_count", n)
	}
	if st := query1(t, d, "SHOW RANGE INDEXES YIELD name, state WHERE name = 'ragforge_mat_Scope_line_count' RETURN state", nil); st != "ONLINE" {
		t.Errorf("index state %v", st)
	}
	statuses, err := x.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range statuses {
		want := s.Name == "line_count" || s.Name == "change_count"
		if (s.Status == "ready") != want || s.Readable != want || (want && (s.Rows != 230 || s.FinishedAt.IsZero())) {
			t.Errorf("status %+v", s)
		}
	}
	drift, err := x.Verify(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(drift) != 2 || drift[0].Drift != 0 || drift[1].Drift != 0 || drift[0].Nodes != 230 {
		t.Errorf("drift %+v", drift)
	}

	// Idempotent: nothing to do the second time.
	as, err = x.Apply(ctx, nil, nil)
	if err != nil || actions(as)["line_count"].Did != "up-to-date" {
		t.Errorf("second apply: %+v, %v", as, err)
	}

	// Values go stale when data changes outside ragforge; verify counts
	// them, refresh recomputes them.
	neo4jtest.Run(t, d, "MATCH (s:Scope {uuid: 'u1'}) SET s.endLine = 1000", nil)
	neo4jtest.Run(t, d, "MATCH (s:Scope {uuid: 'u2'}) CREATE (s)-[:HAS_CHANGE]->(:Change)", nil)
	drift, _ = x.Verify(ctx, []model.FieldRef{{Entity: "Scope", Field: "line_count"}})
	if len(drift) != 1 || drift[0].Drift != 1 {
		t.Errorf("drift after a change %+v", drift)
	}
	if _, err := x.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	drift, _ = x.Verify(ctx, nil)
	if drift[0].Drift+drift[1].Drift != 0 {
		t.Errorf("drift after refresh %+v", drift)
	}

	// Recompute keeps one node current after a write.
	neo4jtest.Run(t, d, "MATCH (s:Scope {uuid: 'u3'}) SET s.endLine = 2000", nil)
	states, _ := ReadStates(ctx, d, neo4jtest.Database())
	q, err := Recompute(x.cm, "Scope", Materialized(m, states, "Scope"))
	if err != nil {
		t.Fatal(err)
	}
	neo4jtest.Run(t, d, q, map[string]any{RecomputeParam: "u3"})
	if v := query1(t, d, "MATCH (s:Scope {uuid: 'u3'}) RETURN s.line_count", nil); v != int64(1991) {
		t.Errorf("recomputed line_count %v", v)
	}

	// Drop removes values, index and state.
	as, err = x.Drop(ctx, nil)
	if err != nil || len(as) != 2 {
		t.Fatalf("drop: %+v %v", as, err)
	}
	if n := query1(t, d, "MATCH (s:Scope) WHERE s.line_count IS NOT NULL OR s.change_count IS NOT NULL RETURN count(s)", nil); n != int64(0) {
		t.Errorf("%d nodes still hold values", n)
	}
	if n := query1(t, d, "SHOW INDEXES YIELD name WHERE name STARTS WITH 'ragforge_mat_' RETURN count(*)", nil); n != int64(0) {
		t.Errorf("%d indexes left", n)
	}
	if n := query1(t, d, "MATCH (s:_RagforgeMaterialization) RETURN count(s)", nil); n != int64(0) {
		t.Errorf("%d state nodes left", n)
	}
	if n := query1(t, d, "MATCH (l:_RagforgeLock) RETURN count(l)", nil); n != int64(0) {
		t.Errorf("lock not released")
	}
}

func TestApplyRefusesAPropertyItDoesNotOwn(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	seedScopes(t, d, 50)
	neo4jtest.Run(t, d, "MATCH (s:Scope {uuid: 'u7'}) SET s.line_count = 'mine'", nil)
	m := scopeModel(model.Always)
	x := newMaterializer(t, d, m)
	_, err := x.Apply(ctx, nil, []model.FieldRef{{Entity: "Scope", Field: "line_count"}})
	var oe *OwnershipError
	if !errors.As(err, &oe) || oe.Owner != "" {
		t.Fatalf("apply over user data: %v", err)
	}
	if v := query1(t, d, "MATCH (s:Scope {uuid: 'u7'}) RETURN s.line_count", nil); v != "mine" {
		t.Errorf("user value overwritten: %v", v)
	}
	if n := query1(t, d, "MATCH (s:_RagforgeMaterialization) RETURN count(s)", nil); n != int64(0) {
		t.Errorf("a refused apply left %d state nodes", n)
	}
	// A property another field's state owns is refused too.
	neo4jtest.Run(t, d, "MATCH (s:Scope) REMOVE s.line_count", nil)
	neo4jtest.Run(t, d, "CREATE (:_RagforgeMaterialization {entity: 'Scope', field: 'old_field', property: 'line_count', status: 'ready', hash: 'x'})", nil)
	_, err = x.Apply(ctx, nil, []model.FieldRef{{Entity: "Scope", Field: "line_count"}})
	if !errors.As(err, &oe) || oe.Owner != "old_field" {
		t.Fatalf("apply over another field's property: %v", err)
	}
	// Naming a field that does not exist lists the valid ones.
	if _, err := x.Apply(ctx, nil, []model.FieldRef{{Entity: "Scope", Field: "nope"}}); err == nil {
		t.Error("unknown --field accepted")
	}
}

func TestApplyResumesAfterAnInterruptionAndThePlannerWaitsForReady(t *testing.T) {
	d := neo4jtest.Open(t)
	seedScopes(t, d, 200)
	for _, tc := range []struct {
		method WriteMethod
		// stopAt is the rows after which the first apply is interrupted;
		// resumed is what the re-run's progress reports first.
		stopAt, resumed int64
	}{
		{WriteUnwind, 80, 40},         // batches of 40 after the cursor: 40, 80, 120
		{WriteInTransactions, 40, 40}, // chunks of 10 batches (40 nodes): it compares, not rewrites, the first
	} {
		t.Run(string(tc.method), func(t *testing.T) {
			ctx := context.Background()
			neo4jtest.Run(t, d, "MATCH (s:_RagforgeMaterialization) DELETE s", nil)
			neo4jtest.Run(t, d, "MATCH (s:Scope) REMOVE s.line_count", nil)
			m := scopeModel(model.Always)
			x := newMaterializer(t, d, m)
			x.opts.Method = tc.method
			if tc.method == WriteInTransactions {
				x.opts.BatchSize = 4
			}
			cache, err := NewStateCache(x.cm, d, neo4jtest.Database(), StateCacheOptions{Refresh: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			x.opts.Invalidate = []func(){cache.Invalidate}
			interrupt := errors.New("interrupted")
			x.afterBatch = func(rows int64) error {
				if rows >= tc.stopAt {
					return interrupt
				}
				return nil
			}
			only := []model.FieldRef{{Entity: "Scope", Field: "line_count"}}
			if _, err := x.Apply(ctx, nil, only); !errors.Is(err, interrupt) {
				t.Fatalf("apply: %v", err)
			}
			states, _ := ReadStates(ctx, d, neo4jtest.Database())
			if len(states) != 1 || states[0].Status != StatusBuilding || states[0].Rows != tc.stopAt {
				t.Fatalf("state after interruption: %+v", states)
			}
			if tc.method == WriteUnwind && states[0].Cursor == "" {
				t.Errorf("no cursor after an interrupted unwind apply")
			}
			written := query1(t, d, "MATCH (s:Scope) WHERE s.line_count IS NOT NULL RETURN count(s)", nil)
			if written == int64(0) || written == int64(188) {
				t.Errorf("%v nodes written before the interruption", written)
			}
			if st, _ := cache.State(ctx); st.Ready("Scope", "line_count") {
				t.Fatal("the planner may read a half-written property")
			}
			if n := query1(t, d, "MATCH (l:_RagforgeLock) RETURN count(l)", nil); n != int64(0) {
				t.Errorf("the interrupted apply kept the lock")
			}
			var progress []int64
			x.afterBatch = func(rows int64) error { progress = append(progress, rows); return nil }
			as, err := x.Apply(ctx, nil, only)
			if err != nil {
				t.Fatal(err)
			}
			if len(progress) == 0 || progress[0] != tc.resumed || as[0].Rows != 200 {
				t.Errorf("resumed progress %v, action %+v", progress, as)
			}
			if st, _ := cache.State(ctx); !st.Ready("Scope", "line_count") {
				t.Error("not ready after the resumed apply")
			}
			if n := query1(t, d, "MATCH (s:Scope) WHERE s.line_count IS NULL <> s.startLine IS NULL OR s.line_count <> s.endLine - s.startLine + 1 RETURN count(s)", nil); n != int64(0) {
				t.Errorf("%d nodes wrong or missed", n)
			}
		})
	}
}

// TestApplyStartsOverFromTheIntegerCursorAnOlderRagforgeLeft: before the
// cursor was an elementId, an interrupted unwind apply stored an id() (an
// integer). Such a state must not break apply: it is no cursor, and the
// field is written from the first node, rows counted from zero.
func TestApplyStartsOverFromTheIntegerCursorAnOlderRagforgeLeft(t *testing.T) {
	d := neo4jtest.Open(t)
	seedScopes(t, d, 200)
	ctx := context.Background()
	x := newMaterializer(t, d, scopeModel(model.Always))
	x.opts.Method = WriteUnwind
	only := []model.FieldRef{{Entity: "Scope", Field: "line_count"}}
	interrupt := errors.New("interrupted")
	x.afterBatch = func(int64) error { return interrupt }
	if _, err := x.Apply(ctx, nil, only); !errors.Is(err, interrupt) {
		t.Fatalf("apply: %v", err)
	}
	neo4jtest.Run(t, d, "MATCH (s:_RagforgeMaterialization) SET s.cursor = 12345, s.rows = 120", nil)
	states, err := ReadStates(ctx, d, neo4jtest.Database())
	if err != nil || len(states) != 1 || states[0].Cursor != "" || states[0].Status != StatusBuilding {
		t.Fatalf("an integer cursor read as %+v (%v), want no cursor", states, err)
	}
	var progress []int64
	x.afterBatch = func(rows int64) error { progress = append(progress, rows); return nil }
	as, err := x.Apply(ctx, nil, only)
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) == 0 || progress[0] != int64(x.opts.BatchSize) || as[0].Rows != 200 {
		t.Errorf("progress %v, action %+v: want a start from the first batch and 200 rows", progress, as)
	}
	if n := query1(t, d, "MATCH (s:Scope) WHERE s.line_count IS NULL <> s.startLine IS NULL OR s.line_count <> s.endLine - s.startLine + 1 RETURN count(s)", nil); n != int64(0) {
		t.Errorf("%d nodes wrong or missed", n)
	}
}

func TestLockKeepsASecondApplyOutAndFreesItselfWhenStale(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	db := neo4jtest.Database()
	l1, err := AcquireLock(ctx, d, db, "materialize", "first", 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireLock(ctx, d, db, "materialize", "second", 4*time.Second)
	var le *LockedError
	if !errors.As(err, &le) || le.Owner != "first" {
		t.Fatalf("second acquire: %v", err)
	}
	x := newMaterializer(t, d, scopeModel(model.Always))
	if _, err := x.Apply(ctx, nil, nil); !errors.As(err, &le) {
		t.Fatalf("apply under a held lock: %v", err)
	}
	// The holder's heartbeat keeps it alive past the stale age.
	time.Sleep(5 * time.Second)
	if _, err := AcquireLock(ctx, d, db, "materialize", "third", 4*time.Second); !errors.As(err, &le) {
		t.Fatalf("a live lock was taken over: %v", err)
	}
	if err := l1.Release(); err != nil {
		t.Fatal(err)
	}
	// A holder that died (no heartbeat) is taken over once stale.
	neo4jtest.Run(t, d, "CREATE (:_RagforgeLock {name: 'materialize', token: 'dead', owner: 'killed', acquired_at: datetime(), heartbeat: datetime() - duration('PT10S')})", nil)
	l2, err := AcquireLock(ctx, d, db, "materialize", "fourth", 4*time.Second)
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	if err := l2.Release(); err != nil {
		t.Fatal(err)
	}
}

func TestDropWaitsTheGraceBeforeRemovingReadyValues(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	seedScopes(t, d, 30)
	x := newMaterializer(t, d, scopeModel(model.Always))
	only := []model.FieldRef{{Entity: "Scope", Field: "line_count"}}
	if _, err := x.Apply(ctx, nil, only); err != nil {
		t.Fatal(err)
	}
	x.opts.Grace = 1500 * time.Millisecond
	done := make(chan error)
	start := time.Now()
	go func() { _, err := x.Drop(ctx, only); done <- err }()
	time.Sleep(700 * time.Millisecond)
	// Mid-grace: out of service, values untouched.
	if st := query1(t, d, "MATCH (s:_RagforgeMaterialization) RETURN s.status", nil); st != "dropping" {
		t.Errorf("status during the grace %v", st)
	}
	if n := query1(t, d, "MATCH (s:Scope) WHERE s.line_count IS NOT NULL RETURN count(s)", nil); n == int64(0) {
		t.Error("values removed before the grace ended")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < x.opts.Grace {
		t.Errorf("drop took %v, less than the grace", el)
	}
}

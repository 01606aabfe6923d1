package materialize_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/materialize"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
)

// benchScale is how many times the standard library's Scopes are loaded
// (RAGFORGE_BENCH_SCALE, default 4: about 1.2 million Scope nodes).
func benchScale(b *testing.B) int {
	if v := os.Getenv("RAGFORGE_BENCH_SCALE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("RAGFORGE_BENCH_SCALE=%q: want a positive integer", v)
		}
		return n
	}
	return 4
}

var (
	benchTop10 = engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(
		`{"entity_type":"Scope","order_by":{"field":"line_count","direction":"DESC"},"fields":["name","file","line_count"],"limit":10}`)}
	benchRange = engine.Call{Name: planner.NumberRangeSearch, Arguments: json.RawMessage(
		`{"entity_type":"Scope","field":"line_count","operator":"between","value":500,"upper_value":520,"limit":50}`)}
)

// median runs call n times (after warm-up runs) and returns the median
// latency of Execute, and the rows of the last answer for comparison.
func median(b *testing.B, e *engine.Engine, call engine.Call, warm, n int) (time.Duration, string) {
	b.Helper()
	ctx := context.Background()
	var last string
	for range warm {
		if _, err := e.Execute(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
	ds := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		res, err := e.Execute(ctx, call)
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(start))
		var ids []string
		for _, en := range res.Entities {
			ids = append(ids, fmt.Sprintf("%v=%v", en.ID, en.Computed["line_count"]))
		}
		if call.Name != planner.QueryEntities {
			slices.Sort(ids)
		}
		last = fmt.Sprint(ids)
	}
	slices.Sort(ds)
	return ds[len(ds)/2], last
}

// loadScaled loads the standard library, its Scopes scale times over.
func loadScaled(b *testing.B, d neo4j.DriverWithContext) int64 {
	b.Helper()
	src, err := fixture.GOROOTSrc()
	if err != nil {
		b.Fatal(err)
	}
	g, err := fixture.ParseDeclarations(src)
	if err != nil {
		b.Fatal(err)
	}
	g = g.Scale(benchScale(b))
	start := time.Now()
	stats, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database(), Progress: os.Stderr})
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "loaded %d nodes (%d Scopes) in %v\n", stats.Nodes, len(g.Scopes), time.Since(start).Round(time.Second))
	return int64(len(g.Scopes))
}

// BenchmarkMaterialize measures, on the standard library loaded
// RAGFORGE_BENCH_SCALE times over into the real Neo4j, in one run: the
// top-10-by-line_count call and a line_count range filter computed at
// runtime and read from the materialized, indexed property (medians and
// their ratio); apply throughput with both write methods; and a scripted
// workload in which `materialized: auto` switches line_count after the
// threshold. It loads a million-node graph, so it runs only when asked:
//
//	go test ./materialize -run XXX -bench BenchmarkMaterialize -benchtime 1x -timeout 60m
func BenchmarkMaterialize(b *testing.B) {
	d := neo4jtest.Open(b)
	ctx := context.Background()
	db := neo4jtest.Database()
	// Leave an empty database: neo4jtest empties with DETACH DELETE of
	// 5,000 nodes at a time in id order, which on this graph reaches the
	// File nodes (thousands of CONTAINS each) and overflows the
	// transaction memory pool. Scopes first, in small batches, avoids it.
	b.Cleanup(func() {
		for _, label := range []string{"`Scope`", "`File`", "`Directory`", "`ExternalLibrary`"} {
			for {
				res, err := neo4j.ExecuteQuery(ctx, d, "MATCH (n:"+label+") WITH n LIMIT 10000 DETACH DELETE n", nil,
					neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(db))
				if err != nil {
					b.Errorf("emptying the benchmark graph: %v", err)
					return
				}
				if res.Summary.Counters().NodesDeleted() == 0 {
					break
				}
			}
		}
	})
	scopes := loadScaled(b, d)
	m, err := config.Load("../testdata/materialize/scopes.yaml")
	if err != nil {
		b.Fatal(err)
	}
	cm := materialize.MustCompile(b, m)
	cache, err := materialize.NewStateCache(cm, d, db, materialize.StateCacheOptions{Refresh: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	e, err := engine.New(ctx, m, engine.WithMaterialization(engine.Options{Driver: d, Database: db, Timeout: 10 * time.Minute, Computed: cm}, nil, cache))
	if err != nil {
		b.Fatal(err)
	}
	lc := []model.FieldRef{{Entity: "Scope", Field: "line_count"}}
	report := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	mat := func(method materialize.WriteMethod, batch int) materialize.Action {
		x, err := materialize.New(cm, d, materialize.Options{Database: db, Grace: -1, Method: method, BatchSize: batch, Invalidate: []func(){cache.Invalidate}})
		if err != nil {
			b.Fatal(err)
		}
		m.Entity("Scope").ComputedField("line_count").Materialized = model.Always
		defer func() { m.Entity("Scope").ComputedField("line_count").Materialized = model.Auto }()
		start := time.Now()
		as, err := x.Apply(ctx, nil, lc)
		if err != nil {
			b.Fatal(err)
		}
		report("  whole apply (write, index, state): %v", time.Since(start).Round(time.Millisecond))
		return as[0]
	}
	drop := func() time.Duration {
		x, _ := materialize.New(cm, d, materialize.Options{Database: db, Grace: -1, Invalidate: []func(){cache.Invalidate}})
		start := time.Now()
		if _, err := x.Drop(ctx, nil); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}

	for b.Loop() {
		// 1. Runtime vs materialized, same calls, same answers.
		rtTop, ansTop := median(b, e, benchTop10, 1, 5)
		rtRange, ansRange := median(b, e, benchRange, 1, 5)
		a := mat(materialize.WriteInTransactions, materialize.DefaultBatchSize)
		report("apply (CALL IN TRANSACTIONS OF %d ROWS): %d nodes in %.1f s = %.0f nodes/s", materialize.DefaultBatchSize, a.Rows, a.Seconds, a.NodesPerSecond)
		mTop, mAnsTop := median(b, e, benchTop10, 3, 21)
		mRange, mAnsRange := median(b, e, benchRange, 3, 21)
		if ansTop != mAnsTop || ansRange != mAnsRange {
			b.Errorf("answers differ:\nruntime      %s\nmaterialized %s\nruntime      %s\nmaterialized %s", ansTop, mAnsTop, ansRange, mAnsRange)
		}
		report("top-10 by line_count: runtime %v, materialized %v, ratio %.0fx", rtTop, mTop, float64(rtTop)/float64(mTop))
		report("line_count between 500 and 520: runtime %v, materialized %v, ratio %.0fx", rtRange, mRange, float64(rtRange)/float64(mRange))
		b.ReportMetric(float64(rtTop)/float64(mTop), "top10_x")
		b.ReportMetric(float64(rtRange)/float64(mRange), "range_x")
		b.ReportMetric(a.NodesPerSecond, "apply_intx_nodes/s")
		b.ReportMetric(float64(scopes), "scopes")

		// 2. Refresh with nothing changed (compares, writes nothing), the
		// other write method, and a larger batch.
		{
			x, _ := materialize.New(cm, d, materialize.Options{Database: db, Grace: -1})
			start := time.Now()
			if _, err := x.Refresh(ctx, lc); err != nil {
				b.Fatal(err)
			}
			report("refresh with no drift: %v", time.Since(start).Round(time.Millisecond))
		}
		report("drop: %v", drop().Round(time.Millisecond))
		a2 := mat(materialize.WriteUnwind, materialize.DefaultBatchSize)
		report("apply (UNWIND batches of %d ids): %d nodes in %.1f s = %.0f nodes/s", materialize.DefaultBatchSize, a2.Rows, a2.Seconds, a2.NodesPerSecond)
		b.ReportMetric(a2.NodesPerSecond, "apply_unwind_nodes/s")
		report("drop: %v", drop().Round(time.Millisecond))
		a3 := mat(materialize.WriteInTransactions, 50000)
		report("apply (CALL IN TRANSACTIONS OF 50000 ROWS): %d nodes in %.1f s = %.0f nodes/s", a3.Rows, a3.Seconds, a3.NodesPerSecond)
		report("drop: %v", drop().Round(time.Millisecond))

		// 3. The auto workload: an agent sorts by line_count; an operator
		// loop runs `materialize apply` every 10 calls; min_uses is 25, so
		// the apply after call 30 switches. Counts start from zero.
		m.Materialization.MinUses = 25
		m.Materialization.MinNodes = 10000
		x, err := materialize.New(cm, d, materialize.Options{Database: db, Grace: -1, Invalidate: []func(){cache.Invalidate}})
		if err != nil {
			b.Fatal(err)
		}
		store := materialize.NewMemoryStore(nil)
		rec := materialize.NewRecorder(store, materialize.RecorderOptions{})
		e, err := engine.New(ctx, m, engine.WithMaterialization(engine.Options{Driver: d, Database: db, Timeout: 10 * time.Minute, Computed: cm}, rec, cache))
		if err != nil {
			b.Fatal(err)
		}
		var before, after []time.Duration
		switched := -1
		for call := 1; call <= 60; call++ {
			start := time.Now()
			if _, err := e.Execute(ctx, benchTop10); err != nil {
				b.Fatal(err)
			}
			dt := time.Since(start)
			if switched < 0 {
				before = append(before, dt)
			} else {
				after = append(after, dt)
			}
			if call%10 == 0 && switched < 0 {
				if err := rec.Flush(ctx); err != nil {
					b.Fatal(err)
				}
				counts, _ := store.Counts(ctx)
				as, err := x.Apply(ctx, counts, lc)
				if err != nil {
					b.Fatal(err)
				}
				report("after call %d: %s (%s)", call, as[0].Did, as[0].Reason)
				if as[0].Did == "materialized" {
					switched = call
					report("apply: %.1f s", as[0].Seconds)
				}
			}
		}
		slices.Sort(before)
		slices.Sort(after)
		if switched < 0 || len(after) == 0 {
			b.Fatal("auto never switched line_count")
		}
		report("workload: switched after call %d; median latency before %v (%d calls), after %v (%d calls), ratio %.0fx",
			switched, before[len(before)/2], len(before), after[len(after)/2], len(after), float64(before[len(before)/2])/float64(after[len(after)/2]))
		b.ReportMetric(float64(before[len(before)/2])/float64(after[len(after)/2]), "workload_x")
		drop()
	}
}

package handwritten

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/bench/peers"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tools"
)

// Flags of BenchmarkHandwritten (go test passes them to the test binary).
var (
	scaleFlag = flag.String("scale", string(Small), "airline graph of BenchmarkHandwritten: small (about 2,000 nodes) or full (about 100,000 nodes, 500,000 relationships)")
	seedFlag  = flag.Uint64("seed", 1, "seed of the generated airline graph")
	runsFlag  = flag.Int("runs", 20, "timed runs per workload and side in BenchmarkHandwritten")
	plansFlag = flag.Bool("plans", false, "after the table, print both statements of every workload with their PROFILE plans")
	onlyFlag  = flag.String("only", "", "comma-separated workload keys to run (all when empty)")
)

// Config paths: the code-RAG example (the fixture's config, as bench/peers
// uses it) and this package's airline config.
const (
	codeRAGConfig = "../../testdata/configs/valid/code-rag.yaml"
	airlineConfig = "testdata/airline.yaml"
)

// timeout is the airline engine's per-call transaction timeout: the
// default 30 s, doubled for the full scale on a shared 2-core machine.
const timeout = time.Minute

// knownFailing lists the workloads whose rows differ today because of a
// ragforge bug, with why; the check still runs on them and reports them
// with t.Errorf, so they stay visible until fixed.
var knownFailing = map[string]string{}

// hitsBound holds, for the workloads whose plans the planner was fixed to
// match (issue 19 item 6), the most db hits ragforge's statement may read
// at the small scale, as a multiple of the hand-written statement's; db
// hits are deterministic, so a plan that regresses fails here, in CI.
// from_hub and late_from_hub page a hub's flights from the departure and
// delay indexes (the statement's degree test picks that side); agg_day
// buckets days arithmetically in UTC, building no temporal value per
// flight. dt_range's pages carry their sort keys out of the union;
// from_to, starting from its two pinned airports, sorts once, nulls last;
// dt_late has no part without a departure. regex_number (1.07× at the
// full scale) is not bound: at the small scale 152 of its 176 candidates
// match, and each match costs the fetch an elementId seek and a label
// test (983 db hits to the hand-written 629).
// top10 carries its sort key and id through the page's lists; hop sorts
// on its start's position, not its id. paths_*: find_paths skips its
// breadth-first search when the count store proves it bounded, at the
// small scale by the 606 ROUTE relationships, at the full scale (1.02-1.03×
// there) by the 3,000 Airports every ROUTE starts and ends on.
// explore_hub_2..3 and explore_leaf_2..3 stop at the level that fills
// their page (0.13-0.24× at the small scale); the hand-written statement
// pays a shortestPath per row. explore_hub_1 and explore_leaf_1 (and hop)
// stream their one level into the page's Top, as by hand (1.01× and
// 0.17×: the leaf's hand-written statement scans for its airport).
// pin2_airlines starts from its pinned airport, two hops from the
// airlines (planner's builder.walk); pinagg_airlines, whose path starts
// at its pinned airport, reads what the hand-written path reads but each
// airline's code once per airline (0.91× at the full scale), as does
// pinagg_last, whose path is matched from the airport pinned in its last
// hop (planner's pinnedPath); rank_departures and
// rank_delay expand each airport's FROM once, as by hand.
var hitsBound = map[string]float64{
	"from_hub":        1.25,
	"late_from_hub":   1.25,
	"agg_day":         1.25,
	"dt_range":        1.25,
	"dt_late":         1.25,
	"from_to":         1.25,
	"agg_country":     1.25,
	"byid":            1.25,
	"top10":           1.25,
	"hop":             1.25,
	"paths_leaf_leaf": 1.25,
	"paths_hub_leaf":  1.25,
	"explore_hub_1":   1.25,
	"explore_leaf_1":  1.25,
	"explore_hub_2":   1.25,
	"explore_hub_3":   1.25,
	"explore_leaf_2":  1.25,
	"explore_leaf_3":  1.25,
	"pin2_airlines":   1.25,
	"pinagg_airlines": 1.25,
	"pinagg_last":     1.25,
	"rank_departures": 1.25,
	"rank_delay":      1.25,
}

// setup loads both graphs into the test database — the net/http fixture
// prepared as bench/peers prepares it (schema apply, 100 calls of each
// code workload, materialize apply), and the airline graph at scale with
// its config's indexes and constraints — and returns both engines and the
// workloads.
func setup(tb testing.TB, scale Scale) (neo4j.DriverWithContext, Engines, []Workload, *Graph) {
	tb.Helper()
	ctx := context.Background()
	d := neo4jtest.Open(tb)
	db := neo4jtest.Database()

	fixturetest.LoadNetHTTP(tb, d)
	cm, err := config.Load(codeRAGConfig)
	if err != nil {
		tb.Fatal(err)
	}
	code, _, err := peers.Prepare(ctx, d, db, cm, peers.Workloads(peers.ParamsFor(peers.NetHTTP)), nil)
	if err != nil {
		tb.Fatal(err)
	}

	am, err := config.Load(airlineConfig)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(am), schemaapply.Options{Database: db}); err != nil {
		tb.Fatalf("schema apply: %v", err)
	}
	g, err := Generate(scale, *seedFlag)
	if err != nil {
		tb.Fatal(err)
	}
	took, err := Load(ctx, d, db, g, os.Stderr)
	if err != nil {
		tb.Fatal(err)
	}
	nodes, rels := g.Counts()
	fmt.Fprintf(os.Stderr, "handwritten: loaded the %s airline graph (%d nodes, %d relationships) in %v\n", scale, nodes, rels, took.Round(time.Second))
	airline, err := engine.New(ctx, am, engine.Options{Driver: d, Database: db, Timeout: timeout, Tools: tools.Options{Aggregations: true}})
	if err != nil {
		tb.Fatal(err)
	}
	ws := append(CodeWorkloads(), AirlineWorkloads(g)...)
	return d, Engines{CodeGraph: code, AirlineGraph: airline}, ws, g
}

// TestHandwrittenRowsMatchAtSmallScale proves, on the net/http fixture and
// the small airline graph, that ragforge's answer to every workload is the
// hand-written statement's, row for row, so the benchmark compares
// statements answering the same question; and that the measuring path
// runs (PROFILE and timing of both). A workload of knownFailing fails
// with its reason.
func TestHandwrittenRowsMatchAtSmallScale(t *testing.T) {
	d, es, ws, _ := setup(t, Small)
	ctx := context.Background()
	db := neo4jtest.Database()
	if len(ws) < 20 {
		t.Fatalf("%d workloads, want the 5 code ones and at least 15 airline ones", len(ws))
	}
	rows, failed := Check(ctx, d, db, es, ws)
	var passed []Workload
	for _, w := range ws {
		err, bad := failed[w.Key]
		why, known := knownFailing[w.Key]
		switch {
		case bad && known:
			t.Errorf("%s (known failing: %s): %v", w.Key, why, err)
		case bad:
			t.Errorf("%s (%s): %v", w.Key, w.Name, err)
		case known:
			t.Errorf("%s is listed as known failing (%s) but its rows match: take it off knownFailing", w.Key, why)
		default:
			passed = append(passed, w)
		}
	}
	ms, err := Measure(ctx, d, db, es, passed, rows, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.RagforgeHits == 0 || m.HandHits == 0 || m.RagforgeDriver <= 0 || m.HandDriver <= 0 || m.Execute <= 0 {
			t.Errorf("%s: measured %+v, want both statements profiled and timed", m.Workload.Key, m)
		}
		if bound, ok := hitsBound[m.Workload.Key]; ok && m.HitsRatio() > bound {
			t.Errorf("%s: ragforge's statement reads %d db hits, %.2f× the hand-written %d; want at most %.2f× (the plan regressed: rerun the benchmark with -plans -only %s)",
				m.Workload.Key, m.RagforgeHits, m.HitsRatio(), m.HandHits, bound, m.Workload.Key)
		}
	}

	// A hand-written statement that answers another question (here: the
	// opposite order) fails the check, naming the rows that differ.
	t.Run("CheckFailsWhenAnswersDiffer", func(t *testing.T) {
		var bad Workload
		for _, w := range ws {
			if w.Key == "top_delay" {
				bad = w
			}
		}
		bad.Hand = strings.Replace(bad.Hand, "n.delay_minutes DESC", "n.delay_minutes", 1)
		_, failed := Check(ctx, d, db, es, []Workload{bad})
		if err := failed["top_delay"]; err == nil || !strings.Contains(err.Error(), "≠") {
			t.Fatalf("Check = %v, want top_delay's differing rows marked", err)
		}
	})
}

// BenchmarkHandwritten loads both graphs (the airline graph at -scale),
// checks every workload's rows (Check), then PROFILEs and times the
// workloads that passed and prints the table on stdout:
//
//	go test ./bench/handwritten -run XXX -bench . -benchtime 1x -timeout 60m -scale full -runs 20
func BenchmarkHandwritten(b *testing.B) {
	scale := Scale(*scaleFlag)
	if _, err := sizesOf(scale); err != nil {
		b.Fatal(err)
	}
	d, es, ws, g := setup(b, scale)
	if *onlyFlag != "" {
		keep := map[string]bool{}
		for _, k := range strings.Split(*onlyFlag, ",") {
			keep[k] = true
		}
		var sel []Workload
		for _, w := range ws {
			if keep[w.Key] {
				sel = append(sel, w)
			}
		}
		ws = sel
	}
	ctx := context.Background()
	db := neo4jtest.Database()
	rows, failed := Check(ctx, d, db, es, ws)
	var passed []Workload
	for _, w := range ws {
		if _, bad := failed[w.Key]; !bad {
			passed = append(passed, w)
		}
	}
	for b.Loop() {
		ms, err := Measure(ctx, d, db, es, passed, rows, *runsFlag, 3)
		if err != nil {
			b.Fatal(err)
		}
		nodes, rels := g.Counts()
		r := &Report{
			Graphs: fmt.Sprintf("net/http fixture (code workloads, line_count materialized); airline %s, seed %d: %d nodes, %d relationships",
				scale, g.Seed, nodes, rels),
			Commit:       commit(),
			Command:      fmt.Sprintf("go test ./bench/handwritten -run XXX -bench . -benchtime 1x -timeout 60m -scale %s -runs %d", scale, *runsFlag),
			Measurements: ms, Failed: failed, Order: ws,
		}
		r.Write(os.Stdout, *plansFlag)
		for _, m := range ms {
			b.ReportMetric(m.HitsRatio(), m.Workload.Key+"_hits_x")
			b.ReportMetric(m.TimeRatio(), m.Workload.Key+"_time_x")
		}
	}
	for _, w := range ws {
		if err, bad := failed[w.Key]; bad {
			b.Errorf("%s: %v", w.Key, err)
		}
	}
}

// commit names the tree measured: HEAD, marked when the work tree has
// uncommitted changes; "" outside a git checkout.
func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += " (with uncommitted changes)"
	}
	return c
}

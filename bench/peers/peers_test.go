package peers

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// Flags of BenchmarkPeers (go test passes them to the test binary).
var (
	scaleFlag = flag.String("scale", string(NetHTTP), "fixture graph of BenchmarkPeers: nethttp or stdlib (the whole standard library, about 316,000 nodes)")
	nFlag     = flag.Int("runs", 50, "timed runs per workload and side in BenchmarkPeers")
	minNodes  = flag.Int("min-nodes", 0, "replace the config's materialization min_nodes (0: keep the config's), to see ragforge with line_count materialized on a small graph")
	noSource  = flag.Bool("without-source", false, "leave source out of the GraphQL selections (ragforge cuts it to 500 characters; @neo4j/graphql cannot), to measure what returning it whole costs")
	profFlag  = flag.Bool("profile", false, "after the table, PROFILE both sides' statements and time them on the Go driver alone")
	debugFlag = flag.Bool("graphql-debug", false, "print the Cypher @neo4j/graphql runs (DEBUG=@neo4j/graphql:*) on stderr")
)

// codeRAGConfig is the code-RAG example config, which describes the fixture graph.
const codeRAGConfig = "../../testdata/configs/valid/code-rag.yaml"

// requireRunner skips the test when the Node runner cannot start, and
// fails it under CI=true, where scripts/test installs it (npm ci).
func requireRunner(tb testing.TB) {
	tb.Helper()
	if why := RunnerMissing("graphql"); why != "" {
		if os.Getenv("CI") == "true" {
			tb.Fatal(why + " (CI=true: the peers check must run)")
		}
		tb.Skip(why)
	}
}

// conn returns the test server's connection settings for the runner,
// from neo4jtest.Flags (the password comes through a file).
func conn(tb testing.TB) Conn {
	tb.Helper()
	args := neo4jtest.Flags(tb)
	c := Conn{}
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "--uri":
			c.URI = args[i+1]
		case "--user":
			c.User = args[i+1]
		case "--database":
			c.Database = args[i+1]
		case "--password-file":
			b, err := os.ReadFile(args[i+1])
			if err != nil {
				tb.Fatal(err)
			}
			c.Password = strings.TrimRight(string(b), "\n")
		}
	}
	return c
}

// prepare loads the config and prepares ragforge on the loaded graph
// (Prepare); minNodes > 0 replaces the config's min_nodes.
func prepare(tb testing.TB, d neo4j.DriverWithContext, ws []Workload, minNodes int) (*engine.Engine, *Setup) {
	tb.Helper()
	m, err := config.Load(codeRAGConfig)
	if err != nil {
		tb.Fatal(err)
	}
	if minNodes > 0 {
		m.Materialization.MinNodes = minNodes
	}
	e, setup, err := Prepare(context.Background(), d, neo4jtest.Database(), m, ws, os.Stderr)
	if err != nil {
		tb.Fatal(err)
	}
	return e, setup
}

// startRunner starts the GraphQL runner, closed at the end of the test.
func startRunner(tb testing.TB) *GraphQL {
	tb.Helper()
	var env []string
	if *debugFlag {
		env = append(env, "DEBUG=@neo4j/graphql:*")
	}
	gql, err := StartGraphQL("graphql", conn(tb), os.Stderr, env...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := gql.Close(); err != nil {
			tb.Errorf("closing the runner: %v", err)
		}
	})
	return gql
}

// TestPeersReturnSameRows proves, on the net/http fixture, that ragforge
// and @neo4j/graphql answer every workload of the comparison with the same
// rows in the same order, the rows computed from the parsed source: with
// line_count computed per query (min_nodes raised above net/http's 4,312
// Scopes) and out of the box, where the auto policy materializes it as at
// the standard-library scale; that the timing and profiling paths run;
// and that a differing answer fails the check. The benchmark's numbers rest on it.
func TestPeersReturnSameRows(t *testing.T) {
	requireRunner(t)
	d := neo4jtest.Open(t)
	g := fixturetest.LoadNetHTTP(t, d)
	ws := Workloads(ParamsFor(NetHTTP))
	gql := startRunner(t)
	ctx := context.Background()
	var e *engine.Engine
	for _, c := range []struct {
		name      string
		minNodes  int
		lineCount string
	}{
		{"line_count computed (min_nodes 10,000)", 10000, "computed per query"},
		{"out of the box (line_count materialized)", 0, "stored (materialized, indexed)"},
	} {
		var setup *Setup
		e, setup = prepare(t, d, ws, c.minNodes)
		for _, l := range setup.Lines() {
			t.Log(l)
		}
		if err := Check(ctx, e, gql, g, ws); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ts, err := Measure(ctx, e, gql, ws, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range ts {
			if x.Ragforge <= 0 || x.GraphQL <= 0 || x.Rows == 0 {
				t.Errorf("%s: %s: timings %v and %v for %d rows, want positive", c.name, x.Workload.Key, x.Ragforge, x.GraphQL, x.Rows)
			}
			if (x.Workload.Key == "top10" || x.Workload.Key == "range") && x.LineCount != c.lineCount {
				t.Errorf("%s: %s: ragforge's line_count is %s, want %s", c.name, x.Workload.Key, x.LineCount, c.lineCount)
			}
		}
		ps, err := ProfileWorkloads(ctx, d, neo4jtest.Database(), e, gql, ws, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.GraphQLCypher == "" || p.RagforgeHits == 0 || p.GraphQLHits == 0 || p.RagforgeDriver <= 0 || p.GraphQLDriver <= 0 {
				t.Errorf("%s: %s: profile %+v, want both statements profiled and timed", c.name, p.Workload.Key, p)
			}
		}
	}

	// A GraphQL query that asks another question (here: the opposite
	// order) must fail the check, naming the workload and marking the
	// rows, rather than be timed.
	t.Run("CheckFailsLoudlyWhenAnswersDiffer", func(t *testing.T) {
		bad := ws[1]
		bad.Query = strings.Replace(bad.Query, "sort: [{uuid: ASC}]", "sort: [{uuid: DESC}]", 1)
		err := Check(ctx, e, gql, g, []Workload{bad})
		if err == nil || !strings.Contains(err.Error(), "prefix") || !strings.Contains(err.Error(), "≠") {
			t.Fatalf("Check = %v, want the prefix workload named with its differing rows marked", err)
		}
	})
}

// BenchmarkPeers loads the fixture at -scale, prepares ragforge out of the
// box (Prepare), checks the rows (Check) and prints the comparison table
// (medians of -runs runs per side) on stdout:
//
//	go test ./bench/peers -run XXX -bench BenchmarkPeers -benchtime 1x -timeout 60m -scale stdlib -runs 50
func BenchmarkPeers(b *testing.B) {
	requireRunner(b)
	scale := Scale(*scaleFlag)
	if scale != NetHTTP && scale != Stdlib {
		b.Fatalf("-scale %q: want %s or %s", scale, NetHTTP, Stdlib)
	}
	d := neo4jtest.Open(b)
	var g *fixture.Graph
	if scale == Stdlib {
		g = loadStdlib(b, d)
	} else {
		g = fixturetest.LoadNetHTTP(b, d)
	}
	ws := Workloads(ParamsFor(scale))
	if *noSource {
		for i := range ws {
			ws[i].Query = strings.Replace(ws[i].Query, " source ", " ", 1)
		}
	}
	gql := startRunner(b)
	e, setup := prepare(b, d, ws, *minNodes)
	ctx := context.Background()
	if err := Check(ctx, e, gql, g, ws); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ts, err := Measure(ctx, e, gql, ws, *nFlag, 5)
		if err != nil {
			b.Fatal(err)
		}
		nodes := g.Nodes()
		r := &Report{
			Scale: scale,
			Graph: fmt.Sprintf("%s, %d Directory, %d File, %d Scope nodes", g.Source, nodes["Directory"], nodes["File"], nodes["Scope"]),
			Setup: setup, Versions: gql.Versions, Timings: ts,
			Command: command(scale),
		}
		r.Write(os.Stdout)
		if *profFlag {
			ps, err := ProfileWorkloads(ctx, d, neo4jtest.Database(), e, gql, ws, *nFlag)
			if err != nil {
				b.Fatal(err)
			}
			WriteProfiles(os.Stdout, ps, ts)
		}
		for _, x := range ts {
			b.ReportMetric(x.Speedup(), x.Workload.Key+"_x")
		}
	}
}

// command is the go test command line of a BenchmarkPeers run with these
// flags.
func command(scale Scale) string {
	c := fmt.Sprintf("go test ./bench/peers -run XXX -bench BenchmarkPeers -benchtime 1x -timeout 60m -scale %s -runs %d", scale, *nFlag)
	if *minNodes > 0 {
		c += fmt.Sprintf(" -min-nodes %d", *minNodes)
	}
	if *noSource {
		c += " -without-source"
	}
	if *profFlag {
		c += " -profile"
	}
	return c
}

// loadStdlib parses and loads the whole standard library.
func loadStdlib(tb testing.TB, d neo4j.DriverWithContext) *fixture.Graph {
	tb.Helper()
	src, err := fixture.GOROOTSrc()
	if err != nil {
		tb.Fatal(err)
	}
	g, err := fixture.ParseDeclarations(src)
	if err != nil {
		tb.Fatal(err)
	}
	start := time.Now()
	stats, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database(), Progress: os.Stderr})
	if err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "peers: loaded %d nodes in %v\n", stats.Nodes, time.Since(start).Round(time.Second))
	return g
}

package analytics_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/analytics"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/fixture/hubgraph"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// hubModel is the hub graph's config (20,000 airports, 100,000 routes)
// with an analytics block over routes: PageRank, and clusters by alg.
func hubModel(tb testing.TB, alg string) *model.Model {
	tb.Helper()
	m, err := config.Load("../../testdata/hub/routes.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	g := model.AnalyticsGraph{Entity: "Airport", Relationships: []string{"ROUTE"}, Show: []string{"name"}}
	m.Analytics = &model.Analytics{MaxNodes: 100000, Importance: []*model.AnalyticsGraph{&g},
		Clusters: []*model.AnalyticsClusters{{AnalyticsGraph: g, Algorithm: alg, MinSize: 2}}}
	if err := config.Validate(m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// loadHub loads the hub graph once per test or benchmark.
func loadHub(tb testing.TB) neo4j.DriverWithContext {
	tb.Helper()
	d := neo4jtest.Open(tb)
	neo4jtest.RequireGDS(tb, d)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := hubgraph.Load(ctx, d, neo4jtest.Database(), hubgraph.Generate(hubgraph.Default)); err != nil {
		tb.Fatal(err)
	}
	return d
}

func tool(tb testing.TB, a *analytics.Analytics, name string) tools.CustomTool {
	tb.Helper()
	i := slices.IndexFunc(a.Tools(), func(t tools.CustomTool) bool { return t.Name == name })
	if i < 0 {
		tb.Fatalf("no tool %s", name)
	}
	return a.Tools()[i]
}

// TestATimedOutCallDropsItsProjection: calls on the hub graph that run
// out of time at different points (projecting, running the algorithm,
// reading) fail with a timeout and leave no projection.
func TestATimedOutCallDropsItsProjection(t *testing.T) {
	d := loadHub(t)
	m := hubModel(t, model.Louvain)
	timedOut := 0
	for _, timeout := range []time.Duration{50 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond, time.Second} {
		a := analytics.New(m, tools.Env{Driver: d, Database: neo4jtest.Database(), Capabilities: tools.Capabilities{GDS: true}, Timeout: timeout})
		for _, name := range []string{analytics.ImportanceToolName("Airport"), analytics.ClustersToolName("Airport")} {
			_, err := tool(t, a, name).Handler(context.Background(), json.RawMessage(`{}`))
			var te *neo4jtx.TimeoutError
			if err != nil && !errors.As(err, &te) {
				t.Errorf("%s within %v: %v; want a timeout or an answer", name, timeout, err)
			}
			if te != nil {
				timedOut++
			}
			t.Logf("%s within %v: %v", name, timeout, err)
			requireNoProjection(t, d)
		}
	}
	if timedOut == 0 {
		t.Error("no call timed out; the test proves nothing")
	}
}

// BenchmarkAnalyticsHub measures one call of each analytics tool on the
// hub graph (20,000 airports, 100,000 routes) with 1 and 2 GDS workers;
// the median-ms metric is the median call:
//
//	go test ./internal/analytics -run XXX -bench AnalyticsHub -benchtime 10x
func BenchmarkAnalyticsHub(b *testing.B) {
	d := loadHub(b)
	for _, alg := range []string{model.Louvain, model.Leiden} {
		m := hubModel(b, alg)
		for _, workers := range []int{1, 2} {
			a := analytics.NewWorkers(m, tools.Env{Driver: d, Database: neo4jtest.Database(), Capabilities: tools.Capabilities{GDS: true}, Timeout: 5 * time.Minute}, workers)
			names := []string{analytics.ClustersToolName("Airport")}
			if alg == model.Louvain {
				names = append([]string{analytics.ImportanceToolName("Airport")}, names...)
			}
			for _, name := range names {
				label := name
				if name == analytics.ClustersToolName("Airport") {
					label += "_" + alg
				}
				b.Run(fmt.Sprintf("%s/concurrency=%d", label, workers), func(b *testing.B) {
					t := tool(b, a, name)
					took := make([]time.Duration, b.N)
					for i := range b.N {
						start := time.Now()
						if _, err := t.Handler(context.Background(), json.RawMessage(`{}`)); err != nil {
							b.Fatal(err)
						}
						took[i] = time.Since(start)
					}
					slices.Sort(took)
					b.ReportMetric(float64(took[b.N/2].Microseconds())/1000, "median-ms")
				})
			}
		}
	}
}

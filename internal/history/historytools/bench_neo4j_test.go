package historytools_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/history/gitimport"
	"github.com/ragforge/ragforge/internal/history/historytest"
	"github.com/ragforge/ragforge/internal/history/historytools"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tools"
)

// BenchmarkToolsOnThisRepository loads this repository's Go tree as a code
// graph, imports its own git history, and reports each history tool's
// median latency over b.N calls (docs/history.md):
//
//	RAGFORGE_NEO4J_DIR=… go test ./internal/history/historytools -run '^$' -bench . -benchtime 50x
func BenchmarkToolsOnThisRepository(b *testing.B) {
	d := neo4jtest.Open(b)
	historytest.Load(b, d, "../../..")
	m, err := config.Load("../../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		b.Fatal(err)
	}
	stats, err := gitimport.Import(context.Background(), d, m, "../../..", gitimport.Options{Database: neo4jtest.Database()})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("imported %s", stats)
	e, err := engine.New(b.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tools: tools.Options{History: true}})
	if err != nil {
		b.Fatal(err)
	}
	calls := []struct {
		name string
		args string
	}{
		{historytools.EntityHistory, `{"entity_type":"File","key":"engine/engine.go","limit":20}`},
		{historytools.EntityHistory + "/by_name", `{"entity_type":"Scope","conditions":[{"field":"name","operator":"=","value":"New"},{"field":"file","operator":"=","value":"engine/engine.go"}],"limit":20}`},
		{historytools.RecentlyModified, `{"relative_period":"last_3_months","limit":20}`},
		{historytools.RecentlyModified + "/latest", `{"relative_period":"last_7_days","relative_to":"latest_change","limit":20}`},
		{historytools.MostModified, `{"entity_type":"Scope","order_by":"churn","limit":20}`},
		{historytools.MostModified + "/functions", `{"entity_type":"Scope","order_by":"churn","limit":20,"conditions":[{"field":"type","operator":"IN","value":["function","method"]}]}`},
		{historytools.Statistics, `{"bucket":"day"}`},
		{historytools.CompareVersions, `{"entity_type":"File","key":"engine/engine.go","from":"2000-01-01"}`},
	}
	for _, c := range calls {
		b.Run(c.name, func(b *testing.B) {
			// A name's /variant calls the tool with other arguments.
			tool, _, _ := strings.Cut(c.name, "/")
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := e.Execute(context.Background(), engine.Call{Name: tool, Arguments: json.RawMessage(c.args)}); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
		})
	}
}

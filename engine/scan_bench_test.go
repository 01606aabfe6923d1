package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tools"
)

// stringBytes sums the bytes of the strings in a value (rows, maps,
// lists): what a statement's text columns cost to transfer.
func stringBytes(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case []any:
		n := 0
		for _, y := range x {
			n += stringBytes(y)
		}
		return n
	case map[string]any:
		n := 0
		for _, y := range x {
			n += stringBytes(y)
		}
		return n
	}
	return 0
}

// BenchmarkRegexScanTransfer measures, on the net/http fixture, regex
// calls whose literal prefilter keeps most Scopes as candidates: the time
// per call through Execute, and the text bytes the candidate statement
// returns (text_kB per call), which is what the two-step scan (ids and
// matched values first, the kept entities' properties second) saves.
func BenchmarkRegexScanTransfer(b *testing.B) {
	f := loadNetHTTPB(b)
	ctx := context.Background()
	for _, c := range []struct{ name, args string }{
		{"name_any_digit", `{"entity_type":"Scope","field":"name","pattern":".*[0-9].*","mode":"regex","case_sensitive":true}`},
		{"source_regex", `{"entity_type":"Scope","field":"source","pattern":"(?s).*Hijack.*","mode":"regex","case_sensitive":true}`},
	} {
		call := engine.Call{Name: tools.TextPatternSearch, Arguments: json.RawMessage(c.args)}
		st, err := f.e.Plan(ctx, call)
		if err != nil {
			b.Fatal(err)
		}
		res, err := neo4j.ExecuteQuery(ctx, f.d, st.Cypher, st.Params, neo4j.EagerResultTransformer,
			neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
		if err != nil {
			b.Fatal(err)
		}
		bytes := 0
		for _, r := range res.Records {
			bytes += stringBytes(r.Values)
		}
		b.Run(c.name, func(b *testing.B) {
			for range 5 {
				if _, err := f.e.Execute(ctx, call); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				if _, err := f.e.Execute(ctx, call); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bytes)/1000, "text_kB/op")
			b.ReportMetric(float64(len(res.Records)), "candidates/op")
		})
	}
}

package engine_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
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
		call := engine.Call{Name: planner.TextPatternSearch, Arguments: json.RawMessage(c.args)}
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

// BenchmarkRegexScanStdlib measures regex calls over the 308,856 Scope
// names of the whole standard library (the fixture at the scale
// bench/peers calls stdlib, with the code-RAG config's indexes applied),
// whose pattern has no literal for Neo4j to narrow the candidates by, so
// every name is read, and every name of 8 characters or more (the
// pattern's least length, a size() condition in Neo4j) is matched in Go;
// it reports the median latency of Execute (median_ms) beside the mean:
//
//	go test ./engine -run XXX -bench RegexScanStdlib -benchtime 21x -timeout 30m
//
// Loading the standard library takes about 25 s and holds the test
// server's lock, so CI does not run it.
func BenchmarkRegexScanStdlib(b *testing.B) {
	d := neo4jtest.Open(b)
	ctx := context.Background()
	g := fixturetest.LoadStdlib(b, d)
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		b.Fatal(err)
	}
	e, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database()})
	if err != nil {
		b.Fatal(err)
	}
	long := 0
	for _, s := range g.Scopes {
		if utf8.RuneCountInString(s.Name) >= 8 {
			long++
		}
	}
	for _, c := range []struct{ name, args string }{
		{"eight_digits", `{"entity_type":"Scope","field":"name","pattern":".*[0-9]{8}.*","mode":"regex","case_sensitive":true,"limit":50}`},
		{"eight_digits_ignoring_case", `{"entity_type":"Scope","field":"name","pattern":".*[0-9]{8}.*","mode":"regex","limit":50}`},
	} {
		call := engine.Call{Name: planner.TextPatternSearch, Arguments: json.RawMessage(c.args)}
		b.Run(c.name, func(b *testing.B) {
			var r *engine.Result
			for range 3 {
				if r, err = e.Execute(ctx, call); err != nil {
					b.Fatal(err)
				}
			}
			if r.Stats[engine.StatScanComplete] != true || r.Stats[engine.StatCandidatesScanned] != long {
				b.Fatalf("stats %v: want all %d names of 8 characters or more scanned", r.Stats, long)
			}
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := e.Execute(ctx, call); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median_ms")
			b.ReportMetric(float64(r.Stats[engine.StatCandidatesMatched].(int)), "matches")
		})
	}
}

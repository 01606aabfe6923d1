package embed_test

import (
	"context"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/embed"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// BenchmarkEmbedScopes embeds the signature of every Scope of net/http or
// of the whole standard library with the offline embedder (768
// dimensions, the code-RAG config's index), batches of 100, and reports
// nodes/s; the second run (nothing to do) is reported as check-nodes/s.
//
//	go test ./internal/embed -run XXX -bench 'EmbedScopes/nethttp' -benchtime 1x
//	go test ./internal/embed -run XXX -bench 'EmbedScopes/stdlib' -benchtime 1x -timeout 60m
func BenchmarkEmbedScopes(b *testing.B) {
	for _, c := range []struct {
		name string
		load func(testing.TB, neo4j.DriverWithContext)
	}{
		{"nethttp", func(t testing.TB, d neo4j.DriverWithContext) { fixturetest.LoadNetHTTP(t, d) }},
		{"stdlib", func(t testing.TB, d neo4j.DriverWithContext) { fixturetest.LoadStdlib(t, d) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			d := neo4jtest.Open(b)
			c.load(b, d)
			m, err := config.Load("../../testdata/configs/valid/code-rag.yaml")
			if err != nil {
				b.Fatal(err)
			}
			opts := embed.Options{Database: neo4jtest.Database(), Embedder: embedder.Offline{}, Fields: []string{"Scope.signature"}}
			for range b.N {
				neo4jtest.Run(b, d, "MATCH (n:Scope) CALL (n) { REMOVE n.signature_embedding, n.signature_embedding_text_hash } IN TRANSACTIONS OF 10000 ROWS", nil)
				rep, err := embed.Run(context.Background(), d, m, opts)
				if err != nil {
					b.Fatal(err)
				}
				r := rep.Indexes[0]
				b.ReportMetric(float64(r.Embedded)/r.Seconds, "nodes/s")
				b.ReportMetric(float64(r.Embedded), "nodes")
				again, err := embed.Run(context.Background(), d, m, opts)
				if err != nil {
					b.Fatal(err)
				}
				if a := again.Indexes[0]; a.Embedded != 0 {
					b.Fatalf("second run embedded %d", a.Embedded)
				} else {
					b.ReportMetric(float64(a.Current)/a.Seconds, "check-nodes/s")
				}
			}
		})
	}
}

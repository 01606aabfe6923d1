package similar_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/embed"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// BenchmarkFindSimilarNetHTTP calls find_similar_scope on the net/http
// code graph (4,312 Scopes, signatures embedded offline into the code-RAG
// config's 768-dimension index; structure over CONTAINS, the fixture's
// one Scope relationship, so the Scopes of one file share a neighbour)
// for 50 Scopes in turn, and reports the median latency per mode.
//
//	go test ./internal/similar -run XXX -bench FindSimilarNetHTTP -benchtime 200x
func BenchmarkFindSimilarNetHTTP(b *testing.B) {
	d := neo4jtest.Open(b)
	fixturetest.LoadNetHTTP(b, d)
	m, err := config.Load("../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		b.Fatal(err)
	}
	m.Similarity = []*model.Similar{{Entity: "Scope", Index: "scope_signature_embeddings", Via: []string{"CONTAINS"}}}
	ctx := context.Background()
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		b.Fatal(err)
	}
	if _, err := embed.Run(ctx, d, m, embed.Options{Database: neo4jtest.Database(), Embedder: embedder.Offline{}, Fields: []string{"Scope.signature"}}); err != nil {
		b.Fatal(err)
	}
	e, err := engine.New(b.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database()})
	if err != nil {
		b.Fatal(err)
	}
	res, err := neo4j.ExecuteQuery(ctx, d, "MATCH (n:Scope) WHERE n.signature_embedding IS NOT NULL RETURN n.uuid ORDER BY n.uuid LIMIT 50", nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, r := range res.Records {
		ids = append(ids, r.Values[0].(string))
	}
	for _, mode := range []string{"semantic", "structural", "hybrid"} {
		b.Run(mode, func(b *testing.B) {
			took := make([]time.Duration, b.N)
			for i := range b.N {
				args, _ := json.Marshal(map[string]any{"id": ids[i%len(ids)], "mode": mode})
				start := time.Now()
				if _, err := e.Execute(ctx, engine.Call{Name: "find_similar_scope", Arguments: args}); err != nil {
					b.Fatal(err)
				}
				took[i] = time.Since(start)
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[b.N/2].Microseconds())/1000, "median-ms")
		})
	}
}

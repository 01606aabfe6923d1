package retrievaleval

import (
	"testing"

	"github.com/ragforge/ragforge/retrieval"
)

// BenchmarkSelect1000Tools measures one selection against a 1,000-tool
// catalog pooled from the real BFCL and MetaTool tool texts, with the dev
// messages of all data sets as queries.
func BenchmarkSelect1000Tools(b *testing.B) {
	sets := loadData(b)
	docs := PooledCatalog(sets, LatencyCatalogSize)
	if len(docs) < LatencyCatalogSize {
		b.Fatalf("pooled catalog has only %d tools", len(docs))
	}
	ix, err := retrieval.NewIndex(docs)
	if err != nil {
		b.Fatal(err)
	}
	msgs := Messages(sets, SplitDev)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := ix.Select(msgs[i%len(msgs)], retrieval.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPooledCatalogReachesLatencySize(t *testing.T) {
	sets := loadData(t)
	docs := PooledCatalog(sets, LatencyCatalogSize)
	if len(docs) != LatencyCatalogSize {
		t.Fatalf("pooled catalog has %d tools, want %d", len(docs), LatencyCatalogSize)
	}
	ix, err := retrieval.NewIndex(docs)
	if err != nil {
		t.Fatal(err)
	}
	p50, p99, err := Latency(ix, Messages(sets, SplitDev)[:500], retrieval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("1000 tools: p50 %v p99 %v", p50, p99)
}

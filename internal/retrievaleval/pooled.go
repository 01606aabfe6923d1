package retrievaleval

import (
	"slices"
	"time"

	"github.com/ragforge/ragforge/retrieval"
)

// LatencyCatalogSize is the catalog size of the latency target (p99 < 5 ms
// for 1,000 tools).
const LatencyCatalogSize = 1000

// PooledCatalog merges the catalogs of several data sets (first definition
// of a name wins) and keeps the first n tools, giving a large catalog of real
// tool texts for latency measurement.
func PooledCatalog(sets []DataSet, n int) []retrieval.Document {
	seen := map[string]bool{}
	var docs []retrieval.Document
	for _, ds := range sets {
		for _, d := range ds.Docs {
			if len(docs) == n {
				return docs
			}
			if !seen[d.Name] {
				seen[d.Name] = true
				docs = append(docs, d)
			}
		}
	}
	return docs
}

// Messages returns the messages of every data set in the split, in order.
func Messages(sets []DataSet, split string) []string {
	var msgs []string
	for _, ds := range sets {
		for _, c := range ds.Cases {
			if c.Split == split {
				msgs = append(msgs, c.Message)
			}
		}
	}
	return msgs
}

// Latency runs Select for every message and returns the p50 and p99 of the
// per-call time.
func Latency(ix *retrieval.Index, msgs []string, opts retrieval.Options) (p50, p99 time.Duration, err error) {
	lat := make([]time.Duration, 0, len(msgs))
	for _, m := range msgs {
		start := time.Now()
		if _, err := ix.Select(m, opts); err != nil {
			return 0, 0, err
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	return percentile(lat, 0.5), percentile(lat, 0.99), nil
}

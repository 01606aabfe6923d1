package evaluate

import (
	"os"
	"testing"

	"github.com/ragforge/ragforge/retrieval"
)

func loadOrSkip(t testing.TB) []DataSet {
	dir, err := DefaultDataDir()
	if err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("evaluation data not present at %s", dir)
	}
	sets, err := LoadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	return sets
}

func TestDevReport(t *testing.T) {
	for _, ds := range loadOrSkip(t) {
		r, err := Run(ds, SplitDev, retrieval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-28s n=%4d tools=%3d R@1=%.3f R@5=%.3f R@12=%.3f MRR=%.3f sel=%.3f fb=%.3f k=%.1f tok=%.3f p50=%v p99=%v",
			r.DataSet, r.Messages, r.Tools, r.RecallAt1, r.RecallAt5, r.RecallAt12, r.MRR, r.SelectionRecall, r.FallbackRate, r.MeanSelected, r.TokenShare, r.P50, r.P99)
	}
}

package retrievaleval

import (
	"fmt"
	"testing"

	"github.com/ragforge/ragforge/retrieval"
)

func TestZZExp(t *testing.T) {
	sets := loadData(t)
	for _, o := range []retrieval.Options{
		{},
		{TopK: 5, FallbackK: 8},
		{TopK: 5, FallbackK: 8, MinScoreRatio: 0.2},
		{TopK: 5, FallbackK: 8, MinScoreRatio: 0.3},
		{TopK: 5, FallbackK: 8, MinScoreRatio: 0.5},
		{TopK: 3, FallbackK: 5, MinScoreRatio: 0.3},
		{TopK: 8, FallbackK: 12, MinScoreRatio: 0.3},
	} {
		fmt.Printf("top %d fb %d ratio %.2f\n", o.TopK, o.FallbackK, o.MinScoreRatio)
		for _, ds := range sets {
			r, err := Run(ds, SplitDev, o)
			if err != nil { t.Fatal(err) }
			fmt.Printf("   %-26s sel=%.3f R@5=%.3f fb=%.3f k=%.1f tok=%.3f\n", r.DataSet, r.SelectionRecall, r.RecallAt5, r.FallbackRate, r.MeanSelected, r.TokenShare)
		}
	}
}

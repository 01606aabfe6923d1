package evaluate

import (
	"os"
	"testing"

	"github.com/ragforge/ragforge/retrieval"
)

// loadOrSkip loads the public evaluation data, or skips when the folder is
// absent; under CI=true, where ../shared is always beside the clone, a
// missing folder fails instead, so the evaluation cannot silently stop.
func loadOrSkip(t testing.TB) []DataSet {
	dir, err := DefaultDataDir()
	if err == nil {
		_, err = os.Stat(dir)
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("evaluation data not found (CI=true: it must be there): %v", err)
		}
		t.Skipf("evaluation data not present: %v", err)
	}
	sets, err := LoadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	return sets
}

func byName(t *testing.T, sets []DataSet, name string) DataSet {
	for _, ds := range sets {
		if ds.Name == name {
			return ds
		}
	}
	t.Fatalf("no data set %q", name)
	return DataSet{}
}

// The dev split guards against regressions; the test split is only run by
// hand (ragforge-plan eval-retrieval --split test) for MEASUREMENTS.md.
func TestDevRecallStaysAboveTargets(t *testing.T) {
	sets := loadOrSkip(t)
	floors := map[string]float64{
		"BFCL live_multiple pooled": 0.90,
		"BFCL multiple pooled":      0.90,
		"MetaTool":                  0.80,
	}
	for _, ds := range sets {
		r, err := Run(ds, SplitDev, retrieval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-26s n=%4d tools=%3d R@1=%.3f R@5=%.3f R@12=%.3f MRR=%.3f sel=%.3f fallback=%.3f tokens=%.3f p50=%v p99=%v",
			r.DataSet, r.Messages, r.Tools, r.RecallAt1, r.RecallAt5, r.RecallAt12, r.MRR, r.SelectionRecall, r.FallbackRate, r.TokenShare, r.P50, r.P99)
		if floor, ok := floors[ds.Name]; ok && r.RecallAt12 < floor {
			t.Errorf("%s dev Recall@12 = %.3f, below %.2f", ds.Name, r.RecallAt12, floor)
		}
	}
}

func TestBFCLPooledCatalogIsTheUnionOfCandidates(t *testing.T) {
	ds := byName(t, loadOrSkip(t), "BFCL live_multiple pooled")
	if len(ds.Docs) < 400 || len(ds.Docs) > 500 {
		t.Errorf("pooled catalog has %d tools, README says ~457", len(ds.Docs))
	}
	if len(ds.Cases) != 1053 {
		t.Errorf("%d messages, want 1053", len(ds.Cases))
	}
}

func TestMetaToolExamplesComeOnlyFromTheExamplesSplit(t *testing.T) {
	sets := loadOrSkip(t)
	mt := byName(t, sets, "MetaTool")
	if len(mt.Docs) != 199 {
		t.Fatalf("%d tools, want 199", len(mt.Docs))
	}
	indexed := map[string]bool{}
	for _, d := range mt.Docs {
		if len(d.Examples) > maxExamplesPerTool {
			t.Errorf("%s has %d examples", d.Name, len(d.Examples))
		}
		for _, e := range d.Examples {
			if s := SplitOf(e.User); s != SplitExamples {
				t.Errorf("%s: example %q is in split %s", d.Name, e.User, s)
			}
			indexed[e.User] = true
		}
	}
	for _, ds := range sets {
		for _, c := range ds.Cases {
			// BFCL messages of the examples split are simply unused.
			if indexed[c.Message] && c.Split != SplitExamples {
				t.Fatalf("%s: evaluated message %q is an indexed example or in the examples split", ds.Name, c.Message)
			}
		}
	}
}

func TestSplitFollowsTheREADMEHash(t *testing.T) {
	// sha256("hello") = 2cf24dba…; 0x2cf24dba = 754077114, % 10 = 4 → test.
	if got := SplitOf("hello"); got != SplitTest {
		t.Errorf("SplitOf(hello) = %s, want test", got)
	}
	counts := map[string]int{}
	for i := range 10000 {
		counts[SplitOf(string(rune('a'+i%26))+string(rune(i)))]++
	}
	if counts[SplitDev] < 800 || counts[SplitDev] > 1200 || counts[SplitExamples] < 1700 || counts[SplitExamples] > 2300 {
		t.Errorf("split proportions off: %v", counts)
	}
}

package retrievaleval

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/ragforge/ragforge/retrieval"
)

// loadData loads the vendored evaluation data; it is part of the
// repository, so a missing or broken copy fails rather than skips.
func loadData(t testing.TB) []DataSet {
	t.Helper()
	sets, err := LoadAll(mustDataDir(t))
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
	sets := loadData(t)
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
	ds := byName(t, loadData(t), "BFCL live_multiple pooled")
	if len(ds.Docs) < 400 || len(ds.Docs) > 500 {
		t.Errorf("pooled catalog has %d tools, README says ~457", len(ds.Docs))
	}
	if len(ds.Cases) != 1053 {
		t.Errorf("%d messages, want 1053", len(ds.Cases))
	}
}

func TestMetaToolExamplesComeOnlyFromTheExamplesSplit(t *testing.T) {
	sets := loadData(t)
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

func TestEvaluationDataIsVendoredInTheRepositoryWithLicences(t *testing.T) {
	dir := mustDataDir(t)
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if abs != filepath.Join(root, filepath.FromSlash(DataPath)) {
		t.Fatalf("data dir %s, want %s under the repository root %s", abs, DataPath, root)
	}
	// The README lists the sha256 of every vendored file: the copy is
	// verbatim, and each data set comes with its licence.
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	sums := regexp.MustCompile(`(?m)^([0-9a-f]{64})  \./(\S+)$`).FindAllStringSubmatch(string(readme), -1)
	listed := map[string]bool{}
	for _, m := range sums {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m[2])))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(data)); got != m[1] {
			t.Errorf("%s: sha256 %s, README says %s", m[2], got, m[1])
		}
		listed[m[2]] = true
	}
	for _, f := range []string{"metatool/LICENSE", "bfcl/LICENSE", "metatool/multi_tool_query_golden.json"} {
		if !listed[f] {
			t.Errorf("README lists no checksum for %s", f)
		}
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if rel = filepath.ToSlash(rel); rel != "README.md" && !listed[rel] {
			t.Errorf("%s is vendored but not in the README's checksums", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestEvalCountsAMetaToolMultiToolMessageOnlyWhenBothToolsAreSelected(t *testing.T) {
	mt := byName(t, loadData(t), "MetaTool multi-tool")
	examples := 0
	for _, c := range mt.Cases {
		if len(c.Want) != 2 {
			t.Fatalf("%q wants %v, not two tools", c.Message, c.Want)
		}
	}
	var raw []struct {
		Query string `json:"query"`
	}
	if err := readJSON(filepath.Join(mustDataDir(t), "metatool", "multi_tool_query_golden.json"), &raw); err != nil {
		t.Fatal(err)
	}
	for _, r := range raw {
		if SplitOf(r.Query) == SplitExamples {
			examples++
		}
	}
	if len(raw) != 497 || len(mt.Cases)+examples != 497 {
		t.Errorf("%d messages in the file, %d evaluated + %d in the examples split; want 497 in all", len(raw), len(mt.Cases), examples)
	}

	docs := []retrieval.Document{
		{Name: "weather", Description: "Weather forecast for a city."},
		{Name: "flights", Description: "Book flights between airports."},
	}
	// The message ranks both tools; it is found only when the selection
	// holds both, not when it holds one (no fallback widening here).
	msg := "weather forecast and flights to book"
	for k, found := range map[int]float64{2: 1, 1: 0} {
		ds := DataSet{Name: "two", Docs: docs, Cases: []Case{{Message: msg, Want: []string{"weather", "flights"}, Split: SplitDev}}}
		r, err := Run(ds, SplitDev, retrieval.Options{TopK: k, FallbackK: k, MinCoverage: -1, FlatRatio: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r.SelectionRecall != found || r.RecallAt12 != 1 || r.MeanSelected != float64(k) {
			t.Errorf("top %d: selection recall %.0f, recall@12 %.0f, %.0f selected; want %.0f, 1, %d", k, r.SelectionRecall, r.RecallAt12, r.MeanSelected, found, k)
		}
	}
}

// mustDataDir is DefaultDataDir for a test: the data must be there.
func mustDataDir(t testing.TB) string {
	t.Helper()
	dir, err := DefaultDataDir()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

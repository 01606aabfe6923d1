package retrieval

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func exampleIndex(t testing.TB) *Index {
	t.Helper()
	docs, err := LoadCatalog(exampleCatalog)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := NewIndex(docs)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func top(t *testing.T, ix *Index, msg string, opts Options) Selection {
	t.Helper()
	sel, err := ix.Select(msg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

func TestSelectFindsTheToolInEnglishAndArabic(t *testing.T) {
	ix := exampleIndex(t)
	cases := map[string]string{
		"how many files are there per directory?": "count_entities",
		"what packages does encoding/json import": "get_dependencies",
		"find functions that handle retries":      "semantic_search",
		"which files changed last week":           "recent_changes",
		"كم عدد الملفات في كل مجلد؟":              "count_entities",
		"ما هي الحزم التي تستوردها encoding/json": "get_dependencies",
		"ابحث عن دالة لمعالجة الأخطاء":            "semantic_search",
		"ما الملفات التي تم تعديلها مؤخرا؟":       "recent_changes",
		"أين يوجد ملف main.go":                    "find_files",
	}
	for msg, want := range cases {
		sel := top(t, ix, msg, Options{TopK: 1, FallbackK: 1})
		if len(sel.Selected) == 0 || sel.Selected[0].Name != want {
			t.Errorf("%q: want %s first, got %v", msg, want, sel.Names())
		}
	}
}

func TestSelectIsDeterministic(t *testing.T) {
	docs, err := LoadCatalog(exampleCatalog)
	if err != nil {
		t.Fatal(err)
	}
	msg := "which files import the strings package? ما هي الملفات"
	var first Selection
	for i := 0; i < 20; i++ {
		// Rebuild from a rotated document order: neither the index build
		// nor map iteration may change the answer.
		rot := append(slices.Clone(docs[i%len(docs):]), docs[:i%len(docs)]...)
		ix, err := NewIndex(rot)
		if err != nil {
			t.Fatal(err)
		}
		sel := top(t, ix, msg, Options{Debug: true})
		if i == 0 {
			first = sel
			continue
		}
		if !reflect.DeepEqual(sel, first) {
			t.Fatalf("run %d differs:\n%+v\n%+v", i, sel, first)
		}
	}
}

func TestSelectTiesAreBrokenByName(t *testing.T) {
	docs := []Document{{Name: "zeta", Description: "weather"}, {Name: "alpha", Description: "weather"}, {Name: "mid", Description: "weather"}}
	ix, err := NewIndex(docs)
	if err != nil {
		t.Fatal(err)
	}
	got := ix.Rank("weather", -1)
	if names := []string{got[0].Name, got[1].Name, got[2].Name}; !slices.Equal(names, []string{"alpha", "mid", "zeta"}) {
		t.Fatalf("got %v", names)
	}
}

func TestAlwaysIncludeToolsAreAlwaysSelected(t *testing.T) {
	ix := exampleIndex(t)
	for _, msg := range []string{"", "how many files", "xyzzy", "كم عدد", "\x00\uFFFD"} {
		sel := top(t, ix, msg, Options{TopK: 1, FallbackK: 1, MaxTools: 2, Always: []string{"recent_changes"}})
		if !slices.Contains(sel.Names(), "recent_changes") {
			t.Errorf("%q: always-include tool missing from %v", msg, sel.Names())
		}
		if len(sel.Selected) > 2 {
			t.Errorf("%q: hard cap 2 exceeded: %v", msg, sel.Names())
		}
	}
	if _, err := ix.Select("x", Options{Always: []string{"nope"}}); err == nil {
		t.Error("unknown always-include tool accepted")
	}
}

func TestFallbackTriggersWithoutSignal(t *testing.T) {
	ix := exampleIndex(t)
	for _, msg := range []string{"", "hello there", "qwertyuiop", "!!!", "the of and"} {
		sel := top(t, ix, msg, Options{TopK: 2, FallbackK: 4})
		if !sel.Fallback || sel.Reason != ReasonNoSignal {
			t.Errorf("%q: want no-signal fallback, got %+v", msg, sel)
		}
		if len(sel.Selected) != 4 {
			t.Errorf("%q: fail-open should widen to 4 tools, got %v", msg, sel.Names())
		}
	}
	sel := top(t, ix, "what packages does encoding/json import", Options{TopK: 2, FallbackK: 4})
	if sel.Fallback {
		t.Errorf("confident message fell back: %+v", sel)
	}
}

func TestFallbackTriggersOnFlatScores(t *testing.T) {
	var docs []Document
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		docs = append(docs, Document{Name: "tool_" + n, Description: "report weather"})
	}
	ix, err := NewIndex(docs)
	if err != nil {
		t.Fatal(err)
	}
	sel := top(t, ix, "weather report", Options{TopK: 2, FallbackK: 4})
	if sel.Reason != ReasonFlat || len(sel.Selected) != 4 {
		t.Fatalf("want flat fallback to 4, got %+v", sel)
	}
}

// The same question, spelled with and without harakat, tatweel, alef and ya
// variants, ta marbuta as ha, and Arabic-Indic digits.
func TestArabicSpellingVariantsSelectTheSameTools(t *testing.T) {
	ix := exampleIndex(t)
	groups := [][]string{
		{
			"كم عدد الملفات في كل مجلد؟",
			"كَمْ عَدَدُ المِلَفَّاتِ فِي كُلِّ مُجَلَّدٍ؟",
			"كـــم عـــدد الملفـــات في كل مجلد؟",
		},
		{
			"أظهر التغييرات الأخيرة منذ الأسبوع الماضي",
			"اظهر التغييرات الاخيره منذ الاسبوع الماضى",
			"إظهر التغييرات الأخيرة منذ آلأسبوع الماضي",
			"أَظْهِرْ التَّغْيِيرَاتِ الأَخِيرَةَ مُنْذُ الأُسْبُوعِ المَاضِي",
		},
		{
			"ما الملفات التي تم تعديلها في آخر ٧ أيام؟",
			"ما الملفات التى تم تعديلها فى اخر 7 ايام؟",
			"ما الملفات التي تم تعديلها في آخر ۷ أيام؟",
		},
		{
			"ابحث عن دالة تقوم بتحليل ترويسات HTTP",
			"إبحث عن داله تقوم بتحليل ترويسات HTTP",
			"اِبْحَثْ عَنْ دَالَّةٍ تَقُومُ بِتَحْلِيلِ تَرْوِيسَاتِ HTTP",
		},
	}
	for _, g := range groups {
		want := top(t, ix, g[0], Options{})
		if len(want.Selected) == 0 {
			t.Fatalf("%q selects nothing", g[0])
		}
		for _, v := range g[1:] {
			got := top(t, ix, v, Options{})
			if !slices.Equal(got.Names(), want.Names()) {
				t.Errorf("%q selects %v, but %q selects %v", v, got.Names(), g[0], want.Names())
			}
		}
	}
}

func TestOptionsFromEnv(t *testing.T) {
	env := func(kv map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
	}
	o, err := optionsFromLookup(DefaultOptions(), env(map[string]string{EnvTopK: "5", EnvDebug: "true", EnvAlways: "a, b,"}))
	if err != nil {
		t.Fatal(err)
	}
	if o.TopK != 5 || o.FallbackK != DefaultFallbackK || !o.Debug || !slices.Equal(o.Always, []string{"a", "b"}) {
		t.Fatalf("got %+v", o)
	}
	o, err = optionsFromLookup(DefaultOptions(), env(map[string]string{EnvTopK: "40"}))
	if err != nil || o.FallbackK != 40 || o.MaxTools < 40 {
		t.Fatalf("a large top-k alone must stay valid: %+v %v", o, err)
	}
	for kv, want := range map[[2]string]string{
		{EnvTopK, "twelve"}:  EnvTopK,
		{EnvTopK, "-3"}:      EnvTopK,
		{EnvFallbackK, "0"}:  EnvFallbackK,
		{EnvDebug, "maybe"}:  EnvDebug,
		{EnvFallbackK, "3"}:  "fallback-k (3) must be at least top-k (12)",
		{EnvMaxTools, "2.5"}: EnvMaxTools,
	} {
		_, err := optionsFromLookup(DefaultOptions(), env(map[string]string{kv[0]: kv[1]}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=%s: want error mentioning %q, got %v", kv[0], kv[1], want, err)
		}
	}
}

func TestIdentifierNamesAreSplitIntoWords(t *testing.T) {
	for in, want := range map[string]string{
		"get_weather":         "get weather",
		"ChaDri.change_drink": "Cha Dri change drink",
		"findUserByID":        "find User By ID",
		"HTTPServer2":         "HTTP Server 2",
		"plain":               "plain",
	} {
		if got := strings.Join(splitIdentifier(in), " "); got != want {
			t.Errorf("%s: got %q want %q", in, got, want)
		}
	}
}

func FuzzSelect(f *testing.F) {
	ix := exampleIndex(f)
	for _, s := range []string{"", "how many files", "كَمْ عَدَدُ", "٧٨٩", "\xff\xfe", "a_b.c-d/eFgH", strings.Repeat("ـ", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		sel, err := ix.Select(msg, Options{Always: []string{"find_files"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(sel.Selected) == 0 || len(sel.Selected) > DefaultMaxTools {
			t.Fatalf("bad selection size %d", len(sel.Selected))
		}
	})
}

// TestAScoreCutKeepsOnlyTheToolsCloseToTheBest: with MinScoreRatio a
// confident selection ends at the last tool scoring that share of the
// best, always-include tools stay, an uncertain selection is not cut, and
// a ratio outside [0, 1] is refused.
func TestAScoreCutKeepsOnlyTheToolsCloseToTheBest(t *testing.T) {
	ix := exampleIndex(t)
	const msg = "how many files are there per directory?"
	whole := top(t, ix, msg, Options{TopK: 8, FallbackK: 8})
	cut := top(t, ix, msg, Options{TopK: 8, FallbackK: 8, MinScoreRatio: 0.5})
	if whole.Fallback || cut.Fallback {
		t.Fatalf("%q should rank confidently: %+v", msg, whole)
	}
	var want []string
	for _, s := range whole.Selected {
		if s.Score >= 0.5*whole.Selected[0].Score {
			want = append(want, s.Name)
		}
	}
	if len(want) == len(whole.Selected) || !slices.Equal(cut.Names(), want) {
		t.Errorf("cut at half the best: %v; want %v (of %v)", cut.Names(), want, whole.Names())
	}
	withAlways := top(t, ix, msg, Options{TopK: 8, FallbackK: 8, MinScoreRatio: 0.5, Always: []string{"recent_changes"}})
	if !slices.Contains(withAlways.Names(), "recent_changes") || len(withAlways.Selected) != len(want)+1 {
		t.Errorf("with an always-include tool: %v", withAlways.Names())
	}
	uncertain := top(t, ix, "zzzz qqqq", Options{TopK: 3, FallbackK: 4, MinScoreRatio: 0.9})
	if !uncertain.Fallback || len(uncertain.Selected) != 4 {
		t.Errorf("an uncertain selection was cut: %+v", uncertain)
	}
	for _, r := range []float64{-0.1, 1.5} {
		if _, err := ix.Select(msg, Options{MinScoreRatio: r}); err == nil || !strings.Contains(err.Error(), "score cut") {
			t.Errorf("ratio %g: %v", r, err)
		}
	}
}

package tree

import (
	"fmt"
	"slices"
	"testing"
)

// sample is a small tree: a root with two directories and files in them.
func sample() []*Node {
	size := func(n int64) *int64 { return &n }
	return []*Node{
		{Path: "src", Kind: KindDirectory},
		{Path: "src/app", Kind: KindDirectory, Parent: "src"},
		{Path: "src/app/main.go", Kind: KindFile, Parent: "src/app", Size: size(100), Language: "go"},
		{Path: "src/app/main_test.go", Kind: KindFile, Parent: "src/app", Size: size(50), Language: "go"},
		{Path: "src/app/deep", Kind: KindDirectory, Parent: "src/app"},
		{Path: "src/app/deep/x.py", Kind: KindFile, Parent: "src/app/deep", Size: size(7), Language: "python"},
		{Path: "src/docs", Kind: KindDirectory, Parent: "src"},
		{Path: "src/docs/README.md", Kind: KindFile, Parent: "src/docs", Size: size(10), Language: "markdown"},
		{Path: "src/go.mod", Kind: KindFile, Parent: "src", Size: size(3), Language: "other"},
	}
}

func paths(v *view) []string {
	var out []string
	for _, n := range v.nodes {
		out = append(out, fmt.Sprintf("%d %s", n.Depth, n.Path))
	}
	return out
}

func depth(d int) *int { return &d }

func TestFilterKeepsMatchesWithTheirDirectoriesAndStartsAtTheirDeepestCommonDirectory(t *testing.T) {
	cases := []struct {
		name string
		f    Filters
		want []string
	}{
		{"everything, directories first", Filters{}, []string{"0 src", "1 src/app", "2 src/app/deep", "3 src/app/deep/x.py", "2 src/app/main.go", "2 src/app/main_test.go", "1 src/docs", "2 src/docs/README.md", "1 src/go.mod"}},
		{"a glob below one directory starts there", Filters{PathPatterns: []string{"**/*.go"}}, []string{"0 src/app", "1 src/app/main.go", "1 src/app/main_test.go"}},
		{"exclusion drops a subtree", Filters{ExcludePaths: []string{"src/app", "**/*.md"}}, []string{"0 src", "1 src/docs", "1 src/go.mod"}},
		{"languages keep files only, any case", Filters{Languages: []string{"Python", "markdown"}}, []string{"0 src", "1 src/app", "2 src/app/deep", "3 src/app/deep/x.py", "1 src/docs", "2 src/docs/README.md"}},
		{"depth cuts below the root", Filters{MaxDepth: depth(1)}, []string{"0 src", "1 src/app", "1 src/docs", "1 src/go.mod"}},
		{"nothing matches", Filters{Languages: []string{"rust"}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := paths(filter(sample(), c.f)); !slices.Equal(got, c.want) {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
	v := filter(sample(), Filters{MaxDepth: depth(1)})
	if v.hidden != 5 {
		t.Errorf("hidden below depth 1 = %d, want 5", v.hidden)
	}
}

func TestLayoutPlacesEveryNodeWithoutOverlapAndParentsBetweenTheirChildren(t *testing.T) {
	// A wide and deep generated tree: 5 levels, fan-out 4.
	var nodes []*Node
	var add func(p string, d int)
	add = func(p string, d int) {
		for i := range 4 {
			c := fmt.Sprintf("%s/%d", p, i)
			kind := KindDirectory
			if d == 5 || i == 3 {
				kind = KindFile
			}
			nodes = append(nodes, &Node{Path: c, Kind: kind, Parent: p})
			if kind == KindDirectory {
				add(c, d+1)
			}
		}
	}
	nodes = append(nodes, &Node{Path: "r", Kind: KindDirectory})
	add("r", 1)
	v := filter(nodes, Filters{})
	pos := v.layout()
	if len(pos) != len(nodes) {
		t.Fatalf("%d positions for %d nodes", len(pos), len(nodes))
	}
	for i := range pos {
		for j := i + 1; j < len(pos); j++ {
			a, b := pos[i], pos[j]
			if a.X < b.X+NodeWidth && b.X < a.X+NodeWidth && a.Y < b.Y+NodeHeight && b.Y < a.Y+NodeHeight {
				t.Fatalf("%s at %v overlaps %s at %v", v.nodes[i].Path, a, v.nodes[j].Path, b)
			}
		}
	}
	for i, n := range v.nodes {
		if pos[i].X != float64(n.Depth*ColumnStep) {
			t.Errorf("%s: x %v, want depth %d's column", n.Path, pos[i].X, n.Depth)
		}
		if len(n.Children) > 0 {
			first, last := pos[n.Children[0]].Y, pos[n.Children[len(n.Children)-1]].Y
			if pos[i].Y < first || pos[i].Y > last {
				t.Errorf("%s at y %v is outside its children's %v..%v", n.Path, pos[i].Y, first, last)
			}
		}
	}
}

func TestFetchRootIsTheDeepestDirectoryEveryPatternStaysIn(t *testing.T) {
	cases := map[string][]string{
		"":                 {"**/*.go"},
		"net/http":         {"net/http/**"},
		"net":              {"net/http/*.go", "net/mail/**"},
		"net/http/doc.go":  {"net/http/doc.go"},
		"a/b":              {"a/b/c/{x,y}", "a/b/[cd]"},
		"/abs/dir":         {"/abs/dir/**/*.md"},
		" ":                {" /x*"},
		"no common prefix": {"a/**", "b/**"},
	}
	for want, pats := range cases {
		if want == "no common prefix" {
			want = ""
		}
		if got := (Filters{PathPatterns: pats}).fetchRoot(); got != want {
			t.Errorf("%q: fetch root %q, want %q", pats, got, want)
		}
	}
}

func TestMergeAddsOrReplacesFilters(t *testing.T) {
	a := Filters{PathPatterns: []string{"a/**"}, Languages: []string{"go"}, MaxDepth: depth(3)}
	b := Filters{PathPatterns: []string{"b/**", "a/**"}, ExcludePaths: []string{"**/x"}}
	got := a.Merge(b, true)
	if !slices.Equal(got.PathPatterns, []string{"a/**", "b/**"}) || !slices.Equal(got.Languages, []string{"go"}) ||
		!slices.Equal(got.ExcludePaths, []string{"**/x"}) || got.Depth() != 3 {
		t.Errorf("additive merge: %+v", got)
	}
	if got := a.Merge(b, false); !slices.Equal(got.PathPatterns, b.PathPatterns) || got.Languages != nil || got.Depth() != DefaultMaxDepth {
		t.Errorf("replacing merge: %+v", got)
	}
	if got := a.Merge(Filters{MaxDepth: depth(9)}, true); got.Depth() != 9 {
		t.Errorf("additive merge keeps depth %d, want the new 9", got.Depth())
	}
}

func TestCheckRejectsBadGlobsAndDepths(t *testing.T) {
	f := Filters{PathPatterns: []string{"net/[http"}, ExcludePaths: []string{""}, MaxDepth: depth(-1)}
	ps := f.check()
	var at []string
	for _, p := range ps {
		at = append(at, p.path)
	}
	if want := []string{"/path_patterns/0", "/exclude_paths/0", "/max_depth"}; !slices.Equal(at, want) {
		t.Errorf("problems at %q, want %q (%v)", at, want, ps)
	}
}

func TestSummaryCountsAndNamesTheLargestFolder(t *testing.T) {
	v := filter(sample(), Filters{})
	s := v.summarize()
	if s.Files != 5 || s.Directories != 4 || s.TotalSize != 170 || s.MaxDepth != 3 ||
		s.Languages["go"] != 2 || s.Languages["python"] != 1 {
		t.Errorf("summary %+v", s)
	}
	if s.LargestFolder == nil || s.LargestFolder.Path != "src/app" || s.LargestFolder.Size != 157 || s.LargestFolder.Files != 3 {
		t.Errorf("largest folder %+v, want src/app with 157 bytes in 3 files", s.LargestFolder)
	}
	want := "src holds 5 files in 4 directories (170 bytes; go 2, markdown 1, other 1, python 1), 3 levels deep; the largest folder is src/app (157 bytes in 3 files)."
	if l := filter(sample(), Filters{PathPatterns: []string{"src/docs/*"}}).summarize().LargestFolder; l == nil || l.Path != "src/docs" {
		t.Errorf("largest folder of a tree without subdirectories: %+v, want its root src/docs", l)
	}
	if got := s.answer(v); got != want {
		t.Errorf("answer %q\nwant   %q", got, want)
	}
}

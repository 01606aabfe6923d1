package gitimport_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestImportStartsAFunctionWhereItsCodeWasWritten builds a repository
// where a new function replaces a struct type whose closing brace the
// diff aligns with the function's, and where side branches carry a copy
// of a main-line change of G that the merges do not need: once in a
// file the merge takes whole from the main line, once in a file it takes
// H from the branch and K from the main line. git log -L lists, for the
// new function, the struct's commits too (its range runs on through the
// replaced lines, which its own patch shows written whole) and, for G,
// only the main line's copies (git's history simplification): the import
// must record the new function from the commit that wrote it and what
// git log -L lists of the others, and no more.
func TestImportStartsAFunctionWhereItsCodeWasWritten(t *testing.T) {
	d := neo4jtest.Open(t)
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	src := func(body string) string { return "package p\n\n" + body }
	typ := "type state struct {\n\tn int\n}\n\nfunc G() int {\n\treturn 1\n}\n"
	r.commit("start", map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "x.go": src(typ)})
	typ2 := "type state struct {\n\tn int\n\tm int\n}\n\nfunc G() int {\n\treturn 1\n}\n"
	r.commit("change the type", map[string]string{"x.go": src(typ2)})
	fn := "func reset(s []int) {\n\tfor i := range s {\n\t\ts[i] = 0\n\t}\n}\n\nfunc G() int {\n\treturn 1\n}\n"
	r.commit("replace the type by a function", map[string]string{"x.go": src(fn)})
	created := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "side")
	fn2 := strings.Replace(fn, "return 1", "return 2", 1)
	r.commit("change G on a branch", map[string]string{"x.go": src(fn2)})
	side := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "main")
	r.commit("the same change of G on the main line", map[string]string{"x.go": src(fn2)})
	main := r.git("rev-parse", "HEAD")
	r.n++
	r.git("merge", "-q", "--no-ff", "-m", "merge the copy", "side")
	// Again, in a file the merge takes from both parents (H from the
	// branch, K from the main line): G is the same in both, so git
	// follows it into the main line only.
	funcs := func(g, h, k int) string {
		return src(fmt.Sprintf("func reset(s []int) {\n\tfor i := range s {\n\t\ts[i] = 0\n\t}\n}\n\nfunc G() int {\n\treturn %d\n}\n\nfunc H() int {\n\treturn %d\n}\n\nfunc K() int {\n\treturn %d\n}\n", g, h, k))
	}
	r.commit("add H and K", map[string]string{"x.go": funcs(2, 1, 1)})
	r.git("checkout", "-q", "-b", "side2")
	r.commit("change H, and G as the main line does", map[string]string{"x.go": funcs(3, 5, 1)})
	side2 := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "main")
	r.commit("change K, and G", map[string]string{"x.go": funcs(3, 1, 5)})
	main2 := r.git("rev-parse", "HEAD")
	r.n++
	r.git("merge", "-q", "--no-ff", "-m", "merge H", "side2")

	g, stats := r.imported(d)
	if !strings.Contains(stats.String(), "3 changes of files and declarations on branches a merge did not take them from") {
		t.Errorf("the report does not count the branches' changes (of x.go and of G twice) the merge did not take:\n%s", stats)
	}
	for _, s := range g.Scopes {
		if s.Type != fixture.TypeFunction {
			continue
		}
		gitL := strings.Fields(r.git("log", fmt.Sprintf("-L%d,%d:%s", s.StartLine, s.EndLine, s.File), "--format=%H", "-s"))
		got := scopeCommits(t, d, s.UUID)
		want := gitL
		switch s.Name {
		case "reset":
			// git log -L goes on past the commit that wrote reset.
			if len(gitL) != 3 || gitL[0] != created {
				t.Fatalf("git log -L of reset lists %v, want the commit that wrote it and the type's two", gitL)
			}
			want = gitL[:1]
		case "G":
			if slices.Contains(gitL, side) || !slices.Contains(gitL, main) || slices.Contains(gitL, side2) || !slices.Contains(gitL, main2) {
				t.Fatalf("git log -L of G lists %v: want the main line's copies %s and %s, not the branches' %s and %s", gitL, main, main2, side, side2)
			}
		case "H":
			if !slices.Contains(gitL, side2) {
				t.Fatalf("git log -L of H lists %v, without the branch's change %s the merge took", gitL, side2)
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: recorded %v, want %v (git log -L: %v)", s.Name, got, want, gitL)
		}
	}
}

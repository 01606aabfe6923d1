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

// TestImportFollowsAFunctionWrittenWholeOnlyWhereTheDiffReplacedIt builds
// a repository where, in one commit, F moves below a short function B
// (one hunk of git's diff removes F above B and adds it below: two runs
// of changed lines), G is rewritten whole in place, and peek is
// rewritten whole while its receiver type is renamed. git log -L
// restarts F at the move (its range maps into the empty old side of the
// run that adds it) and follows G and peek into the lines their run
// replaced: the import must record exactly what git log -L lists for
// each.
func TestImportFollowsAFunctionWrittenWholeOnlyWhereTheDiffReplacedIt(t *testing.T) {
	d := neo4jtest.Open(t)
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	long := "func A() int {\n" + strings.Repeat("\ta := 1\n\t_ = a\n", 6) + "\treturn 0\n}\n"
	f := func(n int) string { return fmt.Sprintf("func F() int {\n\treturn %d\n}\n", n) }
	b := "func B() int {\n\tb := 1\n\tb++\n\treturn b\n}\n"
	g := "func G() int {\n\treturn 1\n}\n"
	lexer := "type lexer struct {\n\tn int\n}\n\nfunc (l *lexer) peek() int {\n\treturn l.n\n}\n"
	file := func(parts ...string) string { return "package p\n\n" + strings.Join(parts, "\n") }
	r.commit("start", map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "x.go": file(f(1), b, long, g, lexer)})
	r.commit("change F", map[string]string{"x.go": file(f(2), b, long, g, lexer)})
	moved := file(b, f(2), long, "func G() (n int) {\n\tn = 7\n\treturn\n}\n", "type Lexer struct {\n\tm int\n}\n\nfunc (l *Lexer) peek() int {\n\treturn l.m + 1\n}\n")
	r.commit("move F, rewrite G and peek", map[string]string{"x.go": moved})
	move := r.git("rev-parse", "HEAD")

	g2, _ := r.imported(d)
	checked := 0
	for _, s := range g2.Scopes {
		if s.Type != fixture.TypeFunction && s.Type != fixture.TypeMethod || s.Name == "A" || s.Name == "B" {
			continue
		}
		checked++
		gitL := strings.Fields(r.git("log", fmt.Sprintf("-L%d,%d:%s", s.StartLine, s.EndLine, s.File), "--format=%H", "-s"))
		if s.Name == "F" && !slices.Equal(gitL, []string{move}) || s.Name != "F" && len(gitL) != 2 {
			t.Fatalf("git log -L of %s lists %v: want the move alone for F, the start and the rewrite for G and peek", s.Name, gitL)
		}
		got := scopeCommits(t, d, s.UUID)
		slices.Sort(gitL)
		if !slices.Equal(got, gitL) {
			t.Errorf("%s: recorded %v, git log -L lists %v", s.Name, got, gitL)
		}
	}
	if checked != 3 {
		t.Errorf("checked %d functions, want F, G and peek", checked)
	}
}

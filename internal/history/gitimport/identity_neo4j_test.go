package gitimport_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/history/gitimport"
	"github.com/ragforge/ragforge/internal/history/historytest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestImportStartsAFunctionWhereItsCodeWasWritten builds a repository
// where a new function replaces a struct type whose closing brace the
// diff aligns with the function's, and where a side branch carries a copy
// of a main-line commit that the merge does not need (the merge equals
// the main line's file). git log -L lists, for the new function, the
// struct's commits too (its range runs on through the replaced lines,
// which its own patch shows written whole) and, for the changed
// function, only the main line's copy (git's history simplification): the
// import must record the new function from the commit that wrote it and
// the copy git follows, as git log -L does, and no more.
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

	g, err := fixture.Parse(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	m, err := config.Load("../../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	stats, err := gitimport.Import(context.Background(), d, m, r.dir, gitimport.Options{Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stats.String(), "1 file changes of branches a merge did not take the file from") {
		t.Errorf("the report does not count the branch's change the merge did not take:\n%s", stats)
	}
	for _, s := range g.Scopes {
		if s.Type != fixture.TypeFunction {
			continue
		}
		gitL := strings.Fields(r.git("log", fmt.Sprintf("-L%d,%d:%s", s.StartLine, s.EndLine, s.File), "--format=%H", "-s"))
		var got []string
		for _, row := range historytest.Query(t, d, "MATCH (:Scope {uuid: $id})-[:HAS_CHANGE]->(c:Change) RETURN c.commit AS h", map[string]any{"id": s.UUID}) {
			got = append(got, row["h"].(string))
		}
		want := gitL
		switch s.Name {
		case "reset":
			// git log -L goes on past the commit that wrote reset.
			if len(gitL) != 3 || gitL[0] != created {
				t.Fatalf("git log -L of reset lists %v, want the commit that wrote it and the type's two", gitL)
			}
			want = gitL[:1]
		case "G":
			if slices.Contains(gitL, side) || !slices.Contains(gitL, main) {
				t.Fatalf("git log -L of G lists %v: want the main line's copy %s, not the branch's %s", gitL, main, side)
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: recorded %v, want %v (git log -L: %v)", s.Name, got, want, gitL)
		}
	}
}

package gitimport_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/history/gitimport"
	"github.com/ragforge/ragforge/internal/history/historytest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// repo builds a git repository commit by commit in a temporary directory.
type repo struct {
	t   *testing.T
	dir string
	n   int
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir, "-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	at := fmt.Sprintf("2025-01-%02dT10:00:00Z", r.n+1)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+at, "GIT_COMMITTER_DATE="+at)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files ("" removes one) and commits them.
func (r *repo) commit(subject string, files map[string]string) {
	r.t.Helper()
	for p, content := range files {
		full := filepath.Join(r.dir, p)
		if content == "" {
			r.git("rm", "-q", p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
		r.git("add", p)
	}
	r.n++
	r.git("commit", "-q", "-m", subject)
}

// imported loads the repository's tree as a code graph (code-rag's
// config) and imports its history.
func (r *repo) imported(d neo4j.DriverWithContext) (*fixture.Graph, gitimport.Stats) {
	r.t.Helper()
	g, err := fixture.Parse(r.dir)
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database()}); err != nil {
		r.t.Fatal(err)
	}
	m, err := config.Load("../../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		r.t.Fatal(err)
	}
	stats, err := gitimport.Import(context.Background(), d, m, r.dir, gitimport.Options{Database: neo4jtest.Database()})
	if err != nil {
		r.t.Fatal(err)
	}
	return g, stats
}

// scopeCommits lists the commits of a scope's Changes, sorted.
func scopeCommits(t *testing.T, d neo4j.DriverWithContext, uuid string) []string {
	t.Helper()
	var got []string
	for _, row := range historytest.Query(t, d, "MATCH (:Scope {uuid: $id})-[:HAS_CHANGE]->(c:Change) RETURN c.commit AS h", map[string]any{"id": uuid}) {
		got = append(got, row["h"].(string))
	}
	slices.Sort(got)
	return got
}

// TestImportFollowsDeclarationsAsGitLogLDoes builds a repository whose
// history shifts, renames (a function, a receiver, a file across
// directories), repeats init, changes a binary file, merges a branch and
// commits a file that does not parse; every function's recorded commits
// must equal what git log -L lists for its lines, the rename commit's
// Change must name the earlier path, and the report must say what it
// skipped.
func TestImportFollowsDeclarationsAsGitLogLDoes(t *testing.T) {
	d := neo4jtest.Open(t)
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.commit("start", map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"img.bin": "\x00\x01\x02",
		"a/x.go":  "package p\n\nfunc F() int {\n\treturn 1\n}\n\nfunc G() int {\n\treturn 2\n}\n\ntype T struct{}\n\nfunc (T) M() int {\n\treturn 3\n}\n",
	})
	r.commit("add H above F, shifting F, G and M", map[string]string{
		"a/x.go": "package p\n\nfunc H() int {\n\treturn 0\n}\n\nfunc F() int {\n\treturn 1\n}\n\nfunc G() int {\n\treturn 2\n}\n\ntype T struct{}\n\nfunc (T) M() int {\n\treturn 3\n}\n",
	})
	r.commit("change G", map[string]string{
		"a/x.go": "package p\n\nfunc H() int {\n\treturn 0\n}\n\nfunc F() int {\n\treturn 1\n}\n\nfunc G() int {\n\tx := 2\n\treturn x\n}\n\ntype T struct{}\n\nfunc (T) M() int {\n\treturn 3\n}\n",
	})
	r.commit("rename F to F2, T to U, add two inits", map[string]string{
		"a/x.go": "package p\n\nfunc H() int {\n\treturn 0\n}\n\nfunc F2() int {\n\treturn 1\n}\n\nfunc G() int {\n\tx := 2\n\treturn x\n}\n\ntype U struct{}\n\nfunc (U) M() int {\n\treturn 3\n}\n\nfunc init() {\n\t_ = 1\n}\n\nfunc init() {\n\t_ = 2\n}\n",
	})
	r.git("mv", "a", "b")
	r.n++
	r.git("commit", "-q", "-m", "move a/ to b/")
	r.commit("change F2 and the second init after the move, and the binary file", map[string]string{
		"b/x.go":  "package p\n\nfunc H() int {\n\treturn 0\n}\n\nfunc F2() int {\n\treturn 11\n}\n\nfunc G() int {\n\tx := 2\n\treturn x\n}\n\ntype U struct{}\n\nfunc (U) M() int {\n\treturn 3\n}\n\nfunc init() {\n\t_ = 1\n}\n\nfunc init() {\n\t_ = 22\n}\n",
		"img.bin": "\x00\x01\x03",
	})
	r.git("checkout", "-q", "-b", "side")
	r.commit("change M on a branch", map[string]string{
		"b/x.go": "package p\n\nfunc H() int {\n\treturn 0\n}\n\nfunc F2() int {\n\treturn 11\n}\n\nfunc G() int {\n\tx := 2\n\treturn x\n}\n\ntype U struct{}\n\nfunc (U) M() int {\n\treturn 33\n}\n\nfunc init() {\n\t_ = 1\n}\n\nfunc init() {\n\t_ = 22\n}\n",
	})
	r.git("checkout", "-q", "main")
	r.commit("a file that does not parse", map[string]string{"b/k.go": "package p\n\nfunc K( {\n"})
	r.n++
	r.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	r.commit("fix it", map[string]string{"b/k.go": "package p\n\nfunc K() int {\n\treturn 4\n}\n"})

	g, stats := r.imported(d)
	report := stats.String()
	for _, want := range []string{"1 merge commits skipped", "b/k.go does not parse", "followed through a rename"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q:\n%s", want, report)
		}
	}
	checked := 0
	for _, s := range g.Scopes {
		if s.Type != fixture.TypeFunction && s.Type != fixture.TypeMethod || s.Name == "K" {
			continue // K's first version does not parse: the report says so
		}
		checked++
		want := strings.Fields(r.git("log", fmt.Sprintf("-L%d,%d:%s", s.StartLine, s.EndLine, s.File), "--format=%H", "-s"))
		got := scopeCommits(t, d, s.UUID)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s %s:%d-%d: recorded %v, git log -L lists %v", s.Name, s.File, s.StartLine, s.EndLine, got, want)
		}
	}
	if checked != 6 {
		t.Errorf("checked %d functions, want H, F2, G, M and two inits", checked)
	}
	renamed := historytest.Query(t, d, "MATCH (:File {path: 'b/x.go'})-[:HAS_CHANGE]->(c:Change {summary: 'move a/ to b/'}) RETURN c.renamed_from AS from", nil)
	if len(renamed) != 1 || renamed[0]["from"] != "a/x.go" {
		t.Errorf("the move's Change of b/x.go: %v, want renamed_from a/x.go", renamed)
	}
	older := historytest.Query(t, d, "MATCH (:File {path: 'b/x.go'})-[r:HAS_CHANGE]->(c:Change) WITH r, c ORDER BY c.timestamp RETURN collect(r.order) AS order", nil)
	if got := fmt.Sprint(older[0]["order"]); got != "[1 2 3 4 5 6 7]" {
		t.Errorf("b/x.go's changes are numbered %s, want 1 to 7, oldest first (its history runs back through the move)", got)
	}
	unnumbered := historytest.Query(t, d, "MATCH ()-[r:HAS_CHANGE]->() WHERE r.order IS NULL RETURN count(r) AS n", nil)
	if unnumbered[0]["n"] != int64(0) {
		t.Errorf("%v changes without an order", unnumbered[0]["n"])
	}
}

// TestImportSaysWhatItCannotRead: a directory outside any git work tree
// is refused with a clear error, and a shallow clone is imported with a
// note that its history is cut.
func TestImportSaysWhatItCannotRead(t *testing.T) {
	d := neo4jtest.Open(t)
	m, err := config.Load("../../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	opts := gitimport.Options{Database: neo4jtest.Database()}
	if _, err := gitimport.Import(context.Background(), d, m, t.TempDir(), opts); err == nil || !strings.Contains(err.Error(), "is not in a git work tree") {
		t.Errorf("outside a work tree: %v", err)
	}
	dir, _ := historytest.Build(t)
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "2", "file://"+dir, shallow).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	historytest.Load(t, d, shallow)
	stats, err := gitimport.Import(context.Background(), d, m, shallow, opts)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Commits != 2 || !strings.Contains(stats.String(), "shallow clone") {
		t.Errorf("a shallow clone of 2 commits: %d commits, report:\n%s", stats.Commits, stats)
	}
}

// Package historytest builds a small Go repository with git, commit by
// commit at known times, and loads its tree as a code graph, for the
// tests of the git import and of the change-history tools, which compute
// their expected answers from the commits it returns.
package historytest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// Commit is one commit the repository was built from: its files' new
// contents ("" deletes the file).
type Commit struct {
	Hash, Subject, Author string
	Time                  time.Time
	Files                 map[string]string
}

// The files of the repository, as its commits write them. A is lines 3-5
// of a.go, B lines 7-9 (at the end); C is lines 3-5 of b.go.
const (
	aV1 = "package demo\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n"
	aV2 = "package demo\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 22\n}\n"
	aV3 = "package demo\n\nfunc A() int {\n\treturn 11\n}\n\nfunc B() int {\n\treturn 22\n}\n"
	bV1 = "package demo\n\nfunc C() int {\n\treturn 3\n}\n"
	bV2 = "package demo\n\nfunc C() int {\n\tx := 3\n\treturn x\n}\n"
	cV1 = "package demo\n\nvar D = 4\n"
)

// Commits are the repository's commits, oldest first (hashes filled by
// Build).
func Commits() []Commit {
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 10, 0, 0, 0, time.UTC) }
	return []Commit{
		{Subject: "add a.go", Author: "Ada", Time: day(1, 5), Files: map[string]string{"go.mod": "module example.com/demo\n\ngo 1.22\n", "a.go": aV1}},
		{Subject: "change B, add b.go and c.go", Author: "Bo", Time: day(1, 12), Files: map[string]string{"a.go": aV2, "b.go": bV1, "c.go": cV1}},
		{Subject: "change A and C", Author: "Ada", Time: day(2, 2), Files: map[string]string{"a.go": aV3, "b.go": bV2}},
		{Subject: "remove c.go", Author: "Bo", Time: day(2, 3), Files: map[string]string{"c.go": ""}},
	}
}

// Build writes Commits into a new git repository under t.TempDir() and
// returns its directory and the commits with their hashes.
func Build(t testing.TB) (string, []Commit) {
	t.Helper()
	return BuildFrom(t, Commits())
}

// BuildFrom writes commits, oldest first, into a new git repository
// under t.TempDir() (a file removed and another added with its content
// in one commit is a rename to git) and returns its directory and the
// commits with their hashes.
func BuildFrom(t testing.TB, commits []Commit) (string, []Commit) {
	t.Helper()
	dir := t.TempDir()
	git := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(nil, "init", "-q", "-b", "main")
	for i, c := range commits {
		for p, content := range c.Files {
			if content == "" {
				git(nil, "rm", "-q", p)
				continue
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			git(nil, "add", p)
		}
		at := c.Time.Format(time.RFC3339)
		git([]string{"GIT_AUTHOR_DATE=" + at, "GIT_COMMITTER_DATE=" + at, "GIT_AUTHOR_NAME=" + c.Author, "GIT_AUTHOR_EMAIL=a@example.com"}, "commit", "-q", "-m", c.Subject)
		commits[i].Hash = git(nil, "rev-parse", "HEAD")
	}
	return dir, commits
}

// Load parses the repository's tree as a code graph and loads it through
// d (from neo4jtest.Open).
func Load(t testing.TB, d neo4j.DriverWithContext, dir string) *fixture.Graph {
	t.Helper()
	g, err := fixture.Parse(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	return g
}

// Change is a Change the import must record.
type Change struct {
	// Entity is File or Scope; Key the file's path or the scope's uuid.
	Entity, Key, Kind string
	Commit            Commit
	Added, Removed    int
}

// Expected lists the Changes an import of the repository must record,
// oldest first: each file change of a file the graph has (its lines
// counted by change.Unified from the contents), and the scope changes the
// hunks make (known from the contents: commit 1 writes A and B, commit 2
// changes B's line 8 and writes C, commit 3 changes A's line 4 and
// replaces C's line 4 by two).
func Expected(g *fixture.Graph, commits []Commit, unified func(name, old, new string) (string, int, int)) []Change {
	inGraph := map[string]bool{}
	for _, f := range g.Files {
		inGraph[f.Path] = true
	}
	scope := map[string]string{}
	for _, s := range g.Scopes {
		scope[s.Name] = s.UUID
	}
	var out []Change
	content := map[string]string{}
	for _, c := range commits {
		for p, now := range c.Files {
			before, existed := content[p]
			content[p] = now
			if !inGraph[p] {
				continue
			}
			kind := "updated"
			if !existed {
				kind = "created"
			}
			_, a, r := unified(p, before, now)
			out = append(out, Change{Entity: "File", Key: p, Kind: kind, Commit: c, Added: a, Removed: r})
		}
	}
	for _, s := range []struct {
		commit     int
		name, kind string
		a, r       int
	}{{0, "A", "created", 3, 0}, {0, "B", "created", 3, 0}, {1, "B", "updated", 1, 1}, {1, "C", "created", 3, 0}, {2, "A", "updated", 1, 1}, {2, "C", "updated", 2, 1}} {
		out = append(out, Change{Entity: "Scope", Key: scope[s.name], Kind: s.kind, Commit: commits[s.commit], Added: s.a, Removed: s.r})
	}
	return out
}

// Query runs a read statement and returns its rows as maps.
func Query(t testing.TB, d neo4j.DriverWithContext, q string, params map[string]any) []map[string]any {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, q, params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]map[string]any, len(res.Records))
	for i, r := range res.Records {
		out[i] = r.AsMap()
	}
	return out
}

package gitimport_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/internal/history/gitimport"
	"github.com/ragforge/ragforge/internal/history/historytest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestImportRecordsEachCommitAsChangesOfFilesAndScopesAndARerunChangesNothing
// builds a repository with git, loads its tree as a code graph, imports
// its history and compares every recorded Change with what Go computes
// from the commits; a second import leaves the same Changes.
func TestImportRecordsEachCommitAsChangesOfFilesAndScopesAndARerunChangesNothing(t *testing.T) {
	d := neo4jtest.Open(t)
	dir, commits := historytest.Build(t)
	g := historytest.Load(t, d, dir)
	m, err := config.Load("../../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	stats, err := gitimport.Import(context.Background(), d, m, dir, gitimport.Options{Database: neo4jtest.Database(), BatchSize: 2, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	want := historytest.Expected(g, commits, change.Unified)
	if stats.Commits != 4 || stats.Files != 5 || stats.Scopes != 6 || stats.Unmatched != 3 {
		t.Errorf("stats %+v, want 4 commits, 5 file and 6 scope changes, 3 unmatched (go.mod, c.go twice)", stats)
	}
	if !strings.Contains(progress.String(), "history: ") {
		t.Errorf("no progress line: %q", progress.String())
	}
	first := recorded(t, d)
	var lines []string
	for _, c := range want {
		lines = append(lines, fmt.Sprintf("%s %s %s %s %s +%d -%d %s %s", c.Entity, c.Key, c.Commit.Hash, c.Kind, c.Commit.Time.Format(time.RFC3339), c.Added, c.Removed, c.Commit.Author, c.Commit.Subject))
	}
	sort.Strings(lines)
	if got := strings.Join(first, "\n"); got != strings.Join(lines, "\n") {
		t.Errorf("recorded Changes:\n%s\nwant:\n%s", got, strings.Join(lines, "\n"))
	}
	diff := historytest.Query(t, d, "MATCH (:File {path: 'a.go'})-[:HAS_CHANGE]->(c:Change {commit: $h}) RETURN c.diff AS d", map[string]any{"h": commits[1].Hash})
	if len(diff) != 1 || !strings.Contains(fmt.Sprint(diff[0]["d"]), "-\treturn 2\n+\treturn 22\n") {
		t.Errorf("a.go's diff in commit 2: %v", diff)
	}
	if _, err := gitimport.Import(context.Background(), d, m, dir, gitimport.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	if again := recorded(t, d); strings.Join(again, "\n") != strings.Join(first, "\n") {
		t.Errorf("a rerun changed the Changes:\n%s\nwant:\n%s", strings.Join(again, "\n"), strings.Join(first, "\n"))
	}
}

// recorded lists every Change with its node, sorted.
func recorded(t *testing.T, d neo4j.DriverWithContext) []string {
	t.Helper()
	recs := historytest.Query(t, d, "MATCH (n)-[:HAS_CHANGE]->(c:Change) RETURN c.entity_type AS e, c.entity_key AS k, c.commit AS h, c.kind AS kind, c.timestamp AS at, "+
		"c.lines_added AS a, c.lines_removed AS r, c.author AS au, c.summary AS s, coalesce(n.path, n.uuid) = c.entity_key AS same", nil)
	var out []string
	for _, m := range recs {
		if m["same"] != true {
			t.Errorf("Change %v hangs off another node", m)
		}
		out = append(out, fmt.Sprintf("%s %s %s %s %s +%d -%d %s %s", m["e"], m["k"], m["h"], m["kind"], m["at"].(time.Time).UTC().Format(time.RFC3339), m["a"], m["r"], m["au"], m["s"]))
	}
	sort.Strings(out)
	return out
}

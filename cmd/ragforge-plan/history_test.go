package main

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/history/historytest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestHistoryImportRecordsARepositorysCommits runs the command on a
// repository built with git whose tree is loaded: it prints what it
// wrote, and a rerun writes the same Changes and says none is new.
func TestHistoryImportRecordsARepositorysCommits(t *testing.T) {
	d := neo4jtest.Open(t)
	dir, _ := historytest.Build(t)
	historytest.Load(t, d, dir)
	for _, created := range []string{"11 new", "0 new"} {
		code, out, errOut := execute(t, append([]string{"history", "import", "--git", dir, codeRAG}, neo4jtest.Flags(t)...)...)
		if code != 0 || !strings.HasPrefix(out, "4 commits: 5 file changes, 6 scope changes written ("+created+"); 3 file changes of paths not in the graph skipped") || !strings.Contains(errOut, "history: ") {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	}
	if n := historytest.Query(t, d, "MATCH (c:Change) RETURN count(c) AS n", nil)[0]["n"]; n != int64(11) {
		t.Errorf("%v Changes after two imports, want 11", n)
	}
	if code, _, errOut := execute(t, "history", "import", codeRAG); code != 2 || !strings.Contains(errOut, "usage") {
		t.Errorf("without --git: exit %d, %s", code, errOut)
	}
}

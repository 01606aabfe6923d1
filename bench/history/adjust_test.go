package history

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAdjustDropsWhatThePatchesShowIsOtherCode builds a repository with
// git where a function replaces a struct type (its closing brace lined up
// with the type's) and another function is rewritten whole under its
// name, and checks the reasons the adjusted truth gives git log -L's
// commits of each.
func TestAdjustDropsWhatThePatchesShowIsOtherCode(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	commit := func(src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package p\n\n"+src), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "x.go")
		git("commit", "-q", "-m", "c")
	}
	git("init", "-q")
	commit("type state struct {\n\tn int\n}\n\nfunc G() int {\n\treturn 1\n}\n")
	commit("type state struct {\n\tn int\n\tm int\n}\n\nfunc G() int {\n\treturn 1\n}\n")
	// reset replaces the type; G is rewritten whole, keeping its name.
	commit("func reset(s []int) {\n\tfor i := range s {\n\t\ts[i] = 0\n\t}\n}\n\nfunc G() int64 {\n\tx := int64(2)\n\treturn x\n}\n")
	decls := []Decl{{UUID: "reset", Name: "reset", File: "x.go", Start: 3, End: 7}, {UUID: "G", Name: "G", File: "x.go", Start: 9, End: 12}}
	truth, err := GitLogL(context.Background(), dir, decls, 1)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][]string{
		// git log -L goes on through the type's two commits.
		"reset": {"", Past, Past},
		// G's code is all new (only its brace is kept), but G held the
		// range before: its first commit stays.
		"G": {"", ""},
	} {
		var got []string
		for _, touch := range truth[id] {
			got = append(got, touch.Drop)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: git log -L lists %d commits (%q), want %d", id, len(got), got, len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: commit %d (newest first) dropped as %q, want %q", id, i, got[i], want[i])
			}
		}
	}
}

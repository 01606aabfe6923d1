// Package golden is the one harness of the project's golden tests: a test
// computes its output, and golden compares it with the file the repository
// holds, or rewrites that file when RAGFORGE_UPDATE=1.
//
// The switch is an environment variable, never a test flag: a flag exists
// only in the test binaries that define it, so `go test ./... -update` fails
// in every package that does not, while RAGFORGE_UPDATE=1 reaches every
// package of one `go test ./...`. A rewrite is reviewed as a git diff, and a
// failure says both: the command that rewrites exactly the failing test, and
// to review the result with git.
//
// A case that is several files (a config, a call, the expected output) is one
// txtar archive, so that a reviewer reads inputs and outputs side by side;
// CheckArchive rewrites only the archive's output files.
package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// Env is the variable that switches every golden test from comparing to
// rewriting.
const Env = "RAGFORGE_UPDATE"

// Update reports whether golden tests rewrite their files (RAGFORGE_UPDATE=1)
// rather than compare with them.
func Update() bool { return os.Getenv(Env) == "1" }

// Check compares got with the golden file at path, or writes got to it under
// RAGFORGE_UPDATE=1. A mismatch fails t with a line diff and the command
// that rewrites the file.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if Update() {
		write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s: %v\n%s", path, err, howToUpdate(t))
	}
	if diff := diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s\n%s", path, diff, howToUpdate(t))
	}
}

// ReadArchive reads the txtar case at path.
func ReadArchive(t testing.TB, path string) *txtar.Archive {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// File returns the data of the archive's file name, and whether it has one.
func File(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// CheckArchive compares the output files of the case a, read from path, with
// got. outputs names every file the code under test may produce and got
// holds those it did produce: an output missing from got must be missing
// from the archive too (a case that turns from an error into a result is a
// change to see). Under RAGFORGE_UPDATE=1 the archive is rewritten instead:
// its other files as they are and where they are, and the outputs of got,
// in the order of outputs, where the archive's first output was (at the
// end when it had none). Other files stay in place so that two tests may
// share a case, each writing its own outputs (the planner's Cypher, the
// engine's answer to the case's rows) without moving the other's.
func CheckArchive(t testing.TB, path string, a *txtar.Archive, outputs []string, got map[string]string) {
	t.Helper()
	for name := range got {
		if !slices.Contains(outputs, name) {
			t.Fatalf("output %q is not one of the case's outputs %v", name, outputs)
		}
	}
	if Update() {
		var produced []txtar.File
		for _, name := range outputs {
			if v, ok := got[name]; ok {
				produced = append(produced, txtar.File{Name: name, Data: []byte(v)})
			}
		}
		out := &txtar.Archive{Comment: a.Comment}
		for _, f := range a.Files {
			if !slices.Contains(outputs, f.Name) {
				out.Files = append(out.Files, f)
			} else if produced != nil {
				out.Files, produced = append(out.Files, produced...), nil
			}
		}
		out.Files = append(out.Files, produced...)
		write(t, path, string(txtar.Format(out)))
		return
	}
	var problems []string
	for _, name := range outputs {
		want, inArchive := File(a, name)
		g, produced := got[name]
		switch {
		case inArchive && !produced:
			problems = append(problems, fmt.Sprintf("-- %s -- is in the case but the test produced none:\n%s", name, want))
		case !inArchive && produced:
			problems = append(problems, fmt.Sprintf("-- %s -- is missing from the case; the test produced:\n%s", name, g))
		default:
			if diff := diff(want, g); diff != "" {
				problems = append(problems, fmt.Sprintf("-- %s -- differs (-want +got):\n%s", name, diff))
			}
		}
	}
	if len(problems) > 0 {
		t.Errorf("%s:\n%s\n%s", path, strings.Join(problems, "\n"), howToUpdate(t))
	}
}

// diff is a line diff of two outputs: cmp shows a string as lines only
// past a size, and a golden of three lines deserves the same view.
func diff(want, got string) string {
	return cmp.Diff(strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n"))
}

func write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// howToUpdate is the advice a failure ends with: the command that rewrites
// the goldens of exactly this test, and how to review them.
func howToUpdate(t testing.TB) string {
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return fmt.Sprintf("If the change is intended, rewrite the golden files with\n\t%s\nand review them with git diff.", Command(strings.Join(parts, "/")))
}

// Command is the shell command that rewrites the goldens of the tests that
// run selects (a go test -run pattern) in the package of the working
// directory, which is the package under test while its tests run.
func Command(run string) string {
	return fmt.Sprintf("%s=1 go test %s -run '%s'", Env, packageDir(), run)
}

// packageDir is the working directory relative to the module root, as go
// test takes it ("./internal/golden"), or "." when there is no go.mod above.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return "."
		}
	}
}

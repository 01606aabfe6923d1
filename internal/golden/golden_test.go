package golden_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ragforge/ragforge/internal/golden"
)

// recorder stands in for the testing.TB of a golden test, so that a test can
// see the failures the harness reports instead of failing itself.
type recorder struct {
	testing.TB
	name     string
	failures []string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) {
	r.Errorf("%s", fmt.Sprint(args...))
	runtime.Goexit()
}

// run calls f with a recorder named name, as a golden test would call the
// harness, and returns what it reported; Fatal ends f as it ends a test.
func run(t *testing.T, name string, f func(tb testing.TB)) []string {
	t.Helper()
	r := &recorder{TB: t, name: name}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failures
}

func TestUpdateIsOnlyTheValueOne(t *testing.T) {
	for value, want := range map[string]bool{"1": true, "": false, "0": false, "true": false} {
		t.Setenv(golden.Env, value)
		if got := golden.Update(); got != want {
			t.Errorf("%s=%q: Update() = %v, want %v", golden.Env, value, got, want)
		}
	}
}

func TestCheckWritesUnderTheSwitchAndThenPasses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	t.Setenv(golden.Env, "1")
	if f := run(t, "TestX", func(tb testing.TB) { golden.Check(tb, path, "one\ntwo\n") }); f != nil {
		t.Fatalf("update failed: %v", f)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "one\ntwo\n" {
		t.Fatalf("golden file = %q, %v", data, err)
	}
	t.Setenv(golden.Env, "")
	if f := run(t, "TestX", func(tb testing.TB) { golden.Check(tb, path, "one\ntwo\n") }); f != nil {
		t.Errorf("equal output failed: %v", f)
	}
}

func TestCheckMismatchFailsWithTheDiffAndTheCommand(t *testing.T) {
	t.Setenv(golden.Env, "")
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("alpha\nbeta\ngamma\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := run(t, "TestGolden/case.one", func(tb testing.TB) { golden.Check(tb, path, "alpha\nBETA\ngamma\n") })
	if len(f) != 1 {
		t.Fatalf("failures = %q, want one", f)
	}
	// cmp varies its spacing on purpose, so the diff lines are found by
	// their sign and their text.
	if !hasLine(f[0], "-", `"beta\n"`) || !hasLine(f[0], "+", `"BETA\n"`) {
		t.Errorf("failure lacks the line diff:\n%s", f[0])
	}
	for _, want := range []string{
		path + " differs (-want +got)",
		`RAGFORGE_UPDATE=1 go test ./internal/golden -run '^TestGolden$/^case\.one$'`,
		"git diff",
	} {
		if !strings.Contains(f[0], want) {
			t.Errorf("failure lacks %q:\n%s", want, f[0])
		}
	}
	data, _ := os.ReadFile(path)
	if string(data) != "alpha\nbeta\ngamma\n" {
		t.Errorf("a failing comparison rewrote the golden file: %q", data)
	}
}

// hasLine reports whether text has a line that starts with sign and holds s.
func hasLine(text, sign, s string) bool {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, sign) && strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func TestCheckMissingFileSaysHowToCreateIt(t *testing.T) {
	t.Setenv(golden.Env, "")
	f := run(t, "TestNew", func(tb testing.TB) { golden.Check(tb, filepath.Join(t.TempDir(), "none.golden"), "x") })
	if len(f) != 1 || !strings.Contains(f[0], "RAGFORGE_UPDATE=1 go test ./internal/golden -run '^TestNew$'") {
		t.Errorf("failures = %q", f)
	}
}

// TestArchiveRoundTrip rewrites a case under the switch: the inputs stay as
// they were, the outputs become exactly those produced, in the order the
// test names them; the rewritten case then passes, and a changed output
// fails naming its file.
func TestArchiveRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "case.txtar")
	before := "comment line\n-- config --\nentities: []\n-- args --\n{\"q\": 1}\n-- error --\nold error\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	outputs := []string{"cypher", "params", "error"}
	got := map[string]string{"params": "{}\n", "cypher": "MATCH (n) RETURN n\n"}
	check := func(got map[string]string) []string {
		return run(t, "TestCase", func(tb testing.TB) {
			golden.CheckArchive(tb, path, golden.ReadArchive(tb, path), outputs, got)
		})
	}

	t.Setenv(golden.Env, "1")
	if f := check(got); f != nil {
		t.Fatalf("update failed: %v", f)
	}
	data, _ := os.ReadFile(path)
	want := "comment line\n-- config --\nentities: []\n-- args --\n{\"q\": 1}\n-- cypher --\nMATCH (n) RETURN n\n-- params --\n{}\n"
	if string(data) != want {
		t.Fatalf("rewritten case:\n%s\nwant:\n%s", data, want)
	}
	a := golden.ReadArchive(t, path)
	if v, ok := golden.File(a, "config"); !ok || v != "entities: []\n" {
		t.Errorf("File(config) = %q, %v", v, ok)
	}
	if _, ok := golden.File(a, "error"); ok {
		t.Error("the output the test no longer produces is still in the case")
	}

	t.Setenv(golden.Env, "")
	if f := check(got); f != nil {
		t.Errorf("the rewritten case fails: %v", f)
	}
	f := check(map[string]string{"cypher": "MATCH (m) RETURN m\n", "error": "boom\n"})
	if len(f) != 1 {
		t.Fatalf("failures = %q, want one", f)
	}
	for _, s := range []string{
		"-- cypher -- differs (-want +got)",
		"-- params -- is in the case but the test produced none",
		"-- error -- is missing from the case; the test produced:\nboom",
		"RAGFORGE_UPDATE=1 go test ./internal/golden -run '^TestCase$'",
	} {
		if !strings.Contains(f[0], s) {
			t.Errorf("failure lacks %q:\n%s", s, f[0])
		}
	}
	if after, _ := os.ReadFile(path); string(after) != want {
		t.Errorf("a failing comparison rewrote the case:\n%s", after)
	}
}

// TestArchiveUpdateKeepsOtherOutputsInPlace: a case two tests share keeps
// its order when either rewrites its own outputs, and an output a case
// lacked goes at the end.
func TestArchiveUpdateKeepsOtherOutputsInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "case.txtar")
	before := "-- args --\n{}\n-- cypher --\nold\n-- rows.json --\n[]\n-- answer.json --\nold\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(golden.Env, "1")
	update := func(outputs []string, got map[string]string) string {
		t.Helper()
		if f := run(t, "TestCase", func(tb testing.TB) {
			golden.CheckArchive(tb, path, golden.ReadArchive(tb, path), outputs, got)
		}); f != nil {
			t.Fatalf("update failed: %v", f)
		}
		data, _ := os.ReadFile(path)
		return string(data)
	}
	if got, want := update([]string{"cypher", "params"}, map[string]string{"cypher": "new\n", "params": "{}\n"}),
		"-- args --\n{}\n-- cypher --\nnew\n-- params --\n{}\n-- rows.json --\n[]\n-- answer.json --\nold\n"; got != want {
		t.Errorf("after the first test's update:\n%s\nwant:\n%s", got, want)
	}
	if got, want := update([]string{"answer.json"}, map[string]string{"answer.json": "new\n"}),
		"-- args --\n{}\n-- cypher --\nnew\n-- params --\n{}\n-- rows.json --\n[]\n-- answer.json --\nnew\n"; got != want {
		t.Errorf("after the second test's update:\n%s\nwant:\n%s", got, want)
	}
	if got, want := update([]string{"notes"}, map[string]string{"notes": "n\n"}),
		"-- args --\n{}\n-- cypher --\nnew\n-- params --\n{}\n-- rows.json --\n[]\n-- answer.json --\nnew\n-- notes --\nn\n"; got != want {
		t.Errorf("a new output:\n%s\nwant:\n%s", got, want)
	}
}

func TestArchiveRefusesAnUndeclaredOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "case.txtar")
	if err := os.WriteFile(path, txtar.Format(&txtar.Archive{Files: []txtar.File{{Name: "want", Data: []byte("x\n")}}}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(golden.Env, "1")
	f := run(t, "TestCase", func(tb testing.TB) {
		golden.CheckArchive(tb, path, golden.ReadArchive(tb, path), []string{"want"}, map[string]string{"wnat": "y\n"})
	})
	if len(f) != 1 || !strings.Contains(f[0], `output "wnat" is not one of the case's outputs [want]`) {
		t.Errorf("failures = %q", f)
	}
	if data, _ := os.ReadFile(path); string(data) != "-- want --\nx\n" {
		t.Errorf("case rewritten despite the refusal: %q", data)
	}
}

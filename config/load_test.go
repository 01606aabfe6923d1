package config

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/golden"
)

const (
	validDir   = "../testdata/configs/valid"
	invalidDir = "../testdata/configs/invalid"
)

func configFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*.yaml", "*.json", "*.cue"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no config files in %s", dir)
	}
	return files
}

func TestLoadAcceptsEveryValidExample(t *testing.T) {
	for _, path := range configFiles(t, validDir) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(m.Entities) == 0 {
				t.Fatal("no entities decoded")
			}
			for _, e := range m.Entities {
				if e.Field(e.UniqueField) == nil {
					t.Errorf("%s: unique field %s not decoded", e.Name, e.UniqueField)
				}
				for _, f := range e.Fields {
					if len(f.Operators) == 0 {
						t.Errorf("%s.%s: no operators derived", e.Name, f.Name)
					}
					if f.Pos.Line == 0 {
						t.Errorf("%s.%s: no position", e.Name, f.Name)
					}
				}
			}
		})
	}
}

// TestLoadRejectsInvalidConfigs replays every invalid example: each must
// fail with exactly the error lines of its golden file, paths relative to
// the invalid folder (RAGFORGE_UPDATE=1 rewrites them). The config and its
// golden stay two files, not one txtar case: the configs are also read as
// they are by cue vet, the CLI's tests and the docs.
func TestLoadRejectsInvalidConfigs(t *testing.T) {
	files := configFiles(t, invalidDir)
	if len(files) < 30 {
		t.Errorf("only %d invalid examples; the rules need at least 30", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, err := Load(path)
			if err == nil {
				t.Fatal("Load accepted an invalid config")
			}
			var ces ConfigErrors
			if !errors.As(err, &ces) {
				t.Fatalf("error is %T, want ConfigErrors: %v", err, err)
			}
			got := strings.ReplaceAll(err.Error(), invalidDir+"/", "") + "\n"
			golden.Check(t, strings.TrimSuffix(path, filepath.Ext(path))+".golden", got)
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				if !strings.HasPrefix(line, filepath.Base(path)+":") {
					t.Errorf("error line has no position in the config: %q", line)
				}
				if strings.Contains(line, "empty disjunction") || strings.Contains(line, "_err") {
					t.Errorf("raw CUE wording leaked: %q", line)
				}
				// An error message whose interpolation CUE left unevaluated.
				for _, raw := range []string{"[for ", "strings.Join(", "len(", `*"`, "(:ragforge)"} {
					if strings.Contains(line, raw) {
						t.Errorf("unevaluated CUE expression %q in %q", raw, line)
					}
				}
			}
		})
	}
}

// TestStockCueVetAgrees runs the cue command pinned in go.mod (go tool cue)
// exactly as users run it in CI: it accepts every valid example and rejects
// every invalid one.
func TestStockCueVetAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the cue command; skipped with -short")
	}
	run := func(path string) error {
		cmd := exec.Command("go", "tool", "cue", "vet", "-d", "#Config", "../schema/ragforge.cue", path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("running cue: %v\n%s", err, out)
			}
		}
		return err
	}
	for _, path := range configFiles(t, validDir) {
		if err := run(path); err != nil {
			t.Errorf("cue vet rejected valid %s", path)
		}
	}
	for _, path := range configFiles(t, invalidDir) {
		if err := run(path); err == nil {
			t.Errorf("cue vet accepted invalid %s", path)
		}
	}
}

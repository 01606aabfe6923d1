package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad proves that no config text makes Load panic: every input is
// either a model or a list of config errors.
func FuzzLoad(f *testing.F) {
	for _, dir := range []string{validDir, invalidDir} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := LoadSources(Source{Name: "fuzz.yaml", Data: data})
		if err == nil && m == nil {
			t.Fatal("nil model without error")
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
	})
}

package materialize

import (
	"testing"

	"github.com/ragforge/ragforge/model"
)

// BenchmarkRecompute builds the statement every write runs for its node's
// stored computed fields. The fields come compiled once per model, so a
// write pays for writing fragments, not for compiling the entity
// (MEASUREMENTS.md, "Recompute on a write").
func BenchmarkRecompute(b *testing.B) {
	cm := MustCompile(b, scopeModel(model.Auto))
	fields := []string{"line_count", "change_count", "busy"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recompute(cm, "Scope", fields); err != nil {
			b.Fatal(err)
		}
	}
}

package tree_test

import (
	"path/filepath"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/internal/tree"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// TestGoldenTreeToolsInEveryFormat keeps the file-tree example's tree tools,
// as a listing and in every provider format, in
// testdata/tools/file-tree.tree.*.golden (beside the generated tools' goldens
// of package tools/format); RAGFORGE_UPDATE=1 rewrites them.
func TestGoldenTreeToolsInEveryFormat(t *testing.T) {
	m, err := config.Load("../../testdata/configs/valid/file-tree.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ts []*tools.Tool
	for _, tool := range e.Tools().Tools {
		if tool.Category == tree.Category {
			ts = append(ts, tool)
		}
	}
	check := func(name string, got []byte) {
		t.Helper()
		golden.Check(t, filepath.Join("../../testdata/tools", "file-tree.tree."+name+".golden"), string(got))
	}
	check("txt", []byte(format.Listing(ts)))
	for _, f := range format.Formats() {
		out, err := format.Marshal(ts, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		check(string(f), out)
	}
}

package tree_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/tree"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// update rewrites the tree tools' golden files: go test ./tree -run Golden -update
var update = flag.Bool("update", false, "rewrite golden files")

// TestGoldenTreeToolsInEveryFormat keeps the file-tree example's tree tools,
// as a listing and in every provider format, in
// testdata/tools/file-tree.tree.*.golden (beside the generated tools' goldens
// of package tools/format); review the diff after -update.
func TestGoldenTreeToolsInEveryFormat(t *testing.T) {
	m, err := config.Load("../../testdata/configs/valid/file-tree.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(m, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ts []*tools.Tool
	for _, tool := range e.Tools().Tools {
		if tool.Category == tree.Category {
			ts = append(ts, tool)
		}
	}
	golden := func(name string, got []byte) {
		path := filepath.Join("../../testdata/tools", "file-tree.tree."+name+".golden")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./tree -run Golden -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file; review the diff after go test ./tree -run Golden -update", path)
		}
	}
	golden("txt", []byte(format.Listing(ts)))
	for _, f := range format.Formats() {
		out, err := format.Marshal(ts, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		golden(string(f), out)
	}
}

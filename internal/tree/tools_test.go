package tree_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/tree"
	"github.com/ragforge/ragforge/tools"
)

func TestTreeToolsAreListedOnlyWhenAConfigDeclaresATree(t *testing.T) {
	names := []string{tree.CreateDiagram, tree.QueryFileTree, tree.UpdateDiagramFilters}
	for cfg, want := range map[string]bool{"file-tree": true, "code-rag": false} {
		m, err := config.Load("../../testdata/configs/valid/" + cfg + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		e, err := engine.New(t.Context(), m, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			tool := e.Tools().Tool(name)
			if (tool != nil) != want {
				t.Errorf("%s: tool %s listed %v, want %v", cfg, name, tool != nil, want)
				continue
			}
			if tool == nil {
				continue
			}
			if tool.ReadOnly != (name == tree.QueryFileTree) || tool.Category != tree.Category {
				t.Errorf("%s: read-only %v, category %s", name, tool.ReadOnly, tool.Category)
			}
			for _, s := range []string{"path_patterns", "exclude_paths", "languages", "max_depth", "files: Directory and File nodes joined by CONTAINS"} {
				if !strings.Contains(tool.Description, s) {
					t.Errorf("%s: description does not mention %q", name, s)
				}
			}
			if name != tree.QueryFileTree && !strings.Contains(tool.Description, tree.PresetLabel) {
				t.Errorf("%s: description does not say it writes a preset node", name)
			}
		}
	}
}

func TestSeveralTreesAddATreeArgumentThatNamesThem(t *testing.T) {
	cfg, err := os.ReadFile("../../testdata/configs/valid/file-tree.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, []byte(`  - name: sources
    node: [Directory, File]
    contains: CONTAINS
    path: path
`)...)
	path := filepath.Join(t.TempDir(), "two-trees.yaml")
	if err := os.WriteFile(path, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	for _, name := range []string{tree.CreateDiagram, tree.QueryFileTree} {
		tool := e.Tools().Tool(name)
		if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		if got := s.Properties["tree"].Enum; !slices.Equal(got, []string{"files", "sources"}) {
			t.Errorf("%s: tree choices %q", name, got)
		}
		if !strings.Contains(tool.Description, "- sources: Directory and File nodes") {
			t.Errorf("%s: description does not list the second tree", name)
		}
	}
	_, err = e.Execute(context.Background(), engine.Call{Name: tree.QueryFileTree, Arguments: json.RawMessage(`{"tree": "nope"}`)})
	var ce *tools.CallError
	if !errors.As(err, &ce) || ce.Problems[0].Path != "/tree" {
		t.Errorf("unknown tree: %v, want a CallError at /tree", err)
	}
}

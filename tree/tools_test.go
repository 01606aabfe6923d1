package tree_test

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/tree"
)

func TestTreeToolsAreListedOnlyWhenAConfigDeclaresATree(t *testing.T) {
	names := []string{tree.CreateDiagram, tree.QueryFileTree, tree.UpdateDiagramFilters}
	for config, want := range map[string]bool{"file-tree": true, "code-rag": false} {
		m, err := engine.Load("../testdata/configs/valid/" + config + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		e, err := engine.New(m, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			tool := e.Tools().Tool(name)
			if (tool != nil) != want {
				t.Errorf("%s: tool %s listed %v, want %v", config, name, tool != nil, want)
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

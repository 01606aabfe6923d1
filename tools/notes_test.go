package tools_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// schemaArgs lists the top-level argument names of a tool's input schema.
func schemaArgs(t *testing.T, tool *tools.Tool) map[string]bool {
	t.Helper()
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for k := range s.Properties {
		out[k] = true
	}
	return out
}

// limitMax is the maximum of a tool's limit (or top_k), or MaxLimit when
// it has neither.
func limitMax(t *testing.T, tool *tools.Tool) int {
	t.Helper()
	var s struct {
		Properties map[string]struct {
			Maximum *float64 `json:"maximum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"top_k", "limit"} {
		if p, ok := s.Properties[name]; ok && p.Maximum != nil {
			return int(*p.Maximum)
		}
	}
	return tools.DefaultLimits.MaxLimit
}

// catalogArgs lists the top-level argument names of every tool of c.
func catalogArgs(t *testing.T, c *tools.Catalog) map[string]bool {
	t.Helper()
	every := map[string]bool{}
	for _, tool := range c.Tools {
		for a := range schemaArgs(t, tool) {
			every[a] = true
		}
	}
	return every
}

// namedArgs returns the arguments of every that note names, split into
// those own has and those it lacks.
func namedArgs(note string, every, own map[string]bool) (has, lacks []string) {
	for a := range every {
		if regexp.MustCompile(`\b` + a + `\b`).MatchString(note) {
			if own[a] {
				has = append(has, a)
			} else {
				lacks = append(lacks, a)
			}
		}
	}
	return has, lacks
}

// TestTruncationNotesSuggestOnlyArgumentsTheToolHas: for every tool of
// every example config, the note of a truncated result names no argument
// of another tool that the called tool lacks (an agent following it would
// get a schema error), and raising the limit is suggested only below its
// maximum.
func TestTruncationNotesSuggestOnlyArgumentsTheToolHas(t *testing.T) {
	for _, path := range configs(t) {
		c, err := planner.Generate(load(t, path), allOn)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		every := catalogArgs(t, c)
		for _, tool := range c.Tools {
			own := schemaArgs(t, tool)
			top := limitMax(t, tool)
			for _, limit := range []int{1, top} {
				note := c.TruncationNote(tool.Name, limit)
				if note == "" {
					t.Errorf("%s %s: no note", path, tool.Name)
				}
				if _, lacks := namedArgs(note, every, own); len(lacks) > 0 {
					t.Errorf("%s %s: note suggests %v, which the tool lacks: %s", path, tool.Name, lacks, note)
				}
				if limit == top && strings.Contains(note, "raise limit") {
					t.Errorf("%s %s: note suggests raising a limit already at its maximum: %s", path, tool.Name, note)
				}
			}
		}
	}
	c := codeRAG(t, allOn)
	for tool, want := range map[string]string{
		planner.QueryEntities:     "page with offset",
		planner.NumberRangeSearch: "use order",
		planner.TextPatternSearch: "make pattern more specific",
		planner.SemanticSearch:    "raise top_k",
	} {
		if note := c.TruncationNote(tool, 1); !strings.Contains(note, want) {
			t.Errorf("%s note %q lacks %q", tool, note, want)
		}
	}
}

// TestCapNotesSuggestOnlyArgumentsTheToolHas: the note of a traversal
// stopped at Limits.MaxExpanded quotes the limit and names only arguments
// of the traversal tool that was called, for every example config.
func TestCapNotesSuggestOnlyArgumentsTheToolHas(t *testing.T) {
	for _, path := range configs(t) {
		c, err := planner.Generate(load(t, path), tools.Options{Limits: tools.Limits{MaxExpanded: 1234}})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		every := catalogArgs(t, c)
		for _, name := range []string{planner.ExploreRelationships, planner.FindPaths} {
			tool := c.Tool(name)
			if tool == nil {
				continue
			}
			note := c.CapNote(name)
			if !strings.Contains(note, "1234 entities") {
				t.Errorf("%s %s: note %q does not quote the limit", path, name, note)
			}
			has, lacks := namedArgs(note, every, schemaArgs(t, tool))
			if len(lacks) > 0 || len(has) == 0 {
				t.Errorf("%s %s: note %q names %v of the tool's arguments and %v it lacks", path, name, note, has, lacks)
			}
		}
	}
}

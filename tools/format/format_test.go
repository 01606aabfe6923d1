package format_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/internal/tokens"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// example is one config of testdata/configs/valid, by base name.
type example struct {
	name string
	cat  *tools.Catalog
}

// examples generates the default catalog of every example config.
func examples(t *testing.T, opts tools.Options) []example {
	t.Helper()
	paths, err := filepath.Glob("../../testdata/configs/valid/*")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no example configs: %v", err)
	}
	var out []example
	for _, p := range paths {
		m, err := config.Load(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		c, err := planner.Generate(m, opts)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		name := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
		out = append(out, example{name, c})
	}
	return out
}

// checkTools compares got with testdata/tools/<name>.golden, or rewrites it
// under RAGFORGE_UPDATE=1.
func checkTools(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("../../testdata/tools", name+".golden"), string(got))
}

func TestGoldenEveryExampleConfigInEveryFormat(t *testing.T) {
	for _, ex := range examples(t, tools.Options{}) {
		for _, f := range format.Formats() {
			out, err := format.Marshal(ex.cat.Tools, f)
			if err != nil {
				t.Fatalf("%s %s: %v", ex.name, f, err)
			}
			checkTools(t, ex.name+"."+string(f), out)
		}
		checkTools(t, ex.name+".txt", []byte(format.Listing(ex.cat.Tools)))
	}
}

// TestGoldenAllToolsOn covers the tools that are off by default.
func TestGoldenAllToolsOn(t *testing.T) {
	for _, ex := range examples(t, tools.Options{Aggregations: true, RawCypher: true}) {
		if ex.name != "code-rag" {
			continue
		}
		checkTools(t, ex.name+".all.txt", []byte(format.Listing(ex.cat.Tools)))
	}
}

func TestGeminiDeclarationsUseOnlyGeminisSchemaSubset(t *testing.T) {
	allowed := []string{"type", "format", "title", "description", "nullable", "enum", "items", "properties", "required", "minItems", "maxItems", "minLength", "maxLength", "pattern", "minimum", "maximum", "anyOf", "propertyOrdering", "minProperties", "maxProperties", "example"}
	types := []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}
	for _, ex := range examples(t, tools.Options{Aggregations: true, RawCypher: true}) {
		out, err := format.Render(ex.cat.Tools, format.Gemini)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range out.([]format.GeminiFunction) {
			var params map[string]any
			if err := json.Unmarshal(fn.Parameters, &params); err != nil {
				t.Fatalf("%s: %v", fn.Name, err)
			}
			var check func(s map[string]any, where string)
			check = func(s map[string]any, where string) {
				for k, v := range s {
					if !slices.Contains(allowed, k) {
						t.Errorf("%s %s %s: keyword %q is outside Gemini's subset", ex.name, fn.Name, where, k)
					}
					switch k {
					case "type":
						if !slices.Contains(types, v.(string)) {
							t.Errorf("%s %s %s: type %v", ex.name, fn.Name, where, v)
						}
					case "enum":
						for _, e := range v.([]any) {
							if _, ok := e.(string); !ok {
								t.Errorf("%s %s %s: non-string enum value %v", ex.name, fn.Name, where, e)
							}
						}
					case "properties":
						for name, p := range v.(map[string]any) {
							check(p.(map[string]any), where+"."+name)
						}
					case "items":
						check(v.(map[string]any), where+"[]")
					case "anyOf":
						for _, a := range v.([]any) {
							check(a.(map[string]any), where+"|")
						}
					}
				}
			}
			check(params, "parameters")
		}
	}
}

func TestGeminiKeepsDefaultsAndBoundsInTheDescription(t *testing.T) {
	ex := examples(t, tools.Options{})[0]
	for tool, want := range map[string]string{
		planner.QueryEntities:        `"limit":{"type":"INTEGER","maximum":50,"description":"(default 10)"}`,
		planner.ExploreRelationships: `"type":"STRING"},"description":"(no duplicates)"}`,
	} {
		fn, err := format.ToGemini(ex.cat.Tool(tool))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(fn.Parameters), want) {
			t.Errorf("Gemini parameters of %s lack %s: %s", tool, want, fn.Parameters)
		}
	}
}

func TestGeminiOmitsParametersOfAToolWithoutArguments(t *testing.T) {
	fn, err := format.ToGemini(&tools.Tool{Name: "ping", Description: "Check the server", InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)})
	if err != nil {
		t.Fatal(err)
	}
	if fn.Parameters != nil {
		t.Errorf("parameters = %s", fn.Parameters)
	}
}

func TestOpenAIStrictOnlyWhereTheSchemaAllowsIt(t *testing.T) {
	c := examples(t, tools.Options{})[0].cat
	closed := &tools.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"id_value":{"type":["string","number"]}},"required":["id_value"],"additionalProperties":false}`)}
	if !format.ToOpenAI(closed).Function.Strict {
		t.Error("a tool with all properties required, closed, no unsupported keyword is not strict")
	}
	for _, name := range []string{planner.QueryEntities, planner.GetEntityByID} {
		if format.ToOpenAI(c.Tool(name)).Function.Strict {
			t.Errorf("%s (optional arguments) is strict", name)
		}
	}
}

func TestMCPMarksGeneratedToolsReadOnly(t *testing.T) {
	c := examples(t, tools.Options{})[0].cat
	for _, tool := range c.Tools {
		m := format.ToMCP(tool)
		if !m.Annotations.ReadOnlyHint || m.Annotations.OpenWorldHint == nil || *m.Annotations.OpenWorldHint {
			t.Errorf("%s annotations %+v", tool.Name, m.Annotations)
		}
	}
}

func TestParseListsTheValidFormats(t *testing.T) {
	if f, err := format.Parse("Gemini"); err != nil || f != format.Gemini {
		t.Errorf("Parse(Gemini) = %v, %v", f, err)
	}
	if _, err := format.Parse("xml"); err == nil || !strings.Contains(err.Error(), "mcp, openai, anthropic, gemini, json") {
		t.Errorf("Parse(xml) error = %v", err)
	}
}

// TestMeasurementsAreCurrent keeps tools/MEASUREMENTS.md true: it counts
// the tokens of each example config's catalog in each format and compares
// with the file (rewritten under RAGFORGE_UPDATE=1).
func TestMeasurementsAreCurrent(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Tool catalog sizes\n\n")
	b.WriteString("Tokens of the whole tool catalog each example config generates, per format: the\n")
	b.WriteString("compact JSON array of tool definitions, counted with tiktoken's " + tokens.Encoding + "\n")
	b.WriteString("encoding (package internal/tokens, vocabulary embedded). Other providers'\n")
	b.WriteString("tokenizers differ by some percent; use the figures to compare configs and formats.\n\n")
	b.WriteString("Measured by `RAGFORGE_UPDATE=1 go test ./tools/format -run TestMeasurementsAreCurrent`\n")
	b.WriteString("(the test fails when this file is stale). The graph schema (entities, fields,\n")
	b.WriteString("relationships) is written once: query_entities' description carries it in the\n")
	b.WriteString("openai, anthropic, gemini and json formats, and an MCP server sends it as its\n")
	b.WriteString("instructions, so the mcp column leaves it out (the instructions column of the\n")
	b.WriteString("served catalogs counts it).\n\n")
	b.WriteString("Budgets (`go test ./tools/format -run TestCatalogBudgets` fails over them): code-rag at most\n")
	b.WriteString(printer.Sprintf("%d tokens in MCP format (generated catalog and the server's tools/list with an embedder), memory-graph at most\n", budgetCodeRAG))
	b.WriteString(printer.Sprintf("%d for every tool it serves (MCP format, no embedder), no tool of any example config over\n", budgetMemoryGraph))
	b.WriteString(printer.Sprintf("%d in any format.\n", budgetTool))
	for _, set := range []struct {
		title string
		opts  tools.Options
	}{
		{"Default options (aggregations and run_cypher off)", tools.Options{}},
		{"All tools (aggregations and run_cypher on)", tools.Options{Aggregations: true, RawCypher: true}},
	} {
		fmt.Fprintf(&b, "\n## %s\n\n", set.title)
		b.WriteString("| config | tools | descriptions only |")
		for _, f := range format.Formats() {
			fmt.Fprintf(&b, " %s |", f)
		}
		b.WriteString("\n|---|---:|---:|")
		for range format.Formats() {
			b.WriteString("---:|")
		}
		b.WriteString("\n")
		for _, ex := range examples(t, set.opts) {
			var descs strings.Builder
			for _, tool := range ex.cat.Tools {
				descs.WriteString(tool.Description + "\n")
			}
			n, err := tokens.Count(descs.String())
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "| %s | %d | %d |", ex.name, len(ex.cat.Tools), n)
			for _, f := range format.Formats() {
				fmt.Fprintf(&b, " %d |", catalogTokens(t, ex.cat.Tools, f))
			}
			b.WriteString("\n")
		}
	}
	servedTable(t, &b)
	golden.Check(t, "../MEASUREMENTS.md", b.String())
}

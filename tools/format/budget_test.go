package format_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/tokens"
	"github.com/ragforge/ragforge/mcpserver"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// The token budgets of issue 20: what an agent is handed for a graph, in
// tiktoken o200k_base tokens of compact JSON with default options. A new
// argument that breaks one is described more tersely, or the catalog's
// other descriptions are; the budgets do not grow.
const (
	// budgetCodeRAG bounds the code-RAG config's catalog in MCP format
	// (8,329 before the compact catalog), up to the tools/list its server
	// sends with an embedder.
	budgetCodeRAG = 3000
	// budgetMemoryGraph bounds every tool the memory-graph config serves
	// (its generated, write, traverse and explore tools) in MCP format.
	budgetMemoryGraph = 5000
	// budgetTool bounds any one tool of any example config, in any format.
	budgetTool = 1500
)

// printer writes figures with thousands separators, as docs/performance.md's tables do.
var printer = message.NewPrinter(language.English)

// served is the catalog `ragforge-plan serve CONFIG` offers on a server
// (engine.New: the generated tools with default options plus the config's
// tree, write, traverse and explore tools), with an embedder or without
// one (then no semantic_search, and explore searches by name only).
func served(t testing.TB, path string, embed bool, opts tools.Options) *engine.Engine {
	t.Helper()
	m := load(t, path)
	o := engine.Options{Tools: opts}
	if embed {
		o.Embedder = embedder.Offline{}
	}
	e, err := engine.New(t.Context(), m, o)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return e
}

// countJSON counts the tokens of v as compact JSON (HTML characters kept,
// as format.Marshal writes them).
func countJSON(t testing.TB, v any) int {
	t.Helper()
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	n, err := tokens.Count(strings.TrimSpace(raw.String()))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// catalogTokens counts a catalog rendered in format f.
func catalogTokens(t testing.TB, ts []*tools.Tool, f format.Format) int {
	t.Helper()
	v, err := format.Render(ts, f)
	if err != nil {
		t.Fatal(err)
	}
	return countJSON(t, v)
}

// wire is what an MCP client receives from the engine's server, as the
// SDK encodes it: the tools/list result's tools and the initialize
// result's instructions, in tokens.
func wire(t testing.TB, e *engine.Engine) (toolsList, instructions int) {
	t.Helper()
	s, err := mcpserver.New(e, mcpserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "budget", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := func(v any) int {
		raw, err := json.Marshal(v) // escapes HTML, as the SDK's JSON-RPC does
		if err != nil {
			t.Fatal(err)
		}
		n, err := tokens.Count(string(raw))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return count(res.Tools), count(cs.InitializeResult().Instructions)
}

// TestCatalogBudgets fails, with the figures, when a catalog outgrows the
// budgets of issue 20: code-RAG ≤ 3,000 tokens in MCP format (the
// generated catalog, and the tools/list its server sends with an
// embedder), memory-graph ≤ 5,000 for every tool it serves (MCP format,
// no embedder), no tool of any example config over 1,500 in any format
// (all tools on, with an embedder). MCP's graph schema is the server's
// instructions, measured apart; the other formats carry it in
// query_entities, so the per-tool budget covers it.
func TestCatalogBudgets(t *testing.T) {
	const codeRAG = "../../testdata/configs/valid/code-rag.yaml"
	cr, err := planner.Generate(load(t, codeRAG), tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := catalogTokens(t, cr.Tools, format.MCP); n > budgetCodeRAG {
		t.Errorf("code-rag: %d tools are %d tokens in MCP format, over the budget of %d", len(cr.Tools), n, budgetCodeRAG)
	}
	if n, _ := wire(t, served(t, codeRAG, true, tools.Options{})); n > budgetCodeRAG {
		t.Errorf("code-rag: the tools/list its server sends with an embedder is %d tokens, over the budget of %d", n, budgetCodeRAG)
	}
	mg := served(t, "../../testdata/configs/valid/memory-graph.yaml", false, tools.Options{})
	if n := catalogTokens(t, mg.Tools().Tools, format.MCP); n > budgetMemoryGraph {
		t.Errorf("memory-graph: its %d served tools are %d tokens in MCP format, over the budget of %d", len(mg.Tools().Tools), n, budgetMemoryGraph)
	}
	paths, err := filepath.Glob("../../testdata/configs/valid/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		m := load(t, p)
		e := served(t, p, true, tools.Options{Aggregations: true, RawCypher: m.Tenant == nil, History: true})
		for _, tool := range e.Tools().Tools {
			for _, f := range format.Formats() {
				if n := catalogTokens(t, []*tools.Tool{tool}, f); n > budgetTool {
					t.Errorf("%s: %s is %d tokens in %s format, over the budget of %d", filepath.Base(p), tool.Name, n, f, budgetTool)
				}
			}
		}
	}
}

func load(t testing.TB, path string) *model.Model {
	t.Helper()
	m, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// servedTable writes the measurements of the served catalogs: tools, MCP
// format and what the server sends (tools/list, instructions), without an
// embedder and with one, and the largest tool in any format.
func servedTable(t *testing.T, b *strings.Builder) {
	b.WriteString("\n## Served catalogs\n\n")
	b.WriteString("What `ragforge-plan serve CONFIG` offers (default options: the generated tools and the config's\n")
	b.WriteString("tree, write, traverse and explore tools), without an embedder and with one (which adds\n")
	b.WriteString("semantic_search and explore's search by meaning). mcp is the MCP format (`ragforge-plan tools\n")
	b.WriteString("--format mcp`); tools/list and instructions are what the server sends, as the MCP SDK encodes\n")
	b.WriteString("them (HTML characters escaped); instructions are the graph schema the tools refer to. The\n")
	b.WriteString("largest tool is the largest in any format, with an embedder (query_entities carries the graph\n")
	b.WriteString("schema outside MCP).\n\n")
	b.WriteString("| config | tools | mcp | tools/list | with an embedder: tools | mcp | tools/list | instructions | largest tool |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, ex := range examples(t, tools.Options{}) {
		path := "../../testdata/configs/valid/" + ex.name + ".yaml"
		plain, embed := served(t, path, false, tools.Options{}), served(t, path, true, tools.Options{})
		largest, most := "", 0
		for _, tool := range embed.Tools().Tools {
			for _, f := range format.Formats() {
				if n := catalogTokens(t, []*tools.Tool{tool}, f); n > most {
					largest, most = fmt.Sprintf("%s (%s)", tool.Name, f), n
				}
			}
		}
		list, _ := wire(t, plain)
		listE, instructions := wire(t, embed)
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d, %s |\n", ex.name,
			len(plain.Tools().Tools), catalogTokens(t, plain.Tools().Tools, format.MCP), list,
			len(embed.Tools().Tools), catalogTokens(t, embed.Tools().Tools, format.MCP), listE, instructions, most, largest)
	}
}

package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/retrievaleval"
	"github.com/ragforge/ragforge/internal/tokens"
	"github.com/ragforge/ragforge/retrieval"
	"github.com/ragforge/ragforge/tools"
)

// oneTopic are messages that each ask one thing of an example config's
// graph, with a tool that serves it.
var oneTopic = map[string][]struct{ message, tool string }{
	"code-rag": {
		{"count the scopes grouped by type", "aggregate_entities"},
		{"find functions whose name starts with Parse", "text_pattern_search"},
		{"the shortest path between two scopes", "find_paths"},
		{"get the file with path net/http/server.go", "get_entity_by_id"},
	},
	"movies": {
		{"shortest path between Tom Hanks and Kevin Bacon", "find_paths"},
		{"average rating of movies released after 2000", "aggregate_entities"},
	},
	"memory-graph": {
		{"update the notes of a person", "update_person"},
		{"create a person named Alice", "create_person"},
	},
	"file-tree": {
		{"draw a diagram of the go files under src", "create_diagram"},
	},
	"store-catalog": {
		{"stores within 5 km of a point", "distance_search"},
	},
	"team-drive": {
		{"update the filters of a saved diagram", "update_diagram_filters"},
	},
}

// searchServers returns, for an example config, a server with
// search_tools (opts) and one that lists the whole catalog, on the engine
// `serve --embedder offline` runs.
func searchServers(t *testing.T, name string, opts *retrieval.Options) (search, all *mcp.ClientSession, e *engine.Engine) {
	t.Helper()
	m, err := config.Load("../testdata/configs/valid/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err = engine.New(t.Context(), m, engine.Options{Embedder: embedder.Offline{}, Tenant: "alice", Tools: tools.Options{Aggregations: true}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(e, Options{SearchTools: true, Search: opts})
	if err != nil {
		t.Fatal(err)
	}
	l, err := New(e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, s, nil), connect(t, l, nil), e
}

// searchAnswer is what search_tools returned, decoded from the text the
// model reads, with each definition's o200k tokens.
func searchAnswer(t *testing.T, cs *mcp.ClientSession, query string) (defs []json.RawMessage, tok int) {
	t.Helper()
	res := call(t, cs, SearchToolsName, map[string]any{"query": query})
	var found struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal([]byte(text(res)), &found); err != nil || res.IsError {
		t.Fatalf("search_tools %q: %s (%v)", query, text(res), err)
	}
	for _, d := range found.Tools {
		tok += countTokens(t, string(d))
	}
	return found.Tools, tok
}

func countTokens(t *testing.T, s string) int {
	t.Helper()
	n, err := tokens.Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSearchToolsReturnsTheFewDefinitionsAOneTopicMessageNeeds asks
// search_tools, as an MCP client (the Go SDK), one-topic questions on
// every example config's catalog: each answer holds the tool that serves
// the question, fewer tools than the catalog and fewer o200k tokens than
// tools/list would have cost, and each definition is exactly the one
// tools/list gives (name, description, schema, hints).
func TestSearchToolsReturnsTheFewDefinitionsAOneTopicMessageNeeds(t *testing.T) {
	var shares []float64
	for name, questions := range oneTopic {
		search, all, e := searchServers(t, name, nil)
		listed, err := all.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		byName, catalog := map[string]*mcp.Tool{}, 0
		for _, tl := range listed.Tools {
			b, _ := json.Marshal(tl)
			catalog += countTokens(t, string(b))
			byName[tl.Name] = tl
		}
		for _, q := range questions {
			defs, tok := searchAnswer(t, search, q.message)
			var names []string
			for _, d := range defs {
				var got mcp.Tool
				if err := json.Unmarshal(d, &got); err != nil {
					t.Fatal(err)
				}
				names = append(names, got.Name)
				want := byName[got.Name]
				if want == nil || got.Description != want.Description || !sameJSON(t, got.InputSchema, want.InputSchema) || !reflect.DeepEqual(got.Annotations, want.Annotations) {
					t.Errorf("%s: search_tools' definition of %s is not the one tools/list gives", name, got.Name)
				}
			}
			share := float64(tok) / float64(catalog)
			shares = append(shares, share)
			t.Logf("%-13s %.2f of %5d tokens, %d of %2d tools: %q → %v", name, share, catalog, len(names), len(e.Tools().Tools), q.message, names)
			if !slices.Contains(names, q.tool) {
				t.Errorf("%s: %q found %v, without %s", name, q.message, names, q.tool)
			}
			if len(names) >= len(e.Tools().Tools) || share >= 1 {
				t.Errorf("%s: %q returned %d of %d tools, %.0f%% of the catalog's tokens: the whole catalog for one topic", name, q.message, len(names), len(e.Tools().Tools), 100*share)
			}
		}
	}
	var sum float64
	for _, s := range shares {
		sum += s
	}
	t.Logf("mean share of catalog tokens over %d one-topic questions: %.3f", len(shares), sum/float64(len(shares)))
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	var x, y any
	for _, p := range []struct {
		v   any
		dst *any
	}{{a, &x}, {b, &y}} {
		raw, err := json.Marshal(p.v)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, p.dst); err != nil {
			t.Fatal(err)
		}
	}
	return reflect.DeepEqual(x, y)
}

// TestSearchToolsSpendsAtMostAQuarterOfTheCatalogOnTheEvaluationSets runs
// search_tools' selection (DefaultSearchOptions) on the dev split of the
// public evaluation sets (MetaTool, BFCL): on each, the answers cost on
// average at most a quarter of the catalog's o200k tokens.
func TestSearchToolsSpendsAtMostAQuarterOfTheCatalogOnTheEvaluationSets(t *testing.T) {
	dir, err := retrievaleval.DefaultDataDir()
	if err != nil {
		t.Fatal(err)
	}
	sets, err := retrievaleval.LoadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range sets {
		r, err := retrievaleval.Run(ds, retrievaleval.SplitDev, DefaultSearchOptions())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-26s %3d tools, %4d messages: %.1f tools, %.3f of the catalog's tokens, selection recall %.3f", r.DataSet, r.Tools, r.Messages, r.MeanSelected, r.TokenShare, r.SelectionRecall)
		if r.TokenShare > 0.25 {
			t.Errorf("%s: search_tools answers cost %.3f of the catalog's tokens on average, more than 0.25", r.DataSet, r.TokenShare)
		}
	}
}

// TestSearchToolsAnswersHoldTheAlwaysTools: an always-include tool is in
// every answer, as in `ragforge-plan select --always`, and one the
// catalog lacks stops the server at start-up, naming the catalog's tools.
func TestSearchToolsAnswersHoldTheAlwaysTools(t *testing.T) {
	opts := DefaultSearchOptions()
	opts.TopK, opts.FallbackK, opts.Always = 2, 2, []string{"explore"}
	search, _, _ := searchServers(t, "memory-graph", &opts)
	for _, q := range []string{"create a person named Alice", "the shortest path between two people", "zzz"} {
		defs, _ := searchAnswer(t, search, q)
		var names []string
		for _, d := range defs {
			var tl struct{ Name string }
			json.Unmarshal(d, &tl)
			names = append(names, tl.Name)
		}
		if !slices.Contains(names, "explore") || len(names) > 3 {
			t.Errorf("%q: %v; want explore and at most 2 more", q, names)
		}
	}
	m, err := config.Load(codeRAG)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(e, Options{SearchTools: true, Search: &opts}); err == nil || !strings.Contains(err.Error(), `always-include tool "explore" is not in the catalog (tools: query_entities,`) {
		t.Errorf("an always-include tool outside the catalog: %v", err)
	}
}

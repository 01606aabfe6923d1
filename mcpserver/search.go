package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/retrieval"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// SearchToolsName is the meta-tool a server started with
// Options.SearchTools offers. tools/list then lists only it, so a client
// facing hundreds of generated tools spends its context on one definition;
// search_tools returns the full definitions (name, description,
// inputSchema) of the few tools a task needs, chosen by tool retrieval
// over the catalog, and the client calls them by name with tools/call,
// which accepts every catalog tool whether listed or not.
const SearchToolsName = "search_tools"

const searchToolsDescription = `Find the tools for a task. The server has many tools and lists only this one: describe what you want to do (in English or Arabic), and get back the definitions of the few tools that fit, best first. Then call a returned tool by its name with tools/call, with arguments that follow its inputSchema.`

const searchToolsSchema = `{"type":"object","properties":{"query":{"type":"string","minLength":1,"description":"What you want to do, in your own words, e.g. \"the longest functions in package http\"."}},"required":["query"],"additionalProperties":false}`

// DefaultSearchOptions are the selection of a search_tools answer: at
// most five tools, and in a confident ranking only those scoring at least
// a quarter of the best, so an answer holds the few definitions a task
// needs rather than a catalog's worth. They are smaller than retrieval's
// defaults (twelve, twenty when uncertain), which suit catalogs of
// hundreds of tools: a config's catalog has tens, and with those defaults
// search_tools answered a code-RAG query with all eleven definitions. An
// uncertain ranking still gets five tools (fail-open), never the whole of
// a catalog of more than five. Measured on the evaluation sets' dev split
// (retrieval/MEASUREMENTS.md, "search_tools"), the score cut takes the
// mean answer from 5.0 to 4.2–4.6 tools and costs selection recall 0.004
// on MetaTool, nothing on the others.
func DefaultSearchOptions() retrieval.Options {
	return retrieval.Options{TopK: 5, FallbackK: 5, MinScoreRatio: 0.25}
}

// searcher answers search_tools from a retrieval index of the catalog.
type searcher struct {
	index *retrieval.Index
	cat   *tools.Catalog
	opts  retrieval.Options
}

// addSearchTools indexes the catalog (engine.Documents, as `ragforge-plan
// select` does), registers search_tools and hides the other tools from
// tools/list. Options that Select would refuse (an always-include tool
// outside the catalog, sizes that contradict each other) fail here, at
// start-up, rather than on every query.
func (s *Server) addSearchTools(opts *retrieval.Options) error {
	o := DefaultSearchOptions()
	if opts != nil {
		o = *opts
	}
	if err := o.Validate(); err != nil {
		return fmt.Errorf("mcpserver: search_tools: %w", err)
	}
	cat := s.eng.Tools()
	for _, name := range o.Always {
		if cat.Tool(name) == nil {
			return fmt.Errorf("mcpserver: search_tools: always-include tool %q is not in the catalog (tools: %s)", name, strings.Join(cat.Names(), ", "))
		}
	}
	ix, err := retrieval.NewIndex(engine.Documents(s.eng.Model(), cat))
	if err != nil {
		return err
	}
	s.search = &searcher{index: ix, cat: cat, opts: o}
	s.mcp.AddTool(&mcp.Tool{
		Name:        SearchToolsName,
		Description: searchToolsDescription,
		InputSchema: json.RawMessage(searchToolsSchema),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, s.searchTools)
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.ListToolsResult); ok && err == nil && method == "tools/list" {
				r.Tools = filterTools(r.Tools, SearchToolsName)
			}
			return res, err
		}
	})
	return nil
}

// filterTools keeps the named tool of a tools/list page.
func filterTools(ts []*mcp.Tool, name string) []*mcp.Tool {
	for _, t := range ts {
		if t.Name == name {
			return []*mcp.Tool{t}
		}
	}
	return []*mcp.Tool{}
}

// searchTools runs one search_tools call.
func (s *Server) searchTools(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !s.begin() {
		return errorResult(ctx, errShuttingDown), nil
	}
	defer s.inflight.Done()
	var args struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &args); err != nil || strings.TrimSpace(args.Query) == "" {
		return errorResult(ctx, tools.Fail(SearchToolsName, "/query", nil, "query is required: describe the task in words")), nil
	}
	sel, err := s.search.index.Select(args.Query, s.search.opts)
	if err != nil {
		return errorResult(ctx, err), nil
	}
	found := make([]format.MCPTool, 0, len(sel.Selected))
	for _, name := range sel.Names() {
		if t := s.search.cat.Tool(name); t != nil {
			found = append(found, format.ToMCP(t))
		}
	}
	return jsonResult(map[string]any{"tools": found})
}

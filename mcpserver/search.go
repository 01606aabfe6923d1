package mcpserver

import (
	"context"
	"encoding/json"
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

// searcher answers search_tools from a retrieval index of the catalog.
type searcher struct {
	index *retrieval.Index
	cat   *tools.Catalog
}

// addSearchTools indexes the catalog (engine.Documents, as `ragforge-plan
// select` does), registers search_tools and hides the other tools from
// tools/list.
func (s *Server) addSearchTools() error {
	cat := s.eng.Tools()
	ix, err := retrieval.NewIndex(engine.Documents(s.eng.Model(), cat))
	if err != nil {
		return err
	}
	s.search = &searcher{index: ix, cat: cat}
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
func (s *Server) searchTools(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !s.begin() {
		return errorResult(errShuttingDown), nil
	}
	defer s.inflight.Done()
	var args struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &args); err != nil || strings.TrimSpace(args.Query) == "" {
		return errorResult(tools.Fail(SearchToolsName, "/query", nil, "query is required: describe the task in words")), nil
	}
	sel, err := s.search.index.Select(args.Query, retrieval.Options{})
	if err != nil {
		return errorResult(err), nil
	}
	found := make([]format.MCPTool, 0, len(sel.Selected))
	for _, name := range sel.Names() {
		if t := s.search.cat.Tool(name); t != nil {
			found = append(found, format.ToMCP(t))
		}
	}
	return jsonResult(map[string]any{"tools": found})
}

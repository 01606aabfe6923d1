package mcpserver

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/tools"
)

// unknownTools answers a tools/call of a name the server does not offer
// with an isError result that lists the tools it does offer, so the agent
// can correct itself; the SDK alone would answer with a bare JSON-RPC
// error ("unknown tool"), which many clients do not show the model. A tool
// left out by a profile is unknown the same way.
func (s *Server) unknownTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil || s.offered(call.Params.Name) {
			return next(ctx, method, req)
		}
		return errorResult(ctx, tools.Fail(call.Params.Name, "", s.names, "unknown tool %q", call.Params.Name)), nil
	}
}

// offered reports whether name is a tool of this server.
func (s *Server) offered(name string) bool {
	return slices.Contains(s.names, name)
}

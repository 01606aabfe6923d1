// Package mcpserver serves an engine's tools over the Model Context Protocol
// (the official Go SDK), so any MCP client — Claude Desktop, an IDE, an
// agent framework — can list the generated tools and call them on Neo4j
// without an application in between.
//
// tools/list is the engine's catalog; tools/call runs engine.Execute. A bad
// call (a *tools.CallError) is a tool result with isError set, its message
// as text and the problems with their valid choices as structured content,
// so the model can correct itself; a call that could not reach the
// database is an isError result saying the database is unavailable and to
// retry, with {"retryable": true} as structured content; a good call
// returns the result JSON as structured content and as text, and the
// bookmarks of its transactions in _meta (BookmarksMeta): a call that
// sends them back in its own _meta reads after them on any replica, so a
// stateless fleet's client reads its own writes. With sessions, each MCP
// session's calls also share one bookmark chain
// (engine.WithBookmarkManager), so a read sees the session's earlier
// writes even when a cluster routes it to another member. A call that carries a progress token gets
// progress notifications when it starts, every ProgressInterval while it
// runs, and when it ends. Drain refuses new calls and waits for the running
// ones, which is how RunStdio and ServeHTTP shut down.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/jsonout"
	"github.com/ragforge/ragforge/retrieval"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// DefaultProgressInterval is how often a running call that asked for
// progress hears from the server: often enough that a client resetting its
// request timeout on progress never gives up on a slow but live query.
const DefaultProgressInterval = 2 * time.Second

// Options configure a [Server]. The zero value serves every tool of the
// engine under the name ragforge.
type Options struct {
	// Name and Version identify the server in the initialize response.
	Name, Version string
	// SearchTools adds the search_tools meta-tool and lists only it (see
	// [SearchToolsName]); every catalog tool stays callable by name.
	SearchTools bool
	// Search is the selection search_tools makes for each query: sizes,
	// score cut and the tools every answer includes (Always). Nil is
	// DefaultSearchOptions(); `ragforge-plan serve` passes them with the
	// RAGFORGE_TOOL_* settings and its --always, --top-k, --fallback-k
	// applied, as select applies them.
	Search *retrieval.Options
	// ProgressInterval is the period of progress notifications while a
	// call runs (DefaultProgressInterval if zero).
	ProgressInterval time.Duration
	// Logger, when set, gets one line when each call ends (token, tool,
	// duration, results or error), for operators following a server's
	// work, and a debug line when it starts.
	Logger *slog.Logger
	// CallsPerToken bounds the calls one token (an open HTTP server's
	// clients together; the session over stdio) runs at once (DefaultCallsPerToken if zero); a call
	// beyond it waits up to CallWait (DefaultCallWait if zero) and is then
	// refused with an isError result asking to retry.
	CallsPerToken int
	CallWait      time.Duration
	// Metrics, when set, count and time the tool calls (see [Metrics]).
	Metrics *Metrics
	// Ready, when set, is one more condition of readiness ([ReadyPath]):
	// while it returns an error, the probe answers 503 with it (the
	// warm-up of Neo4j's plan cache at serve's start-up).
	Ready func() error
}

// Server is an MCP server over one engine. It is safe for concurrent use
// by many sessions.
type Server struct {
	eng      *engine.Engine
	mcp      *mcp.Server
	interval time.Duration
	search   *searcher
	log      *slog.Logger

	mu       sync.Mutex
	draining bool
	inflight sync.WaitGroup
	// bookmarks is the bookmark chain of each open MCP session, so that
	// a read sees the session's earlier writes on a cluster.
	bookmarks map[*mcp.ServerSession]neo4j.BookmarkManager
	// names are the tools a client may call (search_tools included), which
	// an unknown tool's error lists.
	names []string

	// ping checks that Neo4j answers (the engine's, or a test's); ready is
	// its last answer, kept for readyEvery under readyMu.
	ping    func(context.Context) error
	warm    func() error
	readyMu sync.Mutex
	ready   readiness
}

// New registers the engine's tools (and search_tools when asked) on a new
// MCP server. It fails on a tool whose input schema is not a JSON object
// schema, which MCP requires.
func New(eng *engine.Engine, opts Options) (*Server, error) {
	if opts.Name == "" {
		opts.Name = "ragforge"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = DefaultProgressInterval
	}
	cat := eng.Tools()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{eng: eng, interval: opts.ProgressInterval, log: opts.Logger, bookmarks: map[*mcp.ServerSession]neo4j.BookmarkManager{}, ping: eng.Ping, warm: opts.Ready}
	// The graph schema every tool refers to goes to the client once, as
	// the server's instructions, which clients put in the model's context;
	// tools/list leaves it out of query_entities (format.MCPDescription).
	sopts := &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		Instructions: format.MCPInstructions(cat),
	}
	if opts.SearchTools {
		// One page holds every tool, so filtering tools/list down to
		// search_tools never hides it on a later page.
		sopts.PageSize = len(cat.Tools) + 1
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Version: opts.Version}, sopts)
	// An unknown tool is refused first, so the metrics count only the
	// catalog's names; they time the wait for a call slot too.
	mw := []mcp.Middleware{s.unknownTools}
	if opts.Metrics != nil {
		mw = append(mw, opts.Metrics.middleware)
	}
	s.mcp.AddReceivingMiddleware(append(mw, newCallLimiter(opts.CallsPerToken, opts.CallWait, opts.Logger).middleware)...)
	s.names = cat.Names()
	for _, t := range cat.Tools {
		def, err := definition(t)
		if err != nil {
			return nil, err
		}
		s.mcp.AddTool(def, s.callTool)
	}
	if opts.SearchTools {
		if err := s.addSearchTools(opts.Search); err != nil {
			return nil, err
		}
		s.names = append(s.names, SearchToolsName)
	}
	return s, nil
}

// MCP returns the SDK server, for transports other than RunStdio and
// ServeHTTP (tests use the in-memory one).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// definition renders a catalog tool for tools/list: the same name,
// description, schema and read-only hints `ragforge-plan tools --format
// mcp` prints (the graph schema is the server's instructions).
func definition(t *tools.Tool) (*mcp.Tool, error) {
	r := format.ToMCP(t)
	var schema struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(r.InputSchema, &schema); err != nil || schema.Type != "object" {
		return nil, fmt.Errorf("mcpserver: tool %s: MCP needs an input schema of type object", t.Name)
	}
	return &mcp.Tool{
		Name:        r.Name,
		Description: r.Description,
		InputSchema: r.InputSchema,
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:    r.Annotations.ReadOnlyHint,
			DestructiveHint: r.Annotations.DestructiveHint,
			IdempotentHint:  r.Annotations.IdempotentHint != nil && *r.Annotations.IdempotentHint,
			OpenWorldHint:   r.Annotations.OpenWorldHint,
		},
	}, nil
}

// errShuttingDown is the result of a call that arrives while draining: it
// did not run, so it is retryable (behind a balancer, another replica
// takes it).
var errShuttingDown = errors.New("the server is shutting down; call again on a new connection")

// callTool runs one tools/call on the engine.
func (s *Server) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !s.begin() {
		return errorResult(ctx, errShuttingDown), nil
	}
	defer s.inflight.Done()
	args := req.Params.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	name := req.Params.Name
	// One line when the call ends says all of it (a fleet's log volume is
	// one line a call); the start is for debugging.
	s.log.Debug("call started", "tool", name)
	p := s.startProgress(ctx, req)
	start := time.Now()
	logged := callFields(req)
	// A tenant-bound token's calls run under its tenant.
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		if tn, ok := req.Extra.TokenInfo.Extra["tenant"].(string); ok && tn != "" {
			ctx = tenant.With(ctx, tn)
		}
	}
	if lasting(req) {
		ctx = engine.WithBookmarkManager(ctx, s.sessionBookmarks(req.Session))
	}
	given, err := givenBookmarks(name, req.Params.Meta)
	if err != nil {
		s.log.Info("call", append(logged, "error", err)...)
		p.finish(name + " refused its bookmarks")
		return errorResult(ctx, err), nil
	}
	ctx = engine.ReadAfter(ctx, given)
	res, err := s.eng.Execute(ctx, engine.Call{Name: name, Arguments: args})
	err = engine.BookmarkError(err, given)
	took := time.Since(start).Round(time.Millisecond)
	if err != nil {
		s.log.Info("call", append(logged, "took", took, "error", err)...)
		p.finish(fmt.Sprintf("%s failed after %v", name, took))
		return errorResult(ctx, err), nil
	}
	out, err := jsonResult(res)
	if err != nil {
		// The call ran, but its answer cannot travel: say what could not
		// be encoded and where, rather than a bare encoding/json error.
		err = fmt.Errorf("%s ran, but its result cannot be sent: %w (a bug of the tool: report it with the call)", name, err)
		s.log.Error("call", append(logged, "took", took, "error", err)...)
		p.finish(fmt.Sprintf("%s failed after %v", name, took))
		return errorResult(ctx, err), nil
	}
	if b := engine.ChainBookmarks(ctx); len(b) > 0 {
		out.Meta = mcp.Meta{BookmarksMeta: b}
	}
	s.log.Info("call", append(logged, "took", took, "results", res.Count)...)
	p.finish(fmt.Sprintf("%s: %d result(s) in %v", name, res.Count, took))
	return out, nil
}

// callFields are the fields that name a call in its log line: the tool,
// and the token when there is one.
func callFields(req *mcp.CallToolRequest) []any {
	f := []any{"tool", req.Params.Name}
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		f = append(f, "token", req.Extra.TokenInfo.UserID)
	}
	return f
}

// lasting reports whether req's session outlives the request, so its
// calls share a bookmark chain: stdio's, or an HTTP session of
// --sessions (which has an id). A stateless HTTP request's session is
// its own and ends with it; its call has a chain of its own
// (engine.ReadAfter), and the client carries the bookmarks on.
func lasting(req *mcp.CallToolRequest) bool {
	if req.Session == nil {
		return false
	}
	return req.Extra == nil || req.Extra.Header == nil || req.Session.ID() != ""
}

// sessionBookmarks returns the bookmark manager of ss, made on its first
// call and dropped when the session ends.
func (s *Server) sessionBookmarks(ss *mcp.ServerSession) neo4j.BookmarkManager {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.bookmarks[ss]; ok {
		return m
	}
	m := neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{})
	s.bookmarks[ss] = m
	go func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.bookmarks, ss)
		s.mu.Unlock()
	}()
	return m
}

// jsonResult returns v as structured content and as its JSON text (for
// clients that read only text). Structured content must be an object, so
// any other value (a custom tool's) is wrapped as {"result": v}. A value
// JSON cannot write is a *jsonout.Error naming where it is.
func jsonResult(v any) (*mcp.CallToolResult, error) {
	b, err := jsonout.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 || b[0] != '{' {
		if b, err = json.Marshal(map[string]json.RawMessage{"result": b}); err != nil {
			return nil, err
		}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}, nil
}

// errorResult turns an error into a tool result the model reads: the
// message as text, for a *tools.CallError its problems (path, message,
// valid choices) as structured content, for an unavailable database, a
// token at its call limit or a server draining (whose messages say to
// retry) {"error", "retryable": true}, and for a write whose commit went
// unanswered
// {"error", "retryable": true, "may_have_applied": true}.
// It notes err's class on ctx for the metrics.
func errorResult(ctx context.Context, err error) *mcp.CallToolResult {
	noteOutcome(ctx, err)
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
	var ce *tools.CallError
	switch {
	case errors.As(err, &ce):
		res.StructuredContent = ce
	case errors.Is(err, engine.ErrCommitUnknown):
		res.StructuredContent = map[string]any{"error": err.Error(), "retryable": true, "may_have_applied": true}
	case errors.Is(err, engine.ErrUnavailable), errors.Is(err, errTooManyCalls), errors.Is(err, errShuttingDown):
		res.StructuredContent = map[string]any{"error": err.Error(), "retryable": true}
	}
	return res
}

// begin counts a call in, unless the server is draining.
func (s *Server) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.draining {
		return false
	}
	s.inflight.Add(1)
	return true
}

// Drain makes every later call fail with "shutting down" and waits until
// the calls already running have returned, or ctx is done (then it returns
// ctx's error and the caller closes the sessions, which cancels them).
func (s *Server) Drain(ctx context.Context) error {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("mcpserver: calls still running when the grace period ended: %w", ctx.Err())
	}
}

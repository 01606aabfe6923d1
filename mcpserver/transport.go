package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where ServeHTTP's handler answers streamable-HTTP MCP requests.
const Path = "/mcp"

// responseGrace bounds how long ServeHTTP waits, after the last call has
// returned, for its response to reach the client before closing the
// connections (a client's idle event stream would otherwise hold them).
const responseGrace = 2 * time.Second

// The defaults of [HTTPOptions]: the limits that keep a server reachable
// for clients holding a token while others open connections, sessions and
// calls it never hears the end of.
const (
	// DefaultReadHeaderTimeout is how long a connection may take to send
	// a request's headers (or, kept alive, to start the next request's):
	// a client that opens connections and sends nothing holds each this
	// long at most.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout is how long a request's headers and body may take
	// together. MCP requests are small; a body trickled in slower than
	// this is cut. (Once the body is read the deadline is lifted, so a
	// call running longer is not affected.)
	DefaultReadTimeout = 30 * time.Second
	// DefaultWriteTimeout is how long one write to a client may block: a
	// client that stops reading its responses is cut after it. It bounds
	// each write, not the response, because a call's response stays open
	// while the call runs (up to its --timeout) and a session's event
	// stream (GET) stays open as long as the session.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long a kept-alive connection may wait for
	// its next request.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultMaxConns caps the open connections (see [HTTPOptions.MaxConns]
	// for what happens at the cap).
	DefaultMaxConns = 1024
	// DefaultSessionIdleTimeout closes an MCP session that has had no
	// request for this long; its client gets 404 on the next one and
	// starts a new session, as the MCP spec has it.
	DefaultSessionIdleTimeout = 30 * time.Minute
	// DefaultMaxSessions caps the open MCP sessions; an initialize beyond
	// it gets 503 with Retry-After.
	DefaultMaxSessions = 500
	// DefaultMaxBatch caps the messages of one JSON-RPC batch (protocol
	// 2025-03-26 and older; later ones have no batches).
	DefaultMaxBatch = 16
)

// HTTPOptions configure the streamable-HTTP transport. A zero field takes
// its default (the Default… constants).
type HTTPOptions struct {
	// Tokens are the bearer tokens the server accepts; a request without
	// one of them gets 401, before its body is read, and its connection is
	// closed. Without tokens the server is open, which ServeHTTP's caller
	// allows only on a loopback address.
	Tokens []Token
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout are the
	// connection timeouts (see DefaultReadHeaderTimeout…). WriteTimeout
	// bounds one write, not a response, so that a long call or an event
	// stream is never cut while the client reads.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxConns caps the open connections. At the cap a new connection
	// closes the one idle longest: first those that never carried a
	// request with a token (still sending headers, or refused with 401),
	// then kept-alive ones between requests; connections serving a
	// request with a token are never closed for it. When every connection
	// is serving one, the new connection gets 503 with Retry-After and is
	// closed. ServeHTTP lowers the cap to fit the process's open-file
	// limit (keeping room for Neo4j connections and files) and logs it.
	MaxConns int
	// SessionIdleTimeout closes an MCP session after this long without a
	// request from its client (an open event stream does not count).
	SessionIdleTimeout time.Duration
	// MaxSessions caps the open MCP sessions: a request that would start
	// another gets 503 with Retry-After and a JSON-RPC error saying why.
	MaxSessions int
	// MaxSessionsPerToken caps the open MCP sessions of one token, so that
	// one client cannot hold every session MaxSessions allows and lock the
	// other tokens out: a request of that token that would start another
	// gets 429 with Retry-After. Zero shares MaxSessions among the tokens
	// (MaxSessions / len(Tokens), at least 1), so that every token can
	// always open its share; an open server (no tokens) has no such cap.
	MaxSessionsPerToken int
	// MaxBatch caps the messages of one JSON-RPC batch: a longer batch is
	// refused whole (400 and a JSON-RPC error), none of it run.
	MaxBatch int
	// Sessions keeps an MCP session per client in this process (the SDK's
	// stateful mode), for clients that need server-to-client requests or
	// a GET event stream. Without it (the default) the server is
	// stateless: it sets no Mcp-Session-Id, each POST is answered on its
	// own, so any replica behind a load balancer answers any request and
	// a restarted replica loses nothing; progress notifications of a call
	// still reach its client on the call's own response stream. The
	// session caps (MaxSessions, MaxSessionsPerToken, SessionIdleTimeout)
	// apply only with Sessions: stateless requests open no session.
	Sessions bool
	// AllowedHosts are the Host headers, besides loopback names, that a
	// request reaching a loopback address may carry: a reverse proxy on
	// the same machine forwards its public name. Any other such request
	// gets 403 (DNS-rebinding protection); on a non-loopback address any
	// Host is accepted, as the tokens guard it. An entry is a host name
	// (any port) or host:port.
	AllowedHosts []string
	// AllowedOrigins are the origins (scheme://host[:port]) whose browser
	// pages may send cross-origin requests; other cross-origin browser
	// requests get 403 (http.CrossOriginProtection). Clients that are not
	// browsers send no Origin and are not affected.
	AllowedOrigins []string
	// CallsPerSecond and CallBurst rate-limit each token's tool calls
	// (an open server's calls together) with a token bucket: CallBurst
	// calls at once, refilled at CallsPerSecond. A request whose calls
	// the bucket does not hold gets 429 with Retry-After (whole seconds
	// until it would) and none of it runs. Zero CallsPerSecond is no rate
	// limit; zero CallBurst is CallsPerSecond rounded up (at least 1).
	// The bucket is this process's: behind a balancer spreading a
	// token's calls over N replicas the token gets about N times it.
	CallsPerSecond float64
	CallBurst      int

	// onServe, when set, is handed ServeHTTP's connection guard (tests
	// read its counts).
	onServe func(*connGuard)
}

// withDefaults fills the zero fields with their defaults.
func (o HTTPOptions) withDefaults() HTTPOptions {
	orDefault(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	orDefault(&o.ReadTimeout, DefaultReadTimeout)
	orDefault(&o.WriteTimeout, DefaultWriteTimeout)
	orDefault(&o.IdleTimeout, DefaultIdleTimeout)
	orDefault(&o.SessionIdleTimeout, DefaultSessionIdleTimeout)
	orDefault(&o.MaxConns, DefaultMaxConns)
	orDefault(&o.MaxSessions, DefaultMaxSessions)
	orDefault(&o.MaxSessionsPerToken, max(1, o.MaxSessions/max(1, len(o.Tokens))))
	orDefault(&o.MaxBatch, DefaultMaxBatch)
	orDefault(&o.CallBurst, max(1, int(math.Ceil(o.CallsPerSecond))))
	return o
}

// Check refuses options ServeHTTP cannot serve as meant, with or
// without tokens: an allowed origin that is not scheme://host[:port]; a
// call rate that is negative or not a number; and, with Sessions, session
// caps that can lock a token out without a word: a per-token cap whose
// product with the number of tokens exceeds the global cap lets the first
// tokens take every session, so a later one gets none (issue 34: 40
// sessions, 30 per token, three tokens — the third got none). The zero
// per-token cap, a share of the global one, never does.
func (o HTTPOptions) Check() error {
	o = o.withDefaults()
	if _, err := originGuard(o.AllowedOrigins); err != nil {
		return err
	}
	if o.CallsPerSecond < 0 || math.IsNaN(o.CallsPerSecond) || math.IsInf(o.CallsPerSecond, 0) {
		return fmt.Errorf("--calls-per-second %v: give a positive rate, or 0 for no rate limit", o.CallsPerSecond)
	}
	if !o.Sessions {
		return nil
	}
	if n := len(o.Tokens); n > 1 && o.MaxSessionsPerToken*n > o.MaxSessions {
		return fmt.Errorf("--max-sessions-per-token %d × %d tokens = %d is more than --max-sessions %d: the first tokens could hold every session and lock the others out; "+
			"give --max-sessions-per-token at most %d (--max-sessions / tokens; 0 shares it so), or --max-sessions at least %d",
			o.MaxSessionsPerToken, n, o.MaxSessionsPerToken*n, o.MaxSessions, o.MaxSessions/n, o.MaxSessionsPerToken*n)
	}
	return nil
}

// orDefault sets a limit that is not positive to its default.
func orDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// HTTPHandler serves the streamable-HTTP transport at [Path] with o's
// tokens, session, rate and batch limits (the connection limits are
// ServeHTTP's), and the probes a load balancer needs at [HealthPath] and
// [ReadyPath], which need no token. With tokens, every other request
// needs `Authorization: Bearer TOKEN` with one of them. With
// AllowedOrigins that [HTTPOptions.Check] refuses, every request gets 500
// saying why (ServeHTTP refuses to start instead).
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	o = o.withDefaults()
	origins, err := originGuard(o.AllowedOrigins)
	if err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "mcpserver: misconfigured: "+err.Error(), http.StatusInternalServerError)
		})
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless:      !o.Sessions,
		SessionTimeout: o.SessionIdleTimeout,
		// hostGuard does the SDK's DNS-rebinding check, with the hosts a
		// proxy forwards allowed.
		DisableLocalhostProtection: true,
		CrossOriginProtection:      origins,
	})
	mux := http.NewServeMux()
	mux.Handle(Path, hostGuard(o.AllowedHosts, &limits{s: s, opts: o, next: sdk, rate: newRateLimiter(o.CallsPerSecond, o.CallBurst), pending: map[string]int{}, owners: map[string]string{}}))
	var mcpHandler http.Handler = mux
	if len(o.Tokens) == 0 {
		mcpHandler = trusted(mux)
	} else {
		// Every other path answers 401 without a token, so none reads a
		// body first.
		v := verifier(o.Tokens)
		mcpHandler = requireToken(v, auth.RequireBearerToken(v, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(mux))
	}
	probes := http.NewServeMux()
	probes.HandleFunc("GET "+HealthPath, s.healthz)
	probes.HandleFunc("GET "+ReadyPath, s.readyz)
	probes.Handle("/", mcpHandler)
	return probes
}

// ServeHTTP serves the streamable-HTTP transport (HTTPHandler) on ln with
// o's limits (refused when [HTTPOptions.Check] refuses them) until ctx is
// done, then drains: new calls are refused,
// running ones get up to grace to finish, and the listener and connections
// are closed.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, o HTTPOptions, grace time.Duration) error {
	if err := o.Check(); err != nil {
		return fmt.Errorf("mcpserver: %w", err)
	}
	o = o.withDefaults()
	maxConns := o.MaxConns
	if lim := openFileLimit(); lim > 0 {
		maxConns = connsWithin(maxConns, lim)
		if maxConns < o.MaxConns {
			s.log.Warn("the connection cap is lowered to fit the open-file limit (raise it with ulimit -n)", "max_conns", o.MaxConns, "open_file_limit", lim, "cap", maxConns)
		}
	}
	sessions := []any{"sessions", false}
	if o.Sessions {
		sessions = []any{"sessions", true, "max_sessions", o.MaxSessions, "max_sessions_per_token", o.MaxSessionsPerToken, "session_idle_timeout", o.SessionIdleTimeout}
	}
	s.log.Info("http limits", append(sessions, "max_conns", maxConns, "calls_per_second", o.CallsPerSecond, "call_burst", o.CallBurst,
		"max_batch", o.MaxBatch, "read_header_timeout", o.ReadHeaderTimeout, "read_timeout", o.ReadTimeout,
		"write_timeout", o.WriteTimeout, "idle_timeout", o.IdleTimeout)...)
	g := newConnGuard(ln, maxConns, s.log)
	if o.onServe != nil {
		o.onServe(g)
	}
	srv := &http.Server{
		Handler:           s.HTTPHandler(o),
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		ConnState:         g.connState,
		ConnContext:       g.connContext,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(g) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	dctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	drained := s.Drain(dctx)
	sctx, scancel := context.WithTimeout(context.Background(), responseGrace)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return drained
}

// RunStdio serves one client on stdin and stdout until it disconnects or
// ctx is done; then it drains like ServeHTTP and closes the session.
func (s *Server) RunStdio(ctx context.Context, grace time.Duration) error {
	ss, err := s.mcp.Connect(context.Background(), &mcp.StdioTransport{}, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err := <-ended:
		return err
	case <-ctx.Done():
	}
	dctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	drained := s.Drain(dctx)
	ss.Close()
	<-ended
	return drained
}

package mcpserver

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// roundRobin is a reverse proxy that sends each request to the next of
// targets, forwarding the client's Host as a proxy does; it returns the
// proxy's MCP endpoint.
func roundRobin(t *testing.T, host string, targets ...string) string {
	t.Helper()
	var next atomic.Int64
	urls := make([]*url.URL, len(targets))
	for i, target := range targets {
		u, err := url.Parse(target)
		if err != nil {
			t.Fatal(err)
		}
		urls[i] = u
	}
	p := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			u := urls[int(next.Add(1)-1)%len(urls)]
			r.Out.URL.Scheme, r.Out.URL.Host = u.Scheme, u.Host
			r.Out.Host = host
			if host == "" {
				r.Out.Host = r.In.Host
			}
		},
		FlushInterval: -1, // event streams pass at once
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL + Path
}

// TestThreeStatelessReplicasBehindRoundRobinAnswerEveryCall: the
// official Go client talks to three servers through a round-robin proxy,
// as to one: initialize, tools/list and 30 calls (each a request of its
// own) all succeed, every replica answers some, and a call's progress
// notifications reach the client on the call's own response.
func TestThreeStatelessReplicasBehindRoundRobinAnswerEveryCall(t *testing.T) {
	var targets []string
	counts := make([]*atomic.Int64, 3)
	for i := range counts {
		counts[i] = &atomic.Int64{}
		s, err := New(newEngine(t, helloTool(counts[i])), Options{})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}})
		targets = append(targets, strings.TrimSuffix(u, Path))
	}
	ctx := t.Context()
	cs := connectHTTP(t, ctx, roundRobin(t, "", targets...), "s3cret")
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for i := range 30 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
		if err != nil || res.IsError {
			t.Fatalf("call %d: %v %+v", i+1, err, res)
		}
	}
	for i, c := range counts {
		if c.Load() == 0 {
			t.Errorf("replica %d answered no call (counts %d %d %d)", i+1, counts[0].Load(), counts[1].Load(), counts[2].Load())
		}
	}
}

// TestProgressReachesAStatelessClientOnTheCallsResponse: without a
// session (no GET stream), a call's progress notifications still reach
// the official client, on the call's own response stream, and the
// server holds no session once the response is written.
func TestProgressReachesAStatelessClientOnTheCallsResponse(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	s, err := New(newEngine(t, blockingTool(started, release)), Options{ProgressInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}})
	var log progressLog
	tr := &mcp.StreamableClientTransport{Endpoint: u, HTTPClient: &http.Client{Transport: bearer{"s3cret", http.DefaultTransport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{ProgressNotificationHandler: log.handler}).Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	log.callWait(t, cs, started, release)
	// The request's own session ends just after its response is written.
	for deadline := time.Now().Add(time.Second); countSessions(s) > 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions held a second after the call, want none (stateless)", countSessions(s))
		}
	}
}

// TestStatelessRequestsAreNotCountedAsSessions: a cap of one session
// does not refuse requests of a stateless server, which keeps none, even
// when they overlap: while a call runs (holding no session bookmark
// chain), three initializes sent at once all succeed (counting each
// request as a starting session, as --sessions does, would refuse them at
// the cap).
func TestStatelessRequestsAreNotCountedAsSessions(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	s, err := New(newEngine(t, blockingTool(started, release)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}, MaxSessions: 1})
	running := make(chan *http.Response, 1)
	go func() {
		res, _ := (&rawSession{t: t, url: url, version: "2025-06-18"}).post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
		running <- res
	}()
	<-started
	// Nor does the running call keep a session's bookmark chain: its own
	// is the call's.
	s.mu.Lock()
	chains := len(s.bookmarks)
	s.mu.Unlock()
	if chains != 0 {
		t.Errorf("%d session bookmark chains while a stateless call runs, want none", chains)
	}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			r := &rawSession{t: t, url: url, version: "2025-06-18"}
			if res := r.initialize(); res.StatusCode != http.StatusOK || r.id != "" {
				t.Errorf("initialize %d while a call runs: %s, session id %q; want 200 and no session", i+1, res.Status, r.id)
			}
		})
	}
	wg.Wait()
	close(release)
	if res := <-running; res.StatusCode != http.StatusOK {
		t.Errorf("the running call: %s", res.Status)
	}
	if n := countSessions(s); n != 0 {
		t.Errorf("%d sessions held, want none", n)
	}
}

// TestAProxyForwardingItsNameIsRefusedUnlessAllowed: a loopback server
// refuses a Host that is not loopback (DNS rebinding), naming the flag
// that allows it; with the name in AllowedHosts the proxy's clients get
// in, and another name still does not.
func TestAProxyForwardingItsNameIsRefusedUnlessAllowed(t *testing.T) {
	var calls atomic.Int64
	for _, allowed := range [][]string{nil, {"mcp.example.com"}} {
		s, err := New(newEngine(t, helloTool(&calls)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}, AllowedHosts: allowed})
		target := strings.TrimSuffix(u, Path)
		r := &rawSession{t: t, url: roundRobin(t, "mcp.example.com:443", target), version: "2025-06-18"}
		res := r.initialize()
		switch {
		case allowed == nil && (res.StatusCode != http.StatusForbidden):
			t.Errorf("mcp.example.com not allowed: %s, want 403", res.Status)
		case allowed != nil && res.StatusCode != http.StatusOK:
			t.Errorf("mcp.example.com allowed: %s, want 200", res.Status)
		}
		other := &rawSession{t: t, url: roundRobin(t, "evil.example", target), version: "2025-06-18"}
		if res := other.initialize(); res.StatusCode != http.StatusForbidden {
			t.Errorf("allowed %v, Host evil.example: %s, want 403", allowed, res.Status)
		}
	}
	// The 403 says what to do.
	s, _ := New(newEngine(t), Options{})
	h := s.HTTPHandler(HTTPOptions{})
	req := httptest.NewRequest(http.MethodPost, Path, strings.NewReader("{}"))
	req.Host = "mcp.example.com"
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "--allowed-hosts mcp.example.com") {
		t.Errorf("refused Host: %d %q, want 403 naming --allowed-hosts mcp.example.com", w.Code, w.Body)
	}
}

// TestACrossOriginBrowserRequestIsRefusedUnlessItsOriginIsAllowed.
func TestACrossOriginBrowserRequestIsRefusedUnlessItsOriginIsAllowed(t *testing.T) {
	s, err := New(newEngine(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	for _, tc := range []struct {
		allowed []string
		want    int
	}{{nil, http.StatusForbidden}, {[]string{"https://app.example.com"}, http.StatusOK}} {
		req := httptest.NewRequest(http.MethodPost, Path, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", "https://app.example.com")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		w := httptest.NewRecorder()
		s.HTTPHandler(HTTPOptions{AllowedOrigins: tc.allowed}).ServeHTTP(w, req)
		if w.Code != tc.want {
			t.Errorf("allowed origins %v: %d %q, want %d", tc.allowed, w.Code, w.Body, tc.want)
		}
	}
	bad := HTTPOptions{AllowedOrigins: []string{"app.example.com"}}
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "scheme://host") {
		t.Errorf("an origin without a scheme: %v", err)
	}
	w := httptest.NewRecorder()
	s.HTTPHandler(bad).ServeHTTP(w, httptest.NewRequest(http.MethodGet, HealthPath, nil))
	if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), "scheme://host") {
		t.Errorf("a handler with an origin without a scheme: %d %q, want 500 saying why", w.Code, w.Body)
	}
}

// TestATokenBeyondItsCallRateGets429WithRetryAfterWhileOthersCall: two
// calls a second in bursts of two: the third call at once is refused
// whole (429, Retry-After, not run), another token is not affected, and
// after the wait the token calls again.
func TestATokenBeyondItsCallRateGets429WithRetryAfterWhileOthersCall(t *testing.T) {
	var calls atomic.Int64
	s, err := New(newEngine(t, helloTool(&calls)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}, {Token: "other"}}, CallsPerSecond: 2})
	call := func(token string) *http.Response {
		r := &rawSession{t: t, url: url, version: "2025-06-18", token: token}
		res, _ := r.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello","arguments":{}}}`)
		return res
	}
	for i := range 2 {
		if res := call("s3cret"); res.StatusCode != http.StatusOK {
			t.Fatalf("call %d within the burst: %s", i+1, res.Status)
		}
	}
	r := &rawSession{t: t, url: url, version: "2025-06-18"}
	res, msgs := r.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello","arguments":{}}}`)
	if msg := jsonrpcErrorOf(t, res, msgs); res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "1" || !strings.Contains(msg, "--calls-per-second") {
		t.Errorf("the third call at once: %s, Retry-After %q, %q", res.Status, res.Header.Get("Retry-After"), msg)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d calls ran, want 2 (the refused one must not)", n)
	}
	// Other requests of the token (no tool call) and other tokens pass.
	if res, _ := r.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); res.StatusCode != http.StatusOK {
		t.Errorf("tools/list of the limited token: %s", res.Status)
	}
	if res := call("other"); res.StatusCode != http.StatusOK {
		t.Errorf("another token: %s", res.Status)
	}
	time.Sleep(time.Second)
	if res := call("s3cret"); res.StatusCode != http.StatusOK {
		t.Errorf("after Retry-After: %s", res.Status)
	}
}

// TestAnOpenServersStatelessCallsShareOneCallLimit: without tokens every
// request is its own session, so the call limit counts the open server's
// clients together: with a limit of one, a second client's call waits
// and is refused while the first runs.
func TestAnOpenServersStatelessCallsShareOneCallLimit(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	var calls atomic.Int64
	s, err := New(newEngine(t, blockingTool(started, release), helloTool(&calls)), Options{CallsPerToken: 1, CallWait: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{})
	ctx := t.Context()
	one, two := connectHTTP(t, ctx, url, ""), connectHTTP(t, ctx, url, "")
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := one.CallTool(ctx, &mcp.CallToolParams{Name: "wait"})
		done <- res
	}()
	<-started
	if res, err := two.CallTool(ctx, &mcp.CallToolParams{Name: "hello"}); err != nil || !res.IsError || !strings.Contains(text(res), "too many calls at once") {
		t.Errorf("a second client's call while the first runs: %v %+v", err, res)
	}
	close(release)
	if res := <-done; res == nil || res.IsError {
		t.Errorf("the first call: %+v", res)
	}
	if res, err := two.CallTool(ctx, &mcp.CallToolParams{Name: "hello"}); err != nil || res.IsError {
		t.Errorf("the second client once the first call ended: %v %+v", err, res)
	}
}

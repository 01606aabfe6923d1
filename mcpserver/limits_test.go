package mcpserver

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/tools"
)

// helloTool answers at once, counting its calls.
func helloTool(calls *atomic.Int64) tools.CustomTool {
	return tools.CustomTool{Name: "hello", Description: "Say hello.", ReadOnly: true,
		Handler: func(context.Context, json.RawMessage) (any, error) {
			calls.Add(1)
			return map[string]any{"hello": "world"}, nil
		}}
}

// serveHTTPOnLoopback runs s.ServeHTTP with o on a free loopback port
// until the test ends, and returns the MCP endpoint and the connection
// guard.
func serveHTTPOnLoopback(t *testing.T, s *Server, o HTTPOptions) (string, *connGuard) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	guard := make(chan *connGuard, 1)
	o.onServe = func(g *connGuard) { guard <- g }
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.ServeHTTP(ctx, ln, o, time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + Path, <-guard
}

// bearer adds a token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connectHTTP opens an MCP session on url with the official Go client.
func connectHTTP(t *testing.T, ctx context.Context, url, token string) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport.(*http.Transport).Clone()}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect with token %q: %v", token, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// idleConns opens n connections to addr that never finish a request: half
// send nothing, half the start of a request's headers (a slow client),
// and none carries a token. closed counts those the server has closed.
func idleConns(t *testing.T, addr string, n int, closed *atomic.Int64) {
	t.Helper()
	for i := range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		t.Cleanup(func() { c.Close() })
		if i%2 == 1 {
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", Path, addr)
		}
		go func() {
			io.Copy(io.Discard, c)
			closed.Add(1)
		}()
	}
}

func TestAThousandIdleUnauthenticatedConnectionsDoNotKeepATokenClientOut(t *testing.T) {
	const idle = 1000
	// Both sides of each connection are in this process, and the token
	// client's too.
	needOpenFiles(t, 2*idle+200)
	for _, tc := range []struct {
		name     string
		maxConns int
	}{
		{"under the default cap", 0},
		// As on a host whose open-file limit leaves room for 256: most of
		// the idle connections are closed to make room.
		{"over a cap of 256", 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int64
			s, err := New(newEngine(t, helloTool(&calls)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			url, g := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}, MaxConns: tc.maxConns})
			addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), Path)
			var closed atomic.Int64
			idleConns(t, addr, idle, &closed)
			// Wait until the server has accepted every one of them.
			deadline := time.Now().Add(10 * time.Second)
			for {
				open, evicted, _ := g.stats()
				if open+evicted >= idle {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the server accepted %d of the %d connections in 10 s", open+evicted, idle)
				}
				time.Sleep(10 * time.Millisecond)
			}

			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			cs := connectHTTP(t, ctx, url, "s3cret")
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
			took := time.Since(start)
			if err != nil || res.IsError || calls.Load() != 1 {
				t.Fatalf("the token client's call: %v, %+v", err, res)
			}
			if took > time.Second {
				t.Errorf("the token client connected and called in %v, want within 1 s", took)
			}
			open, evicted, refused := g.stats()
			t.Logf("token client in and called in %v; server: %d connections open, %d closed at the cap, %d refused; %d idle ones seen closed",
				took.Round(time.Millisecond), open, evicted, refused, closed.Load())
			if limit := cmp.Or(tc.maxConns, DefaultMaxConns); open > limit {
				t.Errorf("%d connections open, over the cap of %d", open, limit)
			}
			if tc.maxConns > 0 && evicted < idle-tc.maxConns {
				t.Errorf("%d connections closed at the cap, want at least %d", evicted, idle-tc.maxConns)
			}
			if refused > 0 {
				t.Errorf("%d connections refused: idle ones should have made room", refused)
			}
		})
	}
}

// cmp returns v, or def when v is zero.
func TestAtTheConnectionCapANewConnectionGets503WhenEveryOneServesAToken(t *testing.T) {
	started, release := make(chan struct{}, 2), make(chan struct{})
	s, err := New(newEngine(t, blockingTool(started, release)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}, MaxConns: 2})
	ctx := context.Background()
	// Two connections at most, so the client's own never go over the cap
	// (a third would close one of them, idle between requests).
	ht := http.DefaultTransport.(*http.Transport).Clone()
	ht.MaxConnsPerHost = 2
	tr := &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true, HTTPClient: &http.Client{Transport: bearer{"s3cret", ht}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	done := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait"})
			done <- err
		}()
	}
	<-started
	<-started
	// Both connections serve a call with the token: a third cannot close
	// either, so it is told to come back.
	c, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), Path))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "--max-conns") {
		t.Errorf("a connection over the cap: %s, Retry-After %q, %q", res.Status, res.Header.Get("Retry-After"), body)
	}
	close(release)
	for range 2 {
		if err := <-done; err != nil {
			t.Errorf("a call on a connection kept at the cap: %v", err)
		}
	}
}

func TestA401ComesBeforeTheBodyIsReadAndClosesTheConnection(t *testing.T) {
	s, err := New(newEngine(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), Path)
	// Bodies under and over the 256 KB Go's server would read to keep the
	// connection; with no token and with a wrong one.
	for _, size := range []int{1_000, 1_000_000} {
		for _, token := range []string{"", "wrong"} {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			auth := ""
			if token != "" {
				auth = "Authorization: Bearer " + token + "\r\n"
			}
			// The headers and 10 bytes of the body; the rest never comes.
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"jsonrpc\"", Path, addr, auth, size)
			start := time.Now()
			c.SetReadDeadline(start.Add(5 * time.Second))
			br := bufio.NewReader(c)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("body of %d, token %q: %v", size, token, err)
			}
			io.ReadAll(res.Body)
			answered := time.Since(start)
			_, err = br.ReadByte() // the server closes the connection
			closedAfter := time.Since(start)
			if res.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") || !res.Close {
				t.Errorf("body of %d, token %q: %s, WWW-Authenticate %q, Connection: close %v", size, token, res.Status, res.Header.Get("WWW-Authenticate"), res.Close)
			}
			// At once: sooner than the linger, which a server reading the
			// body first would spend before answering.
			if answered >= unauthorizedLinger || err == nil || closedAfter > 2*time.Second {
				t.Errorf("body of %d, token %q: 401 after %v, connection closed after %v (%v); want the 401 at once and the connection closed within 2 s, the body unread",
					size, token, answered, closedAfter, err)
			}
		}
	}
}

// rawSession speaks streamable HTTP by hand, for what the official client
// never sends (batches) or hides (status codes).
type rawSession struct {
	t       *testing.T
	url, id string
	version string
	token   string // "s3cret" when empty
}

// post sends body and returns the status, headers and the JSON-RPC
// messages of the response (its SSE events, or its JSON).
func (r *rawSession) post(body string) (*http.Response, []json.RawMessage) {
	r.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+cmp.Or(r.token, "s3cret"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if r.id != "" {
		req.Header.Set("Mcp-Session-Id", r.id)
		req.Header.Set("Mcp-Protocol-Version", r.version)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var msgs []json.RawMessage
	add := func(b []byte) {
		var batch []json.RawMessage
		if json.Unmarshal(b, &batch) == nil {
			msgs = append(msgs, batch...)
		} else if len(b) > 0 {
			msgs = append(msgs, b)
		}
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(string(data)) {
			if d, ok := strings.CutPrefix(strings.TrimSpace(line), "data:"); ok {
				add([]byte(strings.TrimSpace(d)))
			}
		}
	} else {
		add(data)
	}
	return res, msgs
}

// initialize opens the session (protocol version r.version).
func (r *rawSession) initialize() *http.Response {
	r.t.Helper()
	r.id = ""
	res, _ := r.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, r.version))
	if res.StatusCode == http.StatusOK {
		r.id = res.Header.Get("Mcp-Session-Id")
		if res, _ := r.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); res.StatusCode != http.StatusAccepted {
			r.t.Fatalf("notifications/initialized: %s", res.Status)
		}
	}
	return res
}

// jsonrpcErrorOf decodes a JSON-RPC error response body.
func jsonrpcErrorOf(t *testing.T, res *http.Response, msgs []json.RawMessage) string {
	t.Helper()
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if len(msgs) != 1 || json.Unmarshal(msgs[0], &e) != nil || e.Error.Message == "" {
		t.Fatalf("%s: want one JSON-RPC error, got %s", res.Status, msgs)
	}
	return e.Error.Message
}

func TestASessionIdleLongerThanTheTimeoutIsClosed(t *testing.T) {
	s, err := New(newEngine(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}, SessionIdleTimeout: 600 * time.Millisecond, Sessions: true})
	r := &rawSession{t: t, url: url, version: "2025-06-18"}
	if res := r.initialize(); res.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %s", res.Status)
	}
	// A request restarts the idle time.
	time.Sleep(400 * time.Millisecond)
	if res, _ := r.post(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); res.StatusCode != http.StatusOK {
		t.Fatalf("tools/list within the idle timeout: %s", res.Status)
	}
	time.Sleep(400 * time.Millisecond)
	if res, _ := r.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); res.StatusCode != http.StatusOK {
		t.Fatalf("tools/list 800 ms after initialize, 400 ms after the last request: %s", res.Status)
	}
	start := time.Now()
	for countSessions(s) > 0 {
		if time.Since(start) > 3*time.Second {
			t.Fatal("the idle session is still open after 3 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if took := time.Since(start); took < 500*time.Millisecond {
		t.Errorf("the session closed %v after its last request, before its idle timeout", took)
	}
	if res, _ := r.post(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); res.StatusCode != http.StatusNotFound {
		t.Errorf("a request on the expired session: %s, want 404 (the client starts a new one)", res.Status)
	}
}

func countSessions(s *Server) int {
	n := 0
	for range s.mcp.Sessions() {
		n++
	}
	return n
}

// openSessions opens n sessions with token ("" is s3cret).
func openSessions(t *testing.T, url, token string, n int) []*rawSession {
	t.Helper()
	var open []*rawSession
	for range n {
		r := &rawSession{t: t, url: url, version: "2025-06-18", token: token}
		if res := r.initialize(); res.StatusCode != http.StatusOK {
			t.Fatalf("session %d of token %q: %s", len(open)+1, token, res.Status)
		}
		open = append(open, r)
	}
	return open
}

// wantRefused checks that r cannot open a session: status, a Retry-After
// and a JSON-RPC error that says msg.
func wantRefused(t *testing.T, r *rawSession, status int, msg string) {
	t.Helper()
	res, msgs := r.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if got := jsonrpcErrorOf(t, res, msgs); res.StatusCode != status || res.Header.Get("Retry-After") == "" || !strings.Contains(got, msg) {
		t.Errorf("a session beyond the cap: %s, Retry-After %q, %q; want %d and %q", res.Status, res.Header.Get("Retry-After"), got, status, msg)
	}
}

// end ends the session with DELETE, as a client does.
func (r *rawSession) end() {
	r.t.Helper()
	del, _ := http.NewRequest(http.MethodDelete, r.url, nil)
	del.Header.Set("Authorization", "Bearer "+cmp.Or(r.token, "s3cret"))
	del.Header.Set("Mcp-Session-Id", r.id)
	if res, err := http.DefaultClient.Do(del); err != nil || res.StatusCode != http.StatusNoContent {
		r.t.Fatalf("DELETE: %v %v", res, err)
	}
}

func TestSessionsBeyondTheCapGet503WithRetryAfter(t *testing.T) {
	s, err := New(newEngine(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}, MaxSessions: 3, Sessions: true})
	open := openSessions(t, url, "", 3)
	extra := &rawSession{t: t, url: url, version: "2025-06-18"}
	wantRefused(t, extra, http.StatusServiceUnavailable, "maximum of 3 MCP sessions (--max-sessions)")
	// The open sessions still work, and ending one makes room.
	if res, _ := open[0].post(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); res.StatusCode != http.StatusOK {
		t.Errorf("an open session at the cap: %s", res.Status)
	}
	open[1].end()
	if res := extra.initialize(); res.StatusCode != http.StatusOK {
		t.Errorf("a session after one ended: %s", res.Status)
	}
}

func TestOneTokenCannotHoldEverySession(t *testing.T) {
	s, err := New(newEngine(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two tokens share four sessions: two each by default.
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}, {Token: "other"}}, MaxSessions: 4, Sessions: true})
	mine := openSessions(t, url, "", 2)
	extra := &rawSession{t: t, url: url, version: "2025-06-18"}
	wantRefused(t, extra, http.StatusTooManyRequests, "this token holds its maximum of 2 MCP sessions (--max-sessions-per-token)")
	// The other token still gets its share, while the server has room;
	// ending one of the first token's sessions makes room for it again.
	openSessions(t, url, "other", 2)
	mine[0].end()
	if res := extra.initialize(); res.StatusCode != http.StatusOK {
		t.Errorf("a session after one of the token's ended: %s", res.Status)
	}
	if n := countSessions(s); n != 4 {
		t.Errorf("%d sessions open, want 4", n)
	}
}

func TestABatchLongerThanTheLimitIsRefusedWhole(t *testing.T) {
	var calls atomic.Int64
	s, err := New(newEngine(t, helloTool(&calls)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}, MaxBatch: 4})
	// Batches are of protocol 2025-03-26; later ones have none.
	r := &rawSession{t: t, url: url, version: "2025-03-26"}
	if res := r.initialize(); res.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %s", res.Status)
	}
	batch := func(n int) string {
		var b []string
		for i := range n {
			b = append(b, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hello","arguments":{}}}`, i+1))
		}
		return " \n[" + strings.Join(b, ",") + "]"
	}
	res, msgs := r.post(batch(2000))
	if msg := jsonrpcErrorOf(t, res, msgs); res.StatusCode != http.StatusBadRequest || !strings.Contains(msg, "at most 4 messages (--max-batch)") {
		t.Errorf("a batch of 2,000: %s, %q", res.Status, msg)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d calls of the refused batch ran", n)
	}
	res, msgs = r.post(batch(4))
	if res.StatusCode != http.StatusOK || len(msgs) != 4 || calls.Load() != 4 {
		t.Errorf("a batch of 4: %s, %d responses, %d calls ran", res.Status, len(msgs), calls.Load())
	}
	// A single message is not a batch, and passes whole.
	if res, msgs := r.post(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"hello","arguments":{}}}`); res.StatusCode != http.StatusOK || len(msgs) != 1 {
		t.Errorf("one call: %s, %s", res.Status, msgs)
	}
}

func TestCallsBeyondATokensLimitWaitThenAreRefusedWhileOtherTokensRun(t *testing.T) {
	started, release := make(chan struct{}, 4), make(chan struct{})
	var calls atomic.Int64
	const wait = 500 * time.Millisecond
	s, err := New(newEngine(t, blockingTool(started, release), helloTool(&calls)), Options{CallsPerToken: 2, CallWait: wait})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "a"}, {Token: "b"}}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Token a's calls come from two sessions: the limit is the token's.
	a1, a2, b := connectHTTP(t, ctx, url, "a"), connectHTTP(t, ctx, url, "a"), connectHTTP(t, ctx, url, "b")
	var wg sync.WaitGroup
	for _, cs := range []*mcp.ClientSession{a1, a2} {
		wg.Go(func() {
			if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait"}); err != nil || res.IsError {
				t.Errorf("a blocking call: %v %+v", err, res)
			}
		})
	}
	<-started
	<-started

	start := time.Now()
	res, err := a1.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
	if took := time.Since(start); err != nil || !res.IsError || !strings.Contains(text(res), "too many calls at once: 2 are running with this token") || took < wait {
		t.Errorf("a third call with token a: after %v, %v, %+v; want refused after waiting %v", took, err, res, wait)
	} else if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), `"retryable":true`) {
		t.Errorf("the refused call's structured content %s, want retryable", b)
	}
	start = time.Now()
	if res, err := b.CallTool(ctx, &mcp.CallToolParams{Name: "hello"}); err != nil || res.IsError || time.Since(start) > wait {
		t.Errorf("a call with token b while a is at its limit: after %v, %v %+v", time.Since(start), err, res)
	}
	// A call that finds a slot free within the wait runs.
	waited := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := a2.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
		waited <- res
	}()
	time.Sleep(wait / 3)
	release <- struct{}{}
	if res := <-waited; res == nil || res.IsError {
		t.Errorf("a call that waited for a slot: %+v", res)
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 2 {
		t.Errorf("hello ran %d times, want 2 (b's and the one that waited)", n)
	}
}

func TestShortReadAndWriteTimeoutsCutNeitherALongCallNorTheEventStream(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	s, err := New(newEngine(t, blockingTool(started, release)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	const timeout = 200 * time.Millisecond
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}},
		ReadHeaderTimeout: timeout, ReadTimeout: timeout, WriteTimeout: timeout, IdleTimeout: timeout})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs := connectHTTP(t, ctx, url, "s3cret") // with its event stream (GET)
	go func() {
		<-started
		time.Sleep(5 * timeout)
		close(release)
	}()
	params := &mcp.CallToolParams{Name: "wait"}
	params.SetProgressToken("p")
	if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
		t.Fatalf("a call running 5 times the timeouts: %v %+v", err, res)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("the session after it: %v", err)
	}
}

func TestTheConnectionCapFitsTheOpenFileLimit(t *testing.T) {
	for _, c := range []struct {
		max  int
		lim  uint64
		want int
	}{{1024, 65536, 1024}, {1024, 1024, 768}, {1024, 300, 150}, {100, 1024, 100}, {1024, 1, 1}} {
		if got := connsWithin(c.max, c.lim); got != c.want {
			t.Errorf("connsWithin(%d, %d) = %d, want %d", c.max, c.lim, got, c.want)
		}
	}
}

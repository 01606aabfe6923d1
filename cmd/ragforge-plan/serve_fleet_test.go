package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/materialize"
	"github.com/ragforge/ragforge/model"
)

// TestServeRefusesASessionCapWithoutSessions: a stateless server opens
// no session, so a session cap would bound nothing; serve says so before
// connecting.
func TestServeRefusesASessionCapWithoutSessions(t *testing.T) {
	for _, fl := range [][]string{{"--max-sessions", "10"}, {"--max-sessions-per-token", "2"}, {"--session-idle-timeout", "1m"}} {
		code, _, errOut := execute(t, append([]string{"serve", codeRAG, "--transport", "http"}, fl...)...)
		if code != 2 || !strings.Contains(errOut, fl[0]+" bounds MCP sessions, which the server keeps only with --sessions") {
			t.Errorf("%v: exit %d, %s", fl, code, errOut)
		}
	}
}

// balancer is an in-test load balancer: round robin over the replicas
// whose /readyz answered 200 at its last poll (every 50 ms), forwarding
// streams as they come. A request whose replica refuses the connection
// never reached it, so it goes to the next ready replica (HAProxy's
// "option redispatch"); lost counts, per replica, the requests that did
// reach it and got no response (it stopped while they ran), after which
// the replica takes no request until its /readyz answers again.
type balancer struct {
	targets []*url.URL
	ready   []atomic.Bool
	lost    []atomic.Int64
	next    atomic.Int64
	url     string
}

// pick returns the next ready replica (replica 0 when none is: the
// client sees the error).
func (b *balancer) pick() int {
	for range b.targets {
		if i := int(b.next.Add(1)-1) % len(b.targets); b.ready[i].Load() {
			return i
		}
	}
	return 0
}

// RoundTrip sends r to the next ready replica, and on to the next when
// one refuses the connection.
func (b *balancer) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil { // a GET has none
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
	}
	for range b.targets {
		i := b.pick()
		out := r.Clone(r.Context())
		out.URL.Scheme, out.URL.Host = b.targets[i].Scheme, b.targets[i].Host
		if r.Body != nil {
			out.Body = io.NopCloser(bytes.NewReader(body))
		}
		res, err := http.DefaultTransport.RoundTrip(out)
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			b.ready[i].Store(false)
			continue
		}
		if err != nil {
			// It stopped while the request ran (or a pooled connection to
			// it was dead): no more requests go there until its /readyz
			// answers again, as a balancer's passive health check does.
			b.ready[i].Store(false)
			b.lost[i].Add(1)
		}
		return res, err
	}
	return nil, errors.New("balancer: no replica took the connection")
}

func newBalancer(t *testing.T, mcpURLs ...string) *balancer {
	t.Helper()
	b := &balancer{ready: make([]atomic.Bool, len(mcpURLs)), lost: make([]atomic.Int64, len(mcpURLs))}
	for _, u := range mcpURLs {
		p, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		b.targets = append(b.targets, p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var polling sync.WaitGroup
	for i, target := range b.targets {
		polling.Go(func() {
			for ctx.Err() == nil {
				res, err := http.Get(target.Scheme + "://" + target.Host + "/readyz")
				b.ready[i].Store(err == nil && res.StatusCode == http.StatusOK)
				if err == nil {
					res.Body.Close()
				}
				select {
				case <-ctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	}
	t.Cleanup(func() { cancel(); polling.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for i := range b.ready {
		for !b.ready[i].Load() {
			if time.Now().After(deadline) {
				t.Fatalf("replica %d never ready", i+1)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	srv := httptest.NewServer(&httputil.ReverseProxy{
		// RoundTrip chooses the replica.
		Rewrite:       func(r *httputil.ProxyRequest) { r.Out.URL.Path = b.targets[0].Path },
		Transport:     b,
		FlushInterval: -1,
	})
	t.Cleanup(srv.Close)
	b.url = srv.URL + "/mcp"
	return b
}

// TestThreeServeReplicasBehindRoundRobinServeTheOfficialClientAndOneStopsCleanly
// runs three `serve --transport http` processes (stateless, the default)
// behind a round-robin balancer that polls /readyz, and the official MCP
// TypeScript client through it: tools/list and 9 calls all succeed and
// every replica answers some. Then one replica gets SIGTERM while a slow
// call runs on it: its /readyz turns 503, the balancer stops sending it
// requests, the slow call completes, and 6 more calls through the
// balancer all succeed.
func TestThreeServeReplicasBehindRoundRobinServeTheOfficialClientAndOneStopsCleanly(t *testing.T) {
	node := requireClient(t)
	bin := buildCommand(t)
	d := neo4jtest.Open(t)
	flags := append(neo4jtest.Flags(t), "--raw-cypher", "--stats-store", filepath.Join(t.TempDir(), "usage.json"))
	var replicas []*server
	var urls []string
	for range 3 {
		s := startHTTPServer(t, bin, flags...)
		replicas = append(replicas, s)
		urls = append(urls, s.url)
	}
	b := newBalancer(t, urls...)
	calls := func(n int) []any {
		steps := []any{map[string]any{"op": "list"}}
		for range n {
			steps = append(steps, map[string]any{"op": "call", "name": "query_entities", "arguments": map[string]any{"entity_type": "File", "limit": 1}})
		}
		return steps
	}
	check := func(code int, out string, n int) {
		t.Helper()
		var steps []struct {
			Op      string `json:"op"`
			IsError bool   `json:"isError"`
			Text    string `json:"text"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &steps) != nil || len(steps) != n+1 {
			t.Fatalf("client exit %d: %s", code, out)
		}
		for i, s := range steps[1:] {
			if s.IsError {
				t.Errorf("call %d: %s", i+1, s.Text)
			}
		}
	}
	code, out := runClient(t, node, calls(9), "http", b.url)
	check(code, out, 9)
	for i, s := range replicas {
		s.waitFor(t, "msg=call tool=query_entities") // each answered at least one call
		t.Logf("replica %d answered calls", i+1)
	}

	// A slow call on replica 1, then SIGTERM: it drains.
	ctx := t.Context()
	direct, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: replicas[0].url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	slow := make(chan error, 1)
	go func() {
		res, err := direct.CallTool(ctx, &mcp.CallToolParams{Name: "run_cypher", Arguments: map[string]any{"query": slowQuery}})
		if err == nil && res.IsError {
			err = errorText(res)
		}
		slow <- err
	}()
	(&mcpFixture{d: d}).waitRunning(t, "range(1, 150000000)")
	t.Log("the slow call runs on replica 1")
	if err := replicas[0].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	t.Log("SIGTERM sent to replica 1 while its slow call runs")
	for deadline := time.Now().Add(5 * time.Second); b.ready[0].Load(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("replica 1's /readyz still answers 200 5 s after SIGTERM")
		}
	}
	code, out = runClient(t, node, calls(6), "http", b.url)
	check(code, out, 6)
	if err := <-slow; err != nil {
		t.Errorf("the call running at SIGTERM: %v", err)
	}
	replicas[0].waitFor(t, "serve: stopped")
}

// errorText is an isError result as an error.
func errorText(res *mcp.CallToolResult) error {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return &resultError{b.String()}
}

type resultError struct{ text string }

func (e *resultError) Error() string { return "isError: " + e.text }

// TestServeFlushesUsageCountsWhileRunningSoASIGKILLKeepsThem: with
// --stats-flush 200ms, a call's uses of a computed field are in the
// JSON store within the interval, so killing the server with SIGKILL
// (no chance to flush at exit) keeps them.
func TestServeFlushesUsageCountsWhileRunningSoASIGKILLKeepsThem(t *testing.T) {
	bin := buildCommand(t)
	_ = neo4jtest.Open(t)
	store := filepath.Join(t.TempDir(), "usage.json")
	s := startHTTPServer(t, bin, append(neo4jtest.Flags(t), "--stats-store", store, "--stats-flush", "200ms")...)
	ctx := t.Context()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for range 3 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query_entities", Arguments: map[string]any{"entity_type": "Scope", "order_by": map[string]any{"field": "line_count", "direction": "DESC"}, "limit": 3}})
		if err != nil || res.IsError {
			t.Fatalf("call: %v %+v", err, res)
		}
	}
	var n int64
	deadline := time.Now().Add(5 * time.Second)
	for n < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if _, err := os.Stat(store); err != nil {
			continue
		}
		counts, err := materialize.NewFileStore(store).Counts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n = 0
		for _, c := range counts {
			if c.Entity == "Scope" && c.Field == "line_count" && c.Kind == model.UseOrder {
				n += c.N
			}
		}
	}
	if n != 3 {
		t.Fatalf("the store holds %d uses of Scope.line_count to order while serve runs, want 3 (flushed every 200ms)", n)
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
	counts, err := materialize.NewFileStore(store).Counts(ctx)
	if err != nil || len(counts) == 0 {
		t.Errorf("after SIGKILL: %v, %d counts", err, len(counts))
	}
}

// TestServeChecksTheHTTPOptionsWithoutTokensToo: an open server's bad
// origin or call rate is refused before connecting, saying which flag,
// as a server with tokens is.
func TestServeChecksTheHTTPOptionsWithoutTokensToo(t *testing.T) {
	for _, tc := range []struct{ flags []string }{
		{[]string{"--allowed-origins", "app.example.com"}},
		{[]string{"--calls-per-second", "NaN"}},
	} {
		code, _, errOut := execute(t, append([]string{"serve", codeRAG, "--transport", "http"}, tc.flags...)...)
		if code != 2 || !strings.HasPrefix(errOut, "ragforge-plan serve: --") || !strings.Contains(errOut, tc.flags[0]) && !strings.Contains(errOut, "scheme://host") {
			t.Errorf("%v: exit %d, %s", tc.flags, code, errOut)
		}
	}
}

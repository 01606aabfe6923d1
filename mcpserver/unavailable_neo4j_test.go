package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tools"
)

// TestAnUnavailableDatabaseIsARetryableErrorResult serves an engine whose
// driver reaches the server through a proxy: while the proxy refuses,
// never answers or cuts connections, a tools/call ends within the
// timeout plus a second as an isError result that says the database is
// unavailable and to retry ({"retryable": true} as structured content),
// and once it forwards again the same session's calls succeed.
func TestAnUnavailableDatabaseIsARetryableErrorResult(t *testing.T) {
	const timeout = 2 * time.Second
	e, p := proxiedEngine(t, timeout)
	s, err := New(e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil)
	args := map[string]any{"entity_type": "Scope", "limit": 3}
	if res := call(t, cs, "query_entities", args); res.IsError {
		t.Fatalf("forwarding: %s", text(res))
	}
	for _, mode := range neo4jtest.UnavailableModes {
		if err := p.Set(mode); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res := call(t, cs, "query_entities", args)
		took := time.Since(start)
		t.Logf("%s: isError after %v: %s", mode, took.Round(time.Millisecond), text(res))
		if took > timeout+time.Second {
			t.Errorf("%s: the call took %v, more than its timeout %v + 1s", mode, took, timeout)
		}
		var sc struct {
			Retryable bool `json:"retryable"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &sc)
		if !res.IsError || !strings.Contains(text(res), "the database is unavailable") || !strings.Contains(text(res), "retry") || !sc.Retryable {
			t.Errorf("%s: isError %v, text %q, structured %s; want the retryable unavailable error", mode, res.IsError, text(res), b)
		}
		if err := p.Set(neo4jtest.Forward); err != nil {
			t.Fatal(err)
		}
		if res := call(t, cs, "query_entities", args); res.IsError {
			t.Errorf("forwarding again after %s: %s", mode, text(res))
		}
	}
}

// proxiedEngine opens the test server and returns an engine whose driver
// reaches it through a proxy the test can make refuse, hang or cut, with
// the given call timeout.
func proxiedEngine(t *testing.T, timeout time.Duration) (*engine.Engine, *neo4jtest.Proxy) {
	t.Helper()
	neo4jtest.Open(t)
	p := neo4jtest.NewProxy(t)
	m, err := config.Load(codeRAG)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Driver: p.Driver(t), Database: neo4jtest.Database(), Timeout: timeout,
		Tools: tools.Options{Capabilities: &tools.Capabilities{}}})
	if err != nil {
		t.Fatal(err)
	}
	return e, p
}

// TestEachSessionKeepsOneBookmarkChainUntilItCloses: the calls of one
// MCP session share a bookmark manager, another session has its own, and
// a closed session's is dropped.
func TestEachSessionKeepsOneBookmarkChainUntilItCloses(t *testing.T) {
	s, err := New(newEngine(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := connect(t, s, nil), connect(t, s, nil)
	call(t, a, "query_entities", map[string]any{"entity_type": "Scope"})
	call(t, a, "query_entities", map[string]any{"entity_type": "Scope"})
	call(t, b, "query_entities", map[string]any{"entity_type": "Scope"})
	count := func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.bookmarks)
	}
	if n := count(); n != 2 {
		t.Fatalf("%d bookmark chains for 2 sessions", n)
	}
	a.Close()
	for deadline := time.Now().Add(5 * time.Second); count() != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d bookmark chains after a session closed, want 1", count())
		}
	}
}

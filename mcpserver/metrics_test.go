package mcpserver

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// scrape returns the metrics as Prometheus's text format has them.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	if w.Code != 200 {
		t.Fatalf("metrics: %d %s", w.Code, w.Body)
	}
	return w.Body.String()
}

// TestMetricsCountCallsByOutcomeAndTimeThem: calls that succeed, that the
// agent got wrong, that found no database and that waited past their
// token's limit each count under their outcome and tool, every call is
// timed, the calls running show in flight, and an unknown tool's name
// makes no series; each call has its one log line.
func TestMetricsCountCallsByOutcomeAndTimeThem(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	var calls atomic.Int64
	m := NewMetrics()
	var log strings.Builder
	s, err := New(newEngine(t, helloTool(&calls), blockingTool(started, release)), Options{Metrics: m, CallsPerToken: 1, CallWait: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil)
	call(t, cs, "hello", nil)
	call(t, cs, "hello", nil)
	call(t, cs, "query_entities", map[string]any{"entity_type": "Nope"})
	call(t, cs, "query_entities", map[string]any{"entity_type": "Scope"}) // no driver
	call(t, cs, "no_such_tool", nil)
	done := make(chan struct{})
	go func() { call(t, cs, "wait", nil); close(done) }()
	<-started
	if res := call(t, cs, "hello", nil); !res.IsError {
		t.Fatalf("a call beyond the token's limit: %+v", res)
	}
	text := scrape(t, m)
	close(release)
	<-done
	// Every call has its log line, the refused one too.
	if n := strings.Count(log.String(), "msg=call "); n != 6 || !strings.Contains(log.String(), `msg=call tool=hello error="too many calls at once`) {
		t.Errorf("%d call lines, want 6 (one a call, the one refused at the limit included):\n%s", n, log.String())
	}
	for _, want := range []string{
		`ragforge_tool_calls_total{outcome="ok",tool="hello"} 2`,
		`ragforge_tool_calls_total{outcome="bad_call",tool="query_entities"} 1`,
		`ragforge_tool_calls_total{outcome="internal",tool="query_entities"} 1`,
		`ragforge_tool_calls_total{outcome="busy",tool="hello"} 1`,
		`ragforge_tool_call_duration_seconds_count{tool="hello"} 3`,
		`ragforge_tool_calls_in_flight 1`,
		`ragforge_neo4j_pool_waits_total 0`,
		`go_goroutines `,
		`process_cpu_seconds_total `,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the metrics lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "no_such_tool") {
		t.Errorf("an unknown tool's name is a series:\n%s", text)
	}
	if text := scrape(t, m); !strings.Contains(text, `ragforge_tool_calls_in_flight 0`) || !strings.Contains(text, `ragforge_tool_calls_total{outcome="ok",tool="wait"} 1`) {
		t.Errorf("after the blocked call ended:\n%s", text)
	}
}

// TestMetricsCountTheDriversPoolWaits: with a pool of one connection, a
// transaction holding it makes a second session's borrow wait (counted),
// and with a short acquisition timeout give up (counted too).
func TestMetricsCountTheDriversPoolWaits(t *testing.T) {
	neo4jtest.Open(t)
	set := neo4jtest.ServerSettings(t)
	m := NewMetrics()
	d, err := neo4j.NewDriverWithContext(set.URI, neo4j.BasicAuth(set.User, set.Password, ""), func(c *neo4j.Config) {
		c.MaxConnectionPoolSize = 1
		c.ConnectionAcquisitionTimeout = 300 * time.Millisecond
		c.Log = m.DriverLogger(nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	ctx := t.Context()
	holder := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: set.Database})
	defer holder.Close(ctx)
	tx, err := holder.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close(ctx)
	waiter := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: set.Database})
	defer waiter.Close(ctx)
	if _, err := waiter.Run(ctx, "RETURN 1", nil); err == nil {
		t.Fatal("a second session borrowed from a full pool of one")
	}
	text := scrape(t, m)
	for _, want := range []string{"ragforge_neo4j_pool_waits_total 1", "ragforge_neo4j_pool_wait_timeouts_total 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("the metrics lack %q:\n%s", want, text)
		}
	}
}

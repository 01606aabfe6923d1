package mcpserver

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// get fetches url without a token and returns the status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestReadinessFollowsNeo4jAndDrainingAndAProbeFloodReachesNeo4jOncePerSecond
// serves an engine whose driver reaches the real server through a proxy,
// with tokens: /healthz and /readyz answer without one; /readyz is 200
// while Neo4j answers, 503 while the proxy refuses (after the cached
// answer's second), and 503 from the moment Drain begins, while
// /healthz stays 200. 300 concurrent probes within a second check Neo4j
// once.
func TestReadinessFollowsNeo4jAndDrainingAndAProbeFloodReachesNeo4jOncePerSecond(t *testing.T) {
	e, p := proxiedEngine(t, 2*time.Second)
	s, err := New(e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pings atomic.Int64
	ping := s.ping
	s.ping = func(ctx context.Context) error { pings.Add(1); return ping(ctx) }
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{Tokens: []Token{{Token: "s3cret"}}})
	base := strings.TrimSuffix(url, Path)

	if code, body := get(t, base+HealthPath); code != http.StatusOK || body != "ok\n" {
		t.Errorf("healthz: %d %q", code, body)
	}
	if code, body := get(t, base+ReadyPath); code != http.StatusOK {
		t.Fatalf("readyz with Neo4j answering: %d %q", code, body)
	}
	// The flood, once the cached answer is stale: the first probe checks
	// Neo4j, those within the second after get its answer.
	time.Sleep(readyEvery)
	pings.Store(0)
	var wg sync.WaitGroup
	var bad atomic.Int64
	start := time.Now()
	for range 300 {
		wg.Go(func() {
			if res, err := http.Get(base + ReadyPath); err != nil || res.StatusCode != http.StatusOK {
				bad.Add(1)
			} else {
				res.Body.Close()
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	t.Logf("300 probes in %v reached Neo4j %d time(s)", took.Round(time.Millisecond), pings.Load())
	if max := int64(took/readyEvery) + 1; pings.Load() < 1 || pings.Load() > max || bad.Load() > 0 {
		t.Errorf("300 probes in %v: %d reached Neo4j (want 1 to %d), %d not 200", took, pings.Load(), max, bad.Load())
	}

	if err := p.Set(neo4jtest.Refuse); err != nil {
		t.Fatal(err)
	}
	time.Sleep(readyEvery)
	if code, body := get(t, base+ReadyPath); code != http.StatusServiceUnavailable || !strings.Contains(body, "Neo4j does not answer") {
		t.Errorf("readyz while Neo4j refuses: %d %q", code, body)
	}
	if err := p.Set(neo4jtest.Forward); err != nil {
		t.Fatal(err)
	}
	time.Sleep(readyEvery)
	if code, body := get(t, base+ReadyPath); code != http.StatusOK {
		t.Errorf("readyz once Neo4j answers again: %d %q", code, body)
	}

	// Draining (SIGTERM's first step): not ready, though Neo4j answers.
	if err := s.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, base+ReadyPath); code != http.StatusServiceUnavailable || !strings.Contains(body, "shutting down") {
		t.Errorf("readyz while draining: %d %q", code, body)
	}
	if code, _ := get(t, base+HealthPath); code != http.StatusOK {
		t.Errorf("healthz while draining: %d", code)
	}
}

// TestReadinessWaitsForOptionsReady: while Options.Ready (serve's warm-up
// of the plan cache) returns an error, /readyz answers 503 with it though
// Neo4j answers, and 200 once it returns nil; /healthz is 200 throughout.
func TestReadinessWaitsForOptionsReady(t *testing.T) {
	e, _ := proxiedEngine(t, 2*time.Second)
	var warming atomic.Bool
	warming.Store(true)
	s, err := New(e, Options{Ready: func() error {
		if warming.Load() {
			return errors.New("warming Neo4j's plan cache (3 of 9 statement shapes)")
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveHTTPOnLoopback(t, s, HTTPOptions{})
	base := strings.TrimSuffix(url, Path)
	if code, body := get(t, base+ReadyPath); code != http.StatusServiceUnavailable || body != "not ready: warming Neo4j's plan cache (3 of 9 statement shapes)\n" {
		t.Errorf("readyz while warming: %d %q", code, body)
	}
	if code, _ := get(t, base+HealthPath); code != http.StatusOK {
		t.Errorf("healthz while warming: %d", code)
	}
	warming.Store(false)
	if code, body := get(t, base+ReadyPath); code != http.StatusOK {
		t.Errorf("readyz once warm: %d %q", code, body)
	}
}

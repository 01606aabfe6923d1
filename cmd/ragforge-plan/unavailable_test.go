package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestCallEndsWithinItsTimeoutWhenTheDatabaseIsUnavailable runs `call
// --timeout 2s` through a proxy that refuses, never answers or cuts the
// connections: the command ends within the timeout plus a second, says
// the database is unavailable and to retry, and exits 75 (EX_TEMPFAIL);
// once the proxy forwards again the same command succeeds.
func TestCallEndsWithinItsTimeoutWhenTheDatabaseIsUnavailable(t *testing.T) {
	neo4jtest.Open(t)
	p := neo4jtest.NewProxy(t)
	flags := serverFlags(t)
	flags[slices.Index(flags, "--uri")+1] = p.URI()
	const timeout = 2 * time.Second
	args := append([]string{"call", codeRAG, "--serve-contradicted", "--tool", "query_entities", "--args", `{"entity_type": "Scope", "limit": 3}`,
		"--timeout", timeout.String(), "--stats-store", filepath.Join(t.TempDir(), "usage.json")}, flags...)
	if code, _, errOut := execute(t, args...); code != 0 {
		t.Fatalf("forwarding: exit %d: %s", code, errOut)
	}
	for _, mode := range neo4jtest.UnavailableModes {
		if err := p.Set(mode); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		code, _, errOut := execute(t, args...)
		took := time.Since(start)
		t.Logf("%s: exit %d after %v: %s", mode, code, took.Round(time.Millisecond), strings.TrimSpace(errOut))
		if took > timeout+time.Second {
			t.Errorf("%s: call took %v, more than --timeout %v + 1s", mode, took, timeout)
		}
		if code != exitUnavailable || !strings.Contains(errOut, "the database is unavailable") || !strings.Contains(errOut, "retry") {
			t.Errorf("%s: exit %d: %s; want exit %d saying the database is unavailable and to retry", mode, code, errOut, exitUnavailable)
		}
		if err := p.Set(neo4jtest.Forward); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := execute(t, args...); code != 0 {
			t.Errorf("forwarding again after %s: exit %d: %s", mode, code, errOut)
		}
	}
}

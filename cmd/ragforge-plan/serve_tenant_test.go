package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

const memoryGraph = "../../testdata/configs/valid/memory-graph.yaml"

// TestServeOverHTTPRunsEachTokensCallsUnderItsTenant: two users of one
// server write the same person through the official MCP client, each with
// their own token, and each reads back only their own.
func TestServeOverHTTPRunsEachTokensCallsUnderItsTenant(t *testing.T) {
	node := requireClient(t)
	bin := buildCommand(t)
	neo4jtest.Open(t)
	tokens := filepath.Join(t.TempDir(), "tokens.yaml")
	if err := os.WriteFile(tokens, []byte("- {token: alice-s3cret, tenant: alice}\n- {token: bob-s3cret, tenant: bob}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startHTTPServerFor(t, bin, memoryGraph, append([]string{"--tokens", tokens}, neo4jtest.Flags(t)...)...)
	call := func(name string, args map[string]any) map[string]any {
		return map[string]any{"op": "call", "name": name, "arguments": args}
	}
	for _, user := range []string{"alice", "bob"} {
		steps := []any{
			call("create_person", map[string]any{"name": "Ada of " + user, "canonical_name": "ada", "source": "mcp", "confidence": 1}),
			call("query_entities", map[string]any{"entity_type": "Person"}),
		}
		code, out := runClient(t, node, steps, "http", s.url, user+"-s3cret")
		if code != 0 {
			t.Fatalf("%s: client exit %d: %s", user, code, out)
		}
		var got []clientStep
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 2 || got[0].IsError || got[1].IsError {
			t.Fatalf("%s: %v %s", user, err, out)
		}
		other := map[string]string{"alice": "bob", "bob": "alice"}[user]
		if !strings.Contains(got[1].Text, "Ada of "+user) || strings.Contains(got[1].Text, "Ada of "+other) || strings.Contains(got[1].Text, "user_id") {
			t.Errorf("%s's query_entities: %s", user, got[1].Text)
		}
	}
}

// TestServeOfATenantScopedConfigNeedsATenantForEveryCaller: stdio needs
// --tenant, and over HTTP every token names its tenant.
func TestServeOfATenantScopedConfigNeedsATenantForEveryCaller(t *testing.T) {
	code, _, errOut := execute(t, "serve", memoryGraph)
	if code != 2 || !strings.Contains(errOut, "give --tenant") {
		t.Errorf("stdio without --tenant: exit %d: %s", code, errOut)
	}
	tokens := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(tokens, []byte(`[{"token": "a", "tenant": "alice"}, {"token": "b"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = execute(t, "serve", memoryGraph, "--transport", "http", "--tokens", tokens)
	if code != 1 || !strings.Contains(errOut, "token 2 is bound to no tenant") {
		t.Errorf("http with an unbound token: exit %d: %s", code, errOut)
	}
}

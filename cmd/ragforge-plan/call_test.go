package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// serverFlags returns the connection flags of the test server (the vet
// tests share it).
func serverFlags(t *testing.T) []string { return neo4jtest.Flags(t) }

func TestCallRunsAToolCallOnNeo4j(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(1, 30) AS i CREATE (:Scope {uuid: 'u' + i, name: 'Parse' + i, type: 'function', startLine: 1, endLine: i})`, nil)
	flags := serverFlags(t)
	args := append([]string{"call", codeRAG, "--tool", "query_entities", "--format", "json",
		"--args", `{"entity_type":"Scope","order_by":{"field":"line_count","direction":"DESC"},"limit":3}`}, flags...)
	code, out, errOut := execute(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Entities []struct {
			ID       string         `json:"id"`
			Computed map[string]any `json:"computed"`
		} `json:"entities"`
		Count     int  `json:"count"`
		Truncated bool `json:"truncated"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if res.Count != 3 || !res.Truncated || res.Entities[0].ID != "u30" || res.Entities[0].Computed["line_count"] != float64(30) {
		t.Errorf("result:\n%s", out)
	}
	// A bad call exits 1 with the problems; a missing server exits 75
	// (unavailable: retry).
	args = append([]string{"call", codeRAG, "--tool", "query_entities", "--args", `{"entity_type":"Scope","limit":0}`}, flags...)
	if code, _, errOut := execute(t, args...); code != 1 || !strings.Contains(errOut, "/limit") {
		t.Errorf("bad call: exit %d, stderr %s", code, errOut)
	}
	if code, _, _ := execute(t, "call", codeRAG, "--tool", "query_entities", "--uri", "bolt://127.0.0.1:1"); code != exitUnavailable {
		t.Errorf("unreachable server: exit %d, want %d", code, exitUnavailable)
	}
	if code, _, _ := execute(t, "call", codeRAG, "--tool", "query_entities", "--timeout", "-1s"); code != 2 {
		t.Errorf("negative timeout: exit %d, want 2", code)
	}
}

// TestCallCountsTheResultsOfAHandlerTool: traverse's answer counts its
// own rows, and call's summary says so (it said "0 result(s)" above 5
// rows); an answer without a count says done.
func TestCallCountsTheResultsOfAHandlerTool(t *testing.T) {
	neo4jtest.Open(t)
	args := append([]string{"call", memoryGraph, "--tenant", "alice", "--tool", "traverse", "--args", `{"cypher": "UNWIND range(1, 5) AS i RETURN i"}`}, serverFlags(t)...)
	code, out, errOut := execute(t, args...)
	if code != 0 || !strings.Contains(out, `"count": 5`) || !strings.HasPrefix(errOut, "5 result(s) in ") {
		t.Errorf("exit %d: %s\n%s", code, out, errOut)
	}
	if got := counted([]byte(`{"entity_key": "k", "message": "Created"}`)); got != "done" {
		t.Errorf("an answer without a count: %q", got)
	}
}

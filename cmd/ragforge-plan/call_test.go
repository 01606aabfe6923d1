package main

import (
	"encoding/json"
	"math"
	"reflect"
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
	// The graph holds only Scopes: the config's other parts are absent.
	args := append([]string{"call", codeRAG, "--serve-contradicted", "--tool", "query_entities", "--format", "json",
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
	args = append([]string{"call", codeRAG, "--serve-contradicted", "--tool", "query_entities", "--args", `{"entity_type":"Scope","limit":0}`}, flags...)
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

// TestCallSaysWhatItCannotEncode: a value JSON has no number for (NaN,
// infinite) exits 1 with where it is on stderr and prints nothing on
// stdout, in every command's JSON output (writeJSON); no tool gives one
// any more (TestCallAnswersNaNAndEmptyAnalyticsInJSON), so the value is
// given here directly.
func TestCallSaysWhatItCannotEncode(t *testing.T) {
	var out, errOut strings.Builder
	code := writeJSON("call", &out, &errOut, map[string]any{"modularity": math.NaN()})
	if code != 1 || out.Len() != 0 || !strings.Contains(errOut.String(), "ragforge-plan call: writing the output: cannot encode as JSON: the value at .modularity is NaN") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestCallAnswersNaNAndEmptyAnalyticsInJSON: the two answers a user got
// as `json: unsupported value: NaN` (over MCP) or an empty line and exit
// 0 (call) on a code graph of Scopes without CALLS or DEPENDS_ON: run_cypher
// returning NaN and the infinities answers them as Cypher's words, and
// both analytics tools exit 1 saying which relationships to load.
func TestCallAnswersNaNAndEmptyAnalyticsInJSON(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.RequireGDS(t, d)
	neo4jtest.Run(t, d, `UNWIND range(1, 5) AS i CREATE (:File {path: 'f.go'})-[:CONTAINS]->(:Scope {uuid: 'u' + i, name: 'F' + i, type: 'function', file: 'f.go'})`, nil)
	flags := serverFlags(t)
	for _, f := range []string{"json", "text"} {
		code, out, errOut := execute(t, append([]string{"call", codeRAG, "--serve-contradicted", "--raw-cypher", "--tool", "run_cypher", "--format", f,
			"--args", `{"query": "RETURN 0.0/0.0 AS nan, 1.0/0.0 AS inf, [-1.0/0.0] AS ninf"}`}, flags...)...)
		var res struct {
			Rows []map[string]any `json:"rows"`
		}
		if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || len(res.Rows) != 1 {
			t.Fatalf("run_cypher --format %s: exit %d (%v), stdout %q, stderr %q", f, code, err, out, errOut)
		}
		if r := res.Rows[0]; r["nan"] != "NaN" || r["inf"] != "Infinity" || !reflect.DeepEqual(r["ninf"], []any{"-Infinity"}) {
			t.Errorf("run_cypher --format %s: %v", f, r)
		}
	}
	for _, tool := range []string{"find_important_scope", "find_scope_clusters"} {
		code, out, errOut := execute(t, append([]string{"call", codeRAG, "--serve-contradicted", "--tool", tool}, flags...)...)
		if code != 1 || out != "" || !strings.Contains(errOut, "the 5 Scope nodes in the graph have no CALLS or DEPENDS_ON relationship between them") ||
			!strings.Contains(errOut, "load relationships of type CALLS, DEPENDS_ON between Scope nodes") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tool, code, out, errOut)
		}
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

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const codeRAG = "../../testdata/configs/valid/code-rag.yaml"

func TestExplainPrintsCypherAndParamsAsJSON(t *testing.T) {
	code, out, errOut := execute(t, "explain", codeRAG, "--tool", "query_entities",
		"--args", `{"entity_type":"Scope","conditions":[{"field":"name","operator":"=","value":"x' OR 1=1 //"}]}`, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Cypher string         `json:"cypher"`
		Params map[string]any `json:"params"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(got.Cypher, "MATCH (n:`Scope`)") || strings.Contains(got.Cypher, "OR 1=1") {
		t.Errorf("cypher:\n%s", got.Cypher)
	}
	if got.Params["p0"] != "x' OR 1=1 //" {
		t.Errorf("params: %v", got.Params)
	}
}

func TestExplainTextShowsTheGoSideFilter(t *testing.T) {
	code, out, errOut := execute(t, "explain", "--tool", "text_pattern_search", codeRAG,
		"--args", `{"entity_type":"File","field":"path","pattern":"**/internal/**/*_test.go","mode":"glob"}`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "then matched in Go: glob") || !strings.Contains(out, "params:") {
		t.Errorf("output:\n%s", out)
	}
}

func TestExplainBadCallExitsOneWithTheValidChoices(t *testing.T) {
	code, out, _ := execute(t, "explain", codeRAG, "--tool", "query_entities", "--args", `{"entity_type":"Scop"}`, "--format", "json")
	if code != 1 || !strings.Contains(out, `"valid"`) || !strings.Contains(out, `"Scope"`) {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	code, _, errOut := execute(t, "explain", codeRAG, "--tool", "no_such_tool")
	if code != 1 || !strings.Contains(errOut, "unknown tool") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestExplainUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"explain"},
		{"explain", codeRAG},
		{"explain", codeRAG, "--tool", "query_entities", "--format", "yaml"},
		{"explain", "--bogus"},
	} {
		if code, _, _ := execute(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestExplainMaterializedReadsTheCacheProperty(t *testing.T) {
	args := []string{"explain", codeRAG, "--tool", "query_entities", "--args", `{"entity_type":"Scope","order_by":{"field":"line_count","direction":"DESC"}}`}
	_, runtime, _ := execute(t, args...)
	code, stored, errOut := execute(t, append(args, "--materialized", "Scope.line_count")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(runtime, "AS `cf_line_count`") || strings.Contains(stored, "cf_line_count") || !strings.Contains(stored, "n.`line_count` IS NOT NULL") {
		t.Errorf("runtime:\n%s\nmaterialized:\n%s", runtime, stored)
	}
	if code, _, _ := execute(t, append(args, "--materialized", "Scope.name")...); code != 2 {
		t.Errorf("a stored field as --materialized: exit %d, want 2", code)
	}
}

// A tenant config's statements are explainable: run_cypher, which such a
// config never offers, is left out instead of failing the command, and
// the statement shows the tenant parameter it is scoped by.
func TestExplainATenantConfigShowsTheTenantParameter(t *testing.T) {
	code, out, errOut := execute(t, "explain", "../../testdata/configs/valid/memory-graph.yaml", "--tool", "query_entities",
		"--args", `{"entity_type":"Person"}`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "$tenant") || !strings.Contains(out, `"tenant": null`) {
		t.Errorf("output:\n%s", out)
	}
	code, _, errOut = execute(t, "explain", "../../testdata/configs/valid/memory-graph.yaml", "--tool", "run_cypher", "--args", `{"cypher":"RETURN 1"}`)
	if code != 1 || !strings.Contains(errOut, "traverse") {
		t.Errorf("run_cypher on a tenant config: exit %d, stderr:\n%s", code, errOut)
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

const scopesConfig = "../../testdata/materialize/scopes.yaml"

// TestMain points the default usage store at a temporary file, so that
// tests of `call` never write .ragforge/ into the source tree.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ragforge-plan-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv(envStatsStore, filepath.Join(dir, "usage.json"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// usageFile writes a usage export with n order uses of Scope.line_count
// today.
func usageFile(t *testing.T, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "usage.json")
	day := time.Now().UTC().Format("2006-01-02")
	data := fmt.Sprintf(`{"version": 1, "counts": [{"day": %q, "entity": "Scope", "field": "line_count", "kind": "order", "n": %d}]}`, day, n)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlanDecidesFromAUsageExportWithoutAServer(t *testing.T) {
	t.Setenv("NEO4J_URI", "")
	code, out, errOut := execute(t, "plan", scopesConfig, "--format", "json", "--stats", usageFile(t, 1204))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var report planReport
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	lc := report.ComputedFields[0]
	if lc.Name != "line_count" || lc.Decision != "materialize" || lc.State != "unknown" || lc.Mode != "runtime" || lc.Uses.Order != 1204 || lc.Nodes != -1 ||
		!strings.Contains(lc.Reason, "line_count: 1,204 order uses in 7 days ≥ 5; Scope node count unknown") {
		t.Errorf("line_count: %+v", lc)
	}
	if cc := report.ComputedFields[2]; cc.Decision != "runtime" || !strings.Contains(cc.Reason, "0 filter or order uses in 7 days < 5") {
		t.Errorf("change_count: %+v", cc)
	}
	code, out, _ = execute(t, "plan", scopesConfig, "--stats", usageFile(t, 3))
	if code != 0 || !strings.Contains(out, "decision: line_count: 3 order uses in 7 days < 5 → runtime") || !strings.Contains(out, "unknown") {
		t.Errorf("text plan:\n%s", out)
	}
	if code, _, errOut := execute(t, "plan", scopesConfig, "--stats", filepath.Join(t.TempDir(), "missing.json")); code != 1 || !strings.Contains(errOut, "usage counts") {
		t.Errorf("missing --stats file: exit %d, %s", code, errOut)
	}
}

func TestMaterializeCommandsApplyVerifyRefreshAndDrop(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(1, 60) AS i CREATE (:Scope {uuid: 'u' + i, name: 'f' + i, type: 'function', file: 'a.go', startLine: 1, endLine: i * 3})`, nil)
	flags := neo4jtest.Flags(t)
	stats := usageFile(t, 50)
	run := func(want int, args ...string) string {
		t.Helper()
		code, out, errOut := execute(t, append(append([]string{"materialize"}, args...), flags...)...)
		if code != want {
			t.Fatalf("materialize %v: exit %d, want %d\nstdout: %s\nstderr: %s", args, code, want, out, errOut)
		}
		return out
	}
	var lines struct {
		Fields []map[string]any `json:"fields"`
	}
	decode := func(s string) []map[string]any {
		t.Helper()
		lines.Fields = nil
		if err := json.Unmarshal([]byte(s), &lines); err != nil {
			t.Fatalf("%v\n%s", err, s)
		}
		return lines.Fields
	}
	plan := decode(run(0, "plan", scopesConfig, "--stats", stats, "--format", "json"))
	if plan[0]["name"] != "line_count" || plan[0]["action"] != "write" || plan[0]["state"] != "none" || plan[2]["action"] != "none" {
		t.Errorf("plan: %v", plan)
	}
	applied := decode(run(0, "apply", scopesConfig, "--stats", stats, "--format", "json", "--batch-size", "25"))
	if applied[0]["action"] != "materialized" || applied[0]["rows"] != float64(60) {
		t.Errorf("apply: %v", applied)
	}
	status := decode(run(0, "status", scopesConfig, "--format", "json"))
	if status[0]["status"] != "ready" || status[0]["rows"] != float64(60) || status[0]["readable"] != true || status[2]["status"] != "none" {
		t.Errorf("status: %v", status)
	}
	verify := decode(run(0, "verify", scopesConfig, "--format", "json"))
	if len(verify) != 1 || verify[0]["drift"] != float64(0) {
		t.Errorf("verify: %v", verify)
	}
	// The top-level plan now shows the state from the server.
	code, out, errOut := execute(t, append([]string{"plan", scopesConfig, "--format", "json", "--stats", stats}, flags...)...)
	var report planReport
	if code != 0 || json.Unmarshal([]byte(out), &report) != nil {
		t.Fatalf("plan: exit %d %s", code, errOut)
	}
	if lc := report.ComputedFields[0]; lc.State != "ready" || lc.Mode != "materialized" || lc.Nodes != 60 || !strings.Contains(lc.Reason, "(keep)") {
		t.Errorf("plan with a server: %+v", lc)
	}
	// A write outside ragforge is drift: verify exits 1; refresh fixes it.
	neo4jtest.Run(t, d, "MATCH (s:Scope {uuid: 'u5'}) SET s.endLine = 999", nil)
	if verify := decode(run(1, "verify", scopesConfig, "--format", "json", "--field", "Scope.line_count")); verify[0]["drift"] != float64(1) {
		t.Errorf("verify after a write: %v", verify)
	}
	run(0, "refresh", scopesConfig)
	run(0, "verify", scopesConfig)
	// A second apply while the lock is held is refused.
	neo4jtest.Run(t, d, "CREATE (:_RagforgeLock {name: 'materialize', token: 't', owner: 'another host pid 1', acquired_at: datetime(), heartbeat: datetime()})", nil)
	code, _, errOut = execute(t, append([]string{"materialize", "apply", scopesConfig, "--stats", stats}, flags...)...)
	if code != 1 || !strings.Contains(errOut, "held by another host pid 1") {
		t.Errorf("apply under a lock: exit %d, %s", code, errOut)
	}
	neo4jtest.Run(t, d, "MATCH (l:_RagforgeLock) DELETE l", nil)
	dropped := decode(run(0, "drop", scopesConfig, "--format", "json", "--grace", "0"))
	if len(dropped) != 1 || dropped[0]["action"] != "dropped" {
		t.Errorf("drop: %v", dropped)
	}
	if status := decode(run(0, "status", scopesConfig, "--format", "json")); status[0]["status"] != "none" {
		t.Errorf("status after drop: %v", status)
	}
	// Usage errors.
	if code, _, _ := execute(t, "materialize", "frobnicate", scopesConfig); code != 2 {
		t.Errorf("unknown subcommand: exit %d", code)
	}
	if code, _, errOut := execute(t, append([]string{"materialize", "apply", scopesConfig, "--field", "Scope.nope"}, flags...)...); code != 1 || !strings.Contains(errOut, "not a computed field") {
		t.Errorf("unknown --field: exit %d %s", code, errOut)
	}
}

func TestCallRecordsUsesThatStatsExports(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(1, 5) AS i CREATE (:Scope {uuid: 'u' + i, name: 'f' + i, type: 'function', file: 'a.go', startLine: 1, endLine: i})`, nil)
	flags := neo4jtest.Flags(t)
	store := filepath.Join(t.TempDir(), "usage.json")
	for range 3 {
		args := append([]string{"call", scopesConfig, "--serve-contradicted", "--stats-store", store, "--tool", "query_entities",
			"--args", `{"entity_type":"Scope","order_by":{"field":"line_count","direction":"DESC"},"limit":2}`}, flags...)
		if code, _, errOut := execute(t, args...); code != 0 {
			t.Fatalf("call: exit %d %s", code, errOut)
		}
	}
	code, out, errOut := execute(t, "stats", "export", "--stats-store", store)
	if code != 0 {
		t.Fatalf("export: exit %d %s", code, errOut)
	}
	if !strings.Contains(out, `"field": "line_count",`) || !strings.Contains(out, `"kind": "order",`) || !strings.Contains(out, `"n": 3`) {
		t.Errorf("export:\n%s", out)
	}
	// Import into the shared Neo4j store; counts add up.
	exp := filepath.Join(t.TempDir(), "export.json")
	os.WriteFile(exp, []byte(out), 0o644)
	for range 2 {
		if code, _, errOut := execute(t, append([]string{"stats", "import", exp, "--stats-store", "neo4j"}, flags...)...); code != 0 {
			t.Fatalf("import: exit %d %s", code, errOut)
		}
	}
	code, out, _ = execute(t, append([]string{"stats", "export", "--stats-store", "neo4j"}, flags...)...)
	if code != 0 || !strings.Contains(out, `"n": 6`) {
		t.Errorf("neo4j export: exit %d\n%s", code, out)
	}
}

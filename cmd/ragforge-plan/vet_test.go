package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/history/historytest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// execute runs the command in-process and returns its exit code and output.
func execute(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVetSummarizesAValidConfig(t *testing.T) {
	// Without a server: a NEO4J_URI in the shell would check the config
	// against whatever graph it names.
	t.Setenv("NEO4J_URI", "")
	code, out, errOut := execute(t, "vet", "../../testdata/configs/valid/code-rag.yaml", "--embedder", "offline")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"ok: 5 entities, 27 fields, 5 computed fields, 13 relationships;", "query_entities", "semantic_search", "aggregate_entities"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary %q lacks %q", out, want)
		}
	}
}

func TestVetReportsEveryProblemWithExitCode1(t *testing.T) {
	code, out, errOut := execute(t, "vet", "../../testdata/configs/invalid/many-problems.yaml")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if n := strings.Count(errOut, "many-problems.yaml:"); n != 4 || !strings.Contains(errOut, "4 problem(s)") {
		t.Errorf("want 4 positioned problems, got:\n%s", errOut)
	}
}

func TestVetJSONListsErrorsForMachines(t *testing.T) {
	code, out, _ := execute(t, "vet", "--format", "json", "../../testdata/configs/invalid/unique-field-unknown.yaml")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var r vetReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if r.OK || len(r.Errors) != 1 || r.Errors[0].Line != 4 || r.Errors[0].Path != "entities.0.unique_field" {
		t.Errorf("report = %+v", r)
	}
}

func TestVetRejectsBadUsageWithExitCode2(t *testing.T) {
	for _, args := range [][]string{{"vet"}, {"vet", "--format", "xml", "x.yaml"}, {"nope"}} {
		if code, _, _ := execute(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestVetWithAServerRejectsAWritingCypherField(t *testing.T) {
	neo4jtest.Open(t)
	server := serverFlags(t)
	data, err := os.ReadFile("../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	writing := strings.Replace(string(data), "RETURN count(c) AS change_count", "SET c.touched = true RETURN count(c) AS change_count", 1)
	path := filepath.Join(t.TempDir(), "writing.yaml")
	if err := os.WriteFile(path, []byte(writing), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := execute(t, append(append([]string{"vet"}, server...), "../../testdata/configs/valid/code-rag.yaml")...); code != 0 {
		t.Fatalf("valid config rejected with a server: exit %d %s %s", code, out, errOut)
	}
	code, _, errOut := execute(t, append(append([]string{"vet"}, server...), path)...)
	if code != 1 || !strings.Contains(errOut, "writing.yaml:66:9: cypher:") || !strings.Contains(errOut, "read-only") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestVetReportsEveryKindOfProblemAtOnce(t *testing.T) {
	code, _, errOut := execute(t, "vet", "../../testdata/configs/invalid/every-problem-at-once.yaml")
	if code != 1 || !strings.Contains(errOut, "7 problem(s)") {
		t.Fatalf("exit %d, want 7 problems:\n%s", code, errOut)
	}
	for _, want := range []string{"unknown key", "is not a boolean", "unknown type", "invalid operation", "dependency cycle", "cache_property:", "closes nothing"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("vet output lacks %q:\n%s", want, errOut)
		}
	}
}

// TestVetWithAServerReportsACypherFieldCallingAnUnknownProcedureAndGoesOn:
// a cypher: field calling a procedure the server lacks is reported at its
// position like any field that does not compile, and vet goes on to check
// the other cypher: field (which writes) and the graph (a stored type that
// differs from the config's).
func TestVetWithAServerReportsACypherFieldCallingAnUnknownProcedureAndGoesOn(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE (:Scope {uuid: 'u1', name: 'F', startLine: 'one', endLine: 2})", nil)
	server := serverFlags(t)
	data, err := os.ReadFile("../../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(data), "OPTIONAL MATCH (n)-[:HAS_CHANGE]->(c:Change)\n          RETURN max(c.timestamp) AS modified_at",
		"CALL nope.missing(n) YIELD at\n          RETURN max(at) AS modified_at", 1)
	cfg = strings.Replace(cfg, "RETURN count(c) AS change_count", "SET c.touched = true RETURN count(c) AS change_count", 1)
	path := filepath.Join(t.TempDir(), "unknown-procedure.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := execute(t, append(append([]string{"vet"}, server...), path)...)
	for _, want := range []string{
		"unknown-procedure.yaml:60:9: cypher: cypher does not compile: There is no procedure with the name `nope.missing`",
		"unknown-procedure.yaml:66:9: cypher: cypher must be a read",
		"unknown-procedure.yaml:38:9: type: startLine is declared integer",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if code != 1 || strings.Contains(errOut, "readonly:") || t.Failed() {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// TestVetWithAServerPassesTheCodeRAGConfigOnAFreshFixtureLoad holds the
// code-RAG config to the graph the project's own loader builds: every
// label, property and relationship it declares is there (CALLS and
// DEPENDS_ON to both targets included), except the change history that no
// `history import` has recorded yet, which vet names as such and lets
// pass.
func TestVetWithAServerPassesTheCodeRAGConfigOnAFreshFixtureLoad(t *testing.T) {
	d := neo4jtest.Open(t)
	fixturetest.LoadNetHTTP(t, d)
	code, out, errOut := execute(t, append(append([]string{"vet"}, serverFlags(t)...), "../../testdata/configs/valid/code-rag.yaml")...)
	if code != 0 {
		t.Fatalf("code-rag.yaml on a fresh net/http load: exit %d\n%s%s", code, out, errOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
		if !strings.Contains(line, ": warning: ") {
			t.Errorf("not a warning: %s", line)
			continue
		}
		if strings.Contains(line, "Change") && !strings.Contains(line, "no change is recorded yet") {
			t.Errorf("a warning about the change history that does not say it is not recorded yet: %s", line)
		}
	}
	for _, want := range []string{"warning: no relationship has the type HAS_CHANGE: no change is recorded yet",
		"warning: no node has the label Change: no change is recorded yet"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("no %q in\n%s", want, errOut)
		}
	}
	for _, absent := range []string{"CALLS", "DEPENDS_ON", "ExternalLibrary"} {
		if strings.Contains(errOut, absent) {
			t.Errorf("vet reports %s:\n%s", absent, errOut)
		}
	}
}

// TestVetWithAServerPassesTheCodeRAGConfigAfterAHistoryImport: after
// `fixture load` and `history import` of a repository, every part of the
// code-RAG config is in the graph, HAS_CHANGE's order property included,
// so vet has nothing to say about the change history.
func TestVetWithAServerPassesTheCodeRAGConfigAfterAHistoryImport(t *testing.T) {
	d := neo4jtest.Open(t)
	at := time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC)
	dir, _ := historytest.BuildFrom(t, []historytest.Commit{
		{Subject: "start", Author: "Ada", Time: at, Files: map[string]string{
			"go.mod":   "module example.com/demo\n\ngo 1.22\n",
			"sub/s.go": "package sub\n\nfunc S() string {\n\treturn \"s\"\n}\n",
			"a.go":     "package demo\n\nimport (\n\t\"strings\"\n\n\t\"example.com/demo/sub\"\n)\n\ntype T struct{}\n\nfunc (T) M() string {\n\treturn strings.ToUpper(Name)\n}\n\nvar Name = sub.S()\n\nfunc F() string {\n\treturn T{}.M()\n}\n",
		}},
		{Subject: "change F", Author: "Bo", Time: at.Add(time.Hour), Files: map[string]string{
			"a.go": "package demo\n\nimport (\n\t\"strings\"\n\n\t\"example.com/demo/sub\"\n)\n\ntype T struct{}\n\nfunc (T) M() string {\n\treturn strings.ToUpper(Name)\n}\n\nvar Name = sub.S()\n\nfunc F() string {\n\treturn T{}.M() + \"!\"\n}\n",
		}},
	})
	historytest.Load(t, d, dir)
	if code, _, errOut := execute(t, append([]string{"history", "import", "--git", dir, codeRAG}, neo4jtest.Flags(t)...)...); code != 0 {
		t.Fatalf("history import: exit %d\n%s", code, errOut)
	}
	code, out, errOut := execute(t, append(append([]string{"vet"}, serverFlags(t)...), codeRAG)...)
	if code != 0 {
		t.Fatalf("code-rag.yaml after a history import: exit %d\n%s%s", code, out, errOut)
	}
	for _, absent := range []string{"HAS_CHANGE", "no change is recorded", "order"} {
		if strings.Contains(errOut, absent) {
			t.Errorf("vet reports %s after a history import:\n%s", absent, errOut)
		}
	}
}

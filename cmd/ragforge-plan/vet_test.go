package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	code, out, errOut := execute(t, "vet", "../../testdata/configs/valid/code-rag.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"ok: 5 entities, 21 fields, 5 computed fields, 12 relationships;", "query_entities", "semantic_search"} {
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

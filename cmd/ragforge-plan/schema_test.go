package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

func TestVetWithAServerReportsMisspeltNamesAtTheirLines(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (f:File {path: 'a.go'})-[:CONTAINS {order: 1}]->(s:Scope {uuid: 'u1', name: 'F', startLine: 1, endLine: 9, tags: ['x'],
		changed: 1732300000000, seen: '2024-05-01T10:00:00Z'})`, nil)
	code, out, errOut := execute(t, append([]string{"vet", "../../internal/graphschema/schemacheck/testdata/misspelt.yaml"}, neo4jtest.Flags(t)...)...)
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"misspelt.yaml:8:9: name: no Scope node has the property startLin, so filters on it match nothing; did you mean startLine?",
		"misspelt.yaml:10:9: type: tags is declared string but every Scope node holds it as StringArray",
		"misspelt.yaml:14:9: type: no relationship has the type CONTAINZ, so explore_relationships finds nothing through it; did you mean CONTAINS?",
		"misspelt.yaml:18:5: name: no node has the label Fil, so every tool returns nothing for it; did you mean File?",
		"misspelt.yaml:30:13: name: no CONTAINS relationship has the property ordr",
		"misspelt.yaml:7:9: warning: Scope.name is declared indexed but the graph has no RANGE or TEXT index on it",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	_, out, _ = execute(t, append([]string{"vet", "../../internal/graphschema/schemacheck/testdata/misspelt.yaml", "--format", "json"}, neo4jtest.Flags(t)...)...)
	var r vetReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(r.Errors) == 0 || r.Errors[0].Line != 8 || r.Errors[0].Path != "entities.0.searchable_fields.2.name" ||
		len(r.Warnings) == 0 || r.Warnings[1].Line != 7 || !strings.Contains(r.Warnings[1].Message, "no RANGE or TEXT index") {
		t.Errorf("JSON report: %+v", r)
	}
}

// schemaApplyJSON runs `schema apply --format json` and decodes its report.
func schemaApplyJSON(t *testing.T, config string) schemaApplyReport {
	t.Helper()
	code, out, errOut := execute(t, append([]string{"schema", "apply", config, "--format", "json"}, neo4jtest.Flags(t)...)...)
	var r schemaApplyReport
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\nstdout: %s\nstderr: %s", code, err, out, errOut)
	}
	return r
}

func TestSchemaApplyTwiceCreatesOnceAndEndsOnline(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(1, 2000) AS i CREATE (:Scope {uuid: 'u' + i, name: 'f' + i, file: 'a.go', type: 'function'})`, nil)
	config := "../../testdata/configs/valid/code-rag.yaml"
	first := schemaApplyJSON(t, config)
	second := schemaApplyJSON(t, config)
	if !first.OK || first.Created == 0 || first.Conflicts != 0 {
		t.Errorf("first apply: %+v", first)
	}
	if !second.OK || second.Created != 0 || second.Existing != len(first.Items) {
		t.Errorf("second apply: %+v", second)
	}
	for _, o := range append(first.Items, second.Items...) {
		if o.State != "ONLINE" {
			t.Errorf("%s ended %s", o.Item, o.State)
		}
	}
	// Only the data's own gaps remain: vet has no index warning left, and
	// a label that only a constraint names is still not in the graph.
	_, _, errOut := execute(t, append([]string{"vet", config}, neo4jtest.Flags(t)...)...)
	if strings.Contains(errOut, "schema apply") || !strings.Contains(errOut, "no node has the label File") {
		t.Errorf("vet after apply:\n%s", errOut)
	}
}

func TestInitDraftsTheFixtureAsAConfigThatVetsClean(t *testing.T) {
	fixturetest.LoadNetHTTP(t, neo4jtest.Open(t))
	path := filepath.Join(t.TempDir(), "draft.yaml")
	if code, _, errOut := execute(t, append([]string{"init", "-o", path}, neo4jtest.Flags(t)...)...); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	if code, _, _ := execute(t, append([]string{"init", "-o", path}, neo4jtest.Flags(t)...)...); code != 1 {
		t.Errorf("init overwrote %s: exit %d", path, code)
	}
	draft, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"name: Directory", "name: ExternalLibrary", "name: File", "name: Scope", "type: CONTAINS", "type: IMPORTS"} {
		if !strings.Contains(string(draft), want) {
			t.Errorf("draft lacks %q:\n%s", want, draft)
		}
	}
	code, out, errOut := execute(t, append([]string{"vet", path}, neo4jtest.Flags(t)...)...)
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "ok: 4 entities") {
		t.Errorf("vet of the draft: exit %d\nstdout: %s\nstderr: %s\ndraft:\n%s", code, out, errOut, draft)
	}
}

func TestSchemaAndInitRejectBadUsageWithExitCode2(t *testing.T) {
	for _, args := range [][]string{{"schema"}, {"schema", "apply"}, {"schema", "drop", "x.yaml"}, {"init", "x.yaml"}, {"init", "--enum-max", "x"}} {
		if code, _, _ := execute(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

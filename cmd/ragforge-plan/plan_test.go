package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlanJSONListsEveryComputedFieldWithItsFragment(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"plan", "../../testdata/configs/valid/code-rag.yaml", "--format", "json"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var report planReport
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	byName := map[string]planField{}
	for _, f := range report.ComputedFields {
		byName[f.Entity+"."+f.Name] = f
	}
	if f := byName["Scope.is_large"]; f.RuntimeCypher != "((((n.`endLine` - n.`startLine`) + 1)) > 100)" || f.DependsOn[0] != "line_count" {
		t.Errorf("is_large = %+v", f)
	}
	if f := byName["Scope.age_days"]; len(f.RuntimeSubqueries) != 1 || !strings.HasPrefix(f.RuntimeSubqueries[0], "CALL (n) {") {
		t.Errorf("age_days = %+v", f)
	}
	if len(report.ComputedFields) != 5 {
		t.Errorf("%d computed fields, want 5", len(report.ComputedFields))
	}
}

func TestPlanExitCodes(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("entities:\n  - name: T\n    unique_field: a\n    searchable_fields:\n      - {name: a, type: integer}\n    computed_fields:\n      - name: f\n        type: integer\n        expression: b + 1\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"plan"}, 2, "usage"},
		{[]string{"plan", "--format", "xml", bad}, 2, "unknown format \"xml\""},
		{[]string{"plan", bad}, 1, `bad.yaml:9:21: f: unknown name "b"`},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), tc.args, &out, &errOut); code != tc.code || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut.String(), tc.code, tc.want)
		}
	}
}

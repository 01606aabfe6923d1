package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestToolsPrintsAReadableListingByDefault(t *testing.T) {
	code, out, errOut := execute(t, "tools", "../../testdata/configs/valid/code-rag.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"query_entities [query, read-only]", "*entity_type", "- Scope (uuid): ", "tools for 5 entities"} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q", want)
		}
	}
}

func TestToolsPrintsOneJSONArrayPerFormatWithFlagsAfterTheConfig(t *testing.T) {
	for _, tc := range []struct{ format, key string }{
		{"mcp", "inputSchema"}, {"openai", "function"}, {"anthropic", "input_schema"}, {"gemini", "parameters"}, {"json", "category"},
	} {
		code, out, errOut := execute(t, "tools", "../../testdata/configs/valid/code-rag.yaml", "--format", tc.format, "--no-aggregations")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.format, code, errOut)
		}
		var arr []map[string]any
		if err := json.Unmarshal([]byte(out), &arr); err != nil {
			t.Fatalf("%s: not a JSON array: %v", tc.format, err)
		}
		if len(arr) == 0 || arr[0][tc.key] == nil {
			t.Errorf("%s: first tool lacks %q: %v", tc.format, tc.key, arr)
		}
		if strings.Contains(out, "aggregate_entities") {
			t.Errorf("%s: --no-aggregations after the config was ignored", tc.format)
		}
	}
}

func TestToolsRejectsAnUnknownFormatListingTheValidOnes(t *testing.T) {
	code, _, errOut := execute(t, "tools", "../../testdata/configs/valid/code-rag.yaml", "--format", "xml")
	if code != 2 || !strings.Contains(errOut, "mcp, openai, anthropic, gemini, json") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestToolsReportsConfigErrorsWithExitCode1(t *testing.T) {
	code, _, errOut := execute(t, "tools", "../../testdata/configs/invalid/many-problems.yaml")
	if code != 1 || errOut == "" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/retrievaleval"
)

func TestEvalRetrievalReadsTheVendoredDataAndReportsEveryDataSet(t *testing.T) {
	code, out, errOut := execute(t, "eval-retrieval", "--split", "dev", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Data    string `json:"data"`
		Results []struct {
			DataSet  string `json:"dataset"`
			Messages int    `json:"messages"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.HasSuffix(filepath.ToSlash(rep.Data), "/"+retrievaleval.DataPath) {
		t.Errorf("data read from %s, want the vendored %s", rep.Data, retrievaleval.DataPath)
	}
	var names []string
	for _, r := range rep.Results {
		names = append(names, r.DataSet)
		if r.Messages == 0 {
			t.Errorf("%s: no dev messages", r.DataSet)
		}
	}
	want := []string{"BFCL live_multiple pooled", "BFCL multiple pooled", "MetaTool", "MetaTool multi-tool"}
	if !slices.Equal(names, want) {
		t.Errorf("data sets %v, want %v", names, want)
	}
}

func TestEvalRetrievalDataFlagPointsElsewhere(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := execute(t, "eval-retrieval", "--data", dir)
	if code != 1 || !strings.Contains(errOut, dir) {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

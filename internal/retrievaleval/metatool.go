package retrievaleval

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/retrieval"
)

// maxExamplesPerTool is the README's limit on indexed example messages.
const maxExamplesPerTool = 5

// LoadMetaTool loads MetaTool as two data sets over one 199-tool catalog:
// single-tool messages (all_clean_data.csv) and two-tool messages
// (multi_tool_query_golden.json). A tool's document holds its one-line
// description (plugin_des.json), its description_for_model where
// plugin_info.json has one, and up to five example messages from the
// examples split (the five with the smallest sha256). Messages of the
// examples split are not evaluated.
func LoadMetaTool(dir string) ([]DataSet, error) {
	var des map[string]string
	if err := readJSON(filepath.Join(dir, "plugin_des.json"), &des); err != nil {
		return nil, err
	}
	var info []struct {
		Name  string `json:"name_for_model"`
		Model string `json:"description_for_model"`
	}
	if err := readJSON(filepath.Join(dir, "plugin_info.json"), &info); err != nil {
		return nil, err
	}
	forModel := map[string]string{}
	for _, i := range info {
		forModel[i.Name] = i.Model
	}

	f, err := os.Open(filepath.Join(dir, "all_clean_data.csv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("all_clean_data.csv: %w", err)
	}
	single := DataSet{Name: "MetaTool", Language: "en"}
	examples := map[string][]string{}
	tools := map[string]bool{}
	for i, r := range rows {
		if i == 0 || len(r) < 2 {
			continue // header
		}
		q, tool := r[0], r[1]
		if _, ok := des[tool]; !ok {
			return nil, fmt.Errorf("all_clean_data.csv:%d: tool %q has no description", i+1, tool)
		}
		tools[tool] = true
		if s := SplitOf(q); s == SplitExamples {
			examples[tool] = append(examples[tool], q)
		} else {
			single.Cases = append(single.Cases, Case{Message: q, Want: []string{tool}, Split: s})
		}
	}
	names := make([]string, 0, len(tools))
	for t := range tools {
		names = append(names, t)
	}
	slices.Sort(names)
	for _, t := range names {
		ex := slices.Compact(sortedByHash(examples[t]))
		if len(ex) > maxExamplesPerTool {
			ex = ex[:maxExamplesPerTool]
		}
		d := retrieval.Document{Name: t, Description: des[t], WhenToUse: forModel[t]}
		for _, e := range ex {
			d.Examples = append(d.Examples, retrieval.Example{User: e})
		}
		single.Docs = append(single.Docs, d)
	}

	var multi []struct {
		Query string   `json:"query"`
		Tool  []string `json:"tool"`
	}
	if err := readJSON(filepath.Join(dir, "multi_tool_query_golden.json"), &multi); err != nil {
		return nil, err
	}
	two := DataSet{Name: "MetaTool multi-tool", Language: "en", Docs: single.Docs}
	for _, m := range multi {
		s := SplitOf(m.Query)
		if s == SplitExamples {
			continue
		}
		two.Cases = append(two.Cases, Case{Message: m.Query, Want: m.Tool, Split: s})
	}
	return []DataSet{single, two}, nil
}

// sortedByHash orders messages by their sha256, the README's rule for which
// examples may be indexed.
func sortedByHash(msgs []string) []string {
	out := slices.Clone(msgs)
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(hashOf(a), hashOf(b)) })
	return out
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

package retrievaleval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/retrieval"
)

type bfclFunction struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Parameters  struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type        string `json:"type"`
			Description string `json:"description"`
			Enum        []any  `json:"enum"`
		} `json:"properties"`
	} `json:"parameters"`
}

type bfclEntry struct {
	ID       string `json:"id"`
	Question [][]struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"question"`
	Function []bfclFunction `json:"function"`
}

// LoadBFCLPooled loads one BFCL file under the pooled protocol: the catalog
// is the union of all distinct functions of the file (by name, first
// definition wins), and each message is ranked against the whole pool rather
// than only its own 2–37 candidates. The message is the text of the user
// turns; the answer is the function named in possible_answer.
func LoadBFCLPooled(dir, file string) (DataSet, error) {
	answers, err := bfclAnswers(filepath.Join(dir, "possible_answer", file))
	if err != nil {
		return DataSet{}, err
	}
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		return DataSet{}, err
	}
	defer f.Close()
	ds := DataSet{Name: "BFCL " + strings.TrimSuffix(strings.TrimPrefix(file, "BFCL_v4_"), ".json") + " pooled", Language: "en"}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e bfclEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return DataSet{}, fmt.Errorf("%s: %w", file, err)
		}
		for _, fn := range e.Function {
			if !seen[fn.Name] {
				seen[fn.Name] = true
				ds.Docs = append(ds.Docs, bfclDocument(fn))
			}
		}
		var user []string
		for _, turn := range e.Question {
			for _, m := range turn {
				if m.Role == "user" {
					user = append(user, m.Content)
				}
			}
		}
		msg := strings.Join(user, "\n")
		want, ok := answers[e.ID]
		if !ok {
			return DataSet{}, fmt.Errorf("%s: no answer for %s", file, e.ID)
		}
		ds.Cases = append(ds.Cases, Case{Message: msg, Want: want, Split: SplitOf(msg)})
	}
	return ds, sc.Err()
}

func bfclDocument(fn bfclFunction) retrieval.Document {
	d := retrieval.Document{Name: fn.Name, Description: fn.Description}
	for name, p := range fn.Parameters.Properties {
		param := retrieval.Parameter{Name: name, Type: p.Type, Description: p.Description, Required: slices.Contains(fn.Parameters.Required, name)}
		for _, v := range p.Enum {
			param.Enum = append(param.Enum, fmt.Sprint(v))
		}
		d.Parameters = append(d.Parameters, param)
	}
	slices.SortFunc(d.Parameters, func(a, b retrieval.Parameter) int { return strings.Compare(a.Name, b.Name) })
	return d
}

func bfclAnswers(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var a struct {
			ID          string           `json:"id"`
			GroundTruth []map[string]any `json:"ground_truth"`
		}
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		var names []string
		for _, g := range a.GroundTruth {
			for name := range g {
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
		}
		slices.Sort(names)
		out[a.ID] = names
	}
	return out, sc.Err()
}

package planner_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/planner"

	"golang.org/x/tools/txtar"

	"github.com/ragforge/ragforge/tools"
)

var update = flag.Bool("update", false, "rewrite the golden planner cases under testdata/planner")

// goldenCase is one testdata/planner/*.txtar file: the config, the tool,
// the arguments and optional settings in, the Cypher and parameters (or
// the error) out.
type goldenCase struct {
	path    string
	archive *txtar.Archive
	config  string
	tool    string
	args    string
	caps    tools.Capabilities
	state   planner.State
}

func readGolden(t *testing.T) []*goldenCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "planner", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases under testdata/planner (%v)", err)
	}
	var out []*goldenCase
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := &goldenCase{path: p, archive: a, caps: tools.Capabilities{FullText: true}}
		for _, f := range a.Files {
			v := strings.TrimSpace(string(f.Data))
			switch f.Name {
			case "config":
				c.config = v
			case "tool":
				c.tool = v
			case "args":
				c.args = v
			case "apoc":
				c.caps.APOC = v == "true"
			case "fulltext":
				c.caps.FullText = v != "false"
			case "materialized":
				c.state = planner.State{}
				for _, ref := range strings.Fields(v) {
					e, fld, _ := strings.Cut(ref, ".")
					c.state[planner.FieldRef{e, fld}] = true
				}
			}
		}
		if c.config == "" || c.tool == "" {
			t.Fatalf("%s: needs config and tool sections", p)
		}
		out = append(out, c)
	}
	return out
}

// render is what a golden case records: the Cypher, the parameters as
// JSON (the embedding placeholder as null), the Go-side filter, or the
// error.
func render(st *planner.Statement, err error) map[string]string {
	if err != nil {
		return map[string]string{"error": err.Error() + "\n"}
	}
	params, _ := json.MarshalIndent(st.Params, "", "  ")
	out := map[string]string{"cypher": st.Cypher + "\n", "params": string(params) + "\n"}
	if st.Filter != nil {
		fb, _ := json.Marshal(st.Filter)
		out["filter"] = string(fb) + "\n"
	}
	if st.Fetch != nil {
		out["fetch"] = st.Fetch.Cypher + "\n"
	}
	return out
}

// TestGoldenPlans replays every case of testdata/planner: the statement
// for a call must equal the recorded Cypher and parameters (or error), so
// a reviewer reads any change of generated Cypher as a diff. -update
// rewrites the expectations.
func TestGoldenPlans(t *testing.T) {
	for _, c := range readGolden(t) {
		t.Run(strings.TrimSuffix(filepath.Base(c.path), ".txtar"), func(t *testing.T) {
			f := newFixture(t, c.config, c.caps)
			got := render(f.plan(c.tool, c.args, c.state))
			outputs := []string{"cypher", "params", "filter", "fetch", "error"}
			if *update {
				var files []txtar.File
				for _, fl := range c.archive.Files {
					keep := true
					for _, o := range outputs {
						if fl.Name == o {
							keep = false
						}
					}
					if keep {
						files = append(files, fl)
					}
				}
				for _, o := range outputs {
					if v, ok := got[o]; ok {
						files = append(files, txtar.File{Name: o, Data: []byte(v)})
					}
				}
				c.archive.Files = files
				if err := os.WriteFile(c.path, txtar.Format(c.archive), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := map[string]string{}
			for _, fl := range c.archive.Files {
				for _, o := range outputs {
					if fl.Name == o {
						want[o] = string(fl.Data)
					}
				}
			}
			for _, o := range outputs {
				if !bytes.Equal([]byte(got[o]), []byte(want[o])) {
					t.Errorf("%s differs (run go test ./planner -run TestGoldenPlans -update and review the diff)\n--- got\n%s\n--- want\n%s", o, got[o], want[o])
				}
			}
		})
	}
}

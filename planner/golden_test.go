package planner_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

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
	state   model.State
}

func readGolden(t *testing.T) []*goldenCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "planner", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases under testdata/planner (%v)", err)
	}
	var out []*goldenCase
	for _, p := range paths {
		a := golden.ReadArchive(t, p)
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
				c.state = model.State{}
				for _, ref := range strings.Fields(v) {
					e, fld, _ := strings.Cut(ref, ".")
					c.state[model.FieldRef{Entity: e, Field: fld}] = true
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
// JSON (the embedding placeholder as null), the Go-side filter, a scan's
// next chunk and fetch steps, or the error.
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
	if st.Next != nil {
		out["next"] = st.Next.Cypher + "\n"
	}
	return out
}

// outputs are the sections of a golden case the planner writes.
var outputs = []string{"cypher", "params", "filter", "next", "fetch", "error"}

// TestGoldenPlans replays every case of testdata/planner: the statement
// for a call must equal the recorded Cypher and parameters (or error), so
// a reviewer reads any change of generated Cypher as a diff.
// RAGFORGE_UPDATE=1 rewrites the expectations.
func TestGoldenPlans(t *testing.T) {
	for _, c := range readGolden(t) {
		t.Run(strings.TrimSuffix(filepath.Base(c.path), ".txtar"), func(t *testing.T) {
			f := newFixture(t, c.config, c.caps)
			golden.CheckArchive(t, c.path, c.archive, outputs, render(f.plan(c.tool, c.args, c.state)))
		})
	}
}

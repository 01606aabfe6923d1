package planner_test

import (
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/internal/golden/plancase"
	"github.com/ragforge/ragforge/planner"
)

// render is what a golden case records: the Cypher, the parameters as
// JSON (the embedding placeholder as null), the Go-side filter, a scan's
// next chunk and fetch steps, a list's total, or the error.
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
	if st.Total != nil {
		out["total"] = st.Total.Cypher + "\n"
	}
	return out
}

// outputs are the sections of a golden case the planner writes.
var outputs = []string{"cypher", "params", "filter", "next", "fetch", "total", "error"}

// TestGoldenPlans replays every case of testdata/planner: the statement
// for a call must equal the recorded Cypher and parameters (or error), so
// a reviewer reads any change of generated Cypher as a diff.
// RAGFORGE_UPDATE=1 rewrites the expectations.
func TestGoldenPlans(t *testing.T) {
	for _, c := range plancase.Read(t, "..") {
		t.Run(c.Name(), func(t *testing.T) {
			f := newFixture(t, c.Config, c.Caps)
			golden.CheckArchive(t, c.Path, c.Archive, outputs, render(f.plan(c.Tool, c.Args, c.State)))
		})
	}
}

package planner_test

import (
	"testing"

	"github.com/ragforge/ragforge/planner"
)

// The vector index holds every tenant's nodes: with a tenant, semantic
// search asks the index for more candidates than it returns, as it does
// for conditions applied after the index query.
func TestSemanticSearchWidensItsCandidatesUnderATenant(t *testing.T) {
	st, err := planner.Plan(loadModel(t, "memory-graph.yaml"), planner.Call{Tool: planner.SemanticSearch,
		Args: &planner.SemanticSearchArgs{EntityType: "Concept", Query: "boats", TopK: 5}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Params["candidates"]; got != int64(50) {
		t.Errorf("candidates %v, want 50 (10 × top_k 5)", got)
	}
}

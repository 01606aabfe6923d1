package engine_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestOutOfMemoryBecomesACallErrorNamingTheArgumentsThatNarrowTheCall
// gives the engine Neo4j's MemoryPoolOutOfMemoryError as the driver
// returns it (classified, then wrapped by the handler): the agent gets a
// CallError that points at the arguments of that tool which ask for less,
// as each tool's declaration gives them (tools.Schema.Narrow), generated
// and handler-backed alike.
// (The shared test server cannot run out of memory without changing its
// settings under the other tests.)
func TestOutOfMemoryBecomesACallErrorNamingTheArgumentsThatNarrowTheCall(t *testing.T) {
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	caps := tools.Capabilities{FullText: true, GDS: true}
	e, err := engine.New(t.Context(), m, engine.Options{Tools: tools.Options{RawCypher: true, History: true, Capabilities: &caps}})
	if err != nil {
		t.Fatal(err)
	}
	ne := &neo4j.Neo4jError{Code: "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
		Msg: "The allocation of an extra 8.0 MiB would use more than the limit 1.4 GiB. Currently using 1.4 GiB. dbms.memory.transaction.total.max threshold reached"}
	oom := neo4jtx.Classify(context.Background(), nil, ne, true)
	for tool, want := range map[string][]string{
		"query_entities":        {"/limit", "/conditions"},
		"explore_relationships": {"/limit", "/depth", "/start_conditions", "/target_conditions"},
		"find_paths":            {"/limit", "/max_length"},
		planner.RunCypher:       {"/query"},
		// Handler-backed: the history and analytics families.
		"get_most_modified_entities": {"/limit", "/conditions"},
		"find_scope_clusters":        {"/limit"},
	} {
		got := engine.CallError(e, context.Background(), tool, fmt.Errorf("engine: running %s: %w", tool, oom))
		var ce *tools.CallError
		if !errors.As(got, &ce) || ce.Tool != tool {
			t.Errorf("%s: got %v, want a CallError", tool, got)
			continue
		}
		var paths []string
		for _, p := range ce.Problems {
			paths = append(paths, p.Path)
		}
		if !slices.Equal(paths, want) {
			t.Errorf("%s: the error names %v, want %v: %v", tool, paths, want, ce)
		}
	}
}

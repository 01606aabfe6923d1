package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestToolsWithURIListsExactlyTheToolsCallAccepts: on the same server and
// with the same flags, tools --uri prints the catalog call runs with (the
// tools call names as valid when asked for an unknown one), so what an
// application hands its LLM is what the calls will accept. The test
// server has no full-text index, so fulltext_search is offered offline but
// by neither of the two here.
func TestToolsWithURIListsExactlyTheToolsCallAccepts(t *testing.T) {
	neo4jtest.Open(t)
	conn := neo4jtest.Flags(t)
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"code-rag", []string{codeRAG}},
		{"code-rag, raw Cypher", []string{codeRAG, "--raw-cypher"}},
		{"memory-graph, offline embedder", []string{memoryGraph, "--tenant", "alice", "--embedder", "offline"}},
		{"memory-graph, no embedder", []string{memoryGraph, "--tenant", "alice"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := execute(t, append(append([]string{"tools"}, c.flags...), append(conn, "--format", "json")...)...)
			if code != 0 {
				t.Fatalf("tools --uri: exit %d: %s", code, errOut)
			}
			var listed []struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal([]byte(out), &listed); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, l := range listed {
				names = append(names, l.Name)
			}
			_, out, _ = execute(t, append(append([]string{"call"}, c.flags...), append(conn, "--tool", "no_such_tool", "--format", "json")...)...)
			var refused struct {
				Error struct {
					Problems []struct {
						Valid []string `json:"valid"`
					} `json:"problems"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(out), &refused); err != nil || len(refused.Error.Problems) == 0 {
				t.Fatalf("call of an unknown tool: %v\n%s", err, out)
			}
			accepted := refused.Error.Problems[0].Valid
			if !slices.Equal(names, accepted) {
				t.Errorf("tools --uri lists %v\ncall accepts   %v", names, accepted)
			}
			if slices.Contains(names, "fulltext_search") {
				t.Errorf("fulltext_search is listed though the server has no full-text index: %v", names)
			}
		})
	}
	code, _, errOut := execute(t, append([]string{"tools", codeRAG, "--no-fulltext"}, conn...)...)
	if code != 2 || !strings.Contains(errOut, "--no-fulltext describes a catalog without a server") {
		t.Errorf("an offline flag with --uri: exit %d: %s", code, errOut)
	}
}

package main

import (
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
			names := listedNames(t, slices.Concat(c.flags, conn)...)
			accepted := acceptedNames(t, slices.Concat([]string{"call"}, c.flags, conn)...)
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

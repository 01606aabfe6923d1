package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestTheGraphSchemaIsSentOnceAsInstructions: the client gets the graph
// schema as the server's instructions, and tools/list's query_entities
// points there instead of carrying it again.
func TestTheGraphSchemaIsSentOnceAsInstructions(t *testing.T) {
	e := newEngine(t)
	s, err := New(e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil)
	graph := e.Tools().GraphSchema()
	if got := cs.InitializeResult().Instructions; graph == "" || got != graph {
		t.Fatalf("instructions %q, want the graph schema %q", got, graph)
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if strings.Contains(tl.Description, "Declared name, e.g. ServeHTTP") {
			t.Errorf("%s repeats the graph schema:\n%s", tl.Name, tl.Description)
		}
		if tl.Name == planner.QueryEntities && !strings.Contains(tl.Description, tools.GraphSchemaTitle+": in this server's instructions") {
			t.Errorf("query_entities does not point to the instructions:\n%s", tl.Description)
		}
	}
}

package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// The host's verbose call reaches handler tools as it reaches generated
// ones: traverse returns a long note cut without it and whole with it.
func TestAVerboseCallReadsLongTextWholeInHandlerTools(t *testing.T) {
	d := neo4jtest.Open(t)
	e := newEngine(t, d, "../testdata/configs/valid/memory-graph.yaml", engine.Options{Embedder: flatEmbedder,
		Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}})
	ctx := tenant.With(context.Background(), "alice")
	notes := strings.Repeat("sails every summer. ", 600)
	raw, _ := json.Marshal(map[string]any{"name": "Ada", "canonical_name": "ada", "notes": notes, "source": "test", "confidence": 1})
	if _, err := e.Execute(ctx, engine.Call{Name: "create_person", Arguments: raw}); err != nil {
		t.Fatal(err)
	}
	read := func(verbose bool) string {
		t.Helper()
		res, err := e.Execute(ctx, engine.Call{Name: "traverse", Verbose: verbose,
			Arguments: json.RawMessage(`{"cypher":"MATCH (p:Person) WHERE p.user_id = $tenant RETURN p.notes AS notes"}`)})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(res)
		var got struct {
			Rows []struct {
				Notes string `json:"notes"`
			} `json:"rows"`
		}
		if err := json.Unmarshal(out, &got); err != nil || len(got.Rows) != 1 {
			t.Fatalf("%s: %v", out, err)
		}
		return got.Rows[0].Notes
	}
	if cut := read(false); len(cut) >= len(notes) {
		t.Errorf("without verbose the note is %d characters, want it cut below %d", len(cut), len(notes))
	}
	if whole := read(true); whole != notes {
		t.Errorf("verbose: the note is %d characters, want all %d", len(whole), len(notes))
	}
}

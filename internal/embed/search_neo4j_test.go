package embed_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/embed/embedtest"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
)

// TestSemanticSearchSaysItsIndexIsEmptyThenFindsEmbeddedNodes searches
// before and after embed: before, the empty answer carries a note naming
// the index and the embed command; after, the note whose text is the
// query comes first, and only the calling tenant's notes come back.
func TestSemanticSearchSaysItsIndexIsEmptyThenFindsEmbeddedNodes(t *testing.T) {
	d := neo4jtest.Open(t)
	m := notes(t)
	ctx := context.Background()
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	createNotes(t, d, 30)
	srv := embedtest.New(t)
	eng, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Embedder: srv.Embedder()})
	if err != nil {
		t.Fatal(err)
	}
	query := "alice writes note number 17 about chess"
	search := func() *engine.Result {
		t.Helper()
		args, _ := json.Marshal(map[string]any{"entity_type": "Note", "query": query, "index": "note_text_embeddings", "top_k": 5})
		res, err := eng.Execute(tenant.With(ctx, "alice"), engine.Call{Name: "semantic_search", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	res := search()
	if res.Count != 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "note_text_embeddings holds no vectors of Note yet") ||
		!strings.Contains(res.Notes[0], "ragforge-plan embed CONFIG --field Note.text") {
		t.Fatalf("before embed: %d results, notes %q; want none and the empty-index note", res.Count, res.Notes)
	}

	if _, err := run(t, d, m, srv.Embedder(), 25, "Note.text"); err != nil {
		t.Fatal(err)
	}
	res = search()
	if res.Count != 5 {
		t.Fatalf("after embed: %d results, want 5; notes %q", res.Count, res.Notes)
	}
	if got := res.Entities[0].ID; got != "alice-17" {
		t.Errorf("after embed: first result %v, want alice-17", got)
	}
	for _, e := range res.Entities {
		if id, _ := e.ID.(string); !strings.HasPrefix(id, "alice-") {
			t.Errorf("bob's note %s came back to alice", id)
		}
	}

	// Nothing at min_score 1 but the exact text: a note that says why.
	args, _ := json.Marshal(map[string]any{"entity_type": "Note", "query": "zebra", "index": "note_text_embeddings", "min_score": 0.99})
	res, err = eng.Execute(tenant.With(ctx, "alice"), engine.Call{Name: "semantic_search", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if res.Count != 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "no Note scored at least min_score 0.99") {
		t.Errorf("min_score 0.99: %d results, notes %q", res.Count, res.Notes)
	}
}

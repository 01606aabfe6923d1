package embedder_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// notesConfig holds writable notes of a tenant, with a vector index over
// their text.
const notesConfig = `name: notes
tenant: {field: owner}
entities:
  - name: Note
    description: A short note
    unique_field: id
    writable: {create: true}
    key: {field: id, from: [title], prefix: note_}
    required: [title, text]
    searchable_fields:
      - {name: id, type: string, description: Identifier}
      - {name: owner, type: string, description: Whose note it is, exposed_to_tools: false}
      - {name: title, type: string, description: Title}
      - {name: text, type: string, description: What the note says}
    vector_indexes:
      - {name: note_embeddings, field: text, dimensions: 256, similarity: cosine}
`

// TestOfflineEmbeddingsFindTheNoteSharingTheQueryWordsOnNeo4j stores
// Offline embeddings of notes in the vector index's property (by Cypher,
// and by the create_note tool through the engine), and checks that the
// engine's semantic_search with the Offline embedder ranks first the note
// that shares the query's words.
func TestOfflineEmbeddingsFindTheNoteSharingTheQueryWordsOnNeo4j(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "notes.yaml")
	if err := os.WriteFile(path, []byte(notesConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	vi := m.Entity("Note").VectorIndexes[0]
	for id, text := range map[string]string{
		"note_chess":  "The chess club meets on Tuesdays at the library",
		"note_tomato": "Tomato plants need full sun and regular water",
		"note_tax":    "Send the tax return before the end of April",
	} {
		vec, err := embedder.Offline{}.Embed(ctx, text, vi)
		if err != nil {
			t.Fatal(err)
		}
		neo4jtest.Run(t, d, "CREATE (:Note {id: $id, owner: 'alice', title: $id, text: $text, embedding: $vec})", map[string]any{"id": id, "text": text, "vec": vec})
	}
	neo4jtest.Run(t, d, "CREATE VECTOR INDEX note_embeddings FOR (n:Note) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: 256, `vector.similarity_function`: 'cosine'}}", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(120)", nil)
	e, err := engine.New(ctx, m, engine.Options{
		Driver: d, Database: neo4jtest.Database(), Tenant: "alice",
		Embedder: embedder.Offline{},
		Tools:    tools.Options{Capabilities: &tools.Capabilities{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool, args string) *engine.Result {
		t.Helper()
		r, err := e.Execute(ctx, engine.Call{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s %s: %v", tool, args, err)
		}
		return r
	}
	// The write tool embeds the text with the same embedder.
	created, _ := json.Marshal(call("create_note", `{"title":"sailing","text":"Sailing lessons at the lake on Saturday mornings"}`))
	var sailing struct {
		Key string `json:"entity_key"`
	}
	if err := json.Unmarshal(created, &sailing); err != nil || sailing.Key == "" {
		t.Fatalf("create_note answered %s (%v)", created, err)
	}
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(120)", nil)

	for query, want := range map[string]string{
		"when does the chess club meet?": "note_chess",
		"watering tomato plants":         "note_tomato",
		"sailing lessons":                sailing.Key,
	} {
		r := call(planner.SemanticSearch, `{"entity_type":"Note","query":`+jsonString(query)+`,"top_k":4,"min_score":0}`)
		if len(r.Entities) < 2 {
			t.Fatalf("%q: %d results", query, len(r.Entities))
		}
		first, second := r.Entities[0], r.Entities[1]
		if first.ID != want || *first.Score <= *second.Score {
			t.Errorf("%q: first %v (%.3f), second %v (%.3f); want %s first, strictly higher", query, first.ID, *first.Score, second.ID, *second.Score, want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

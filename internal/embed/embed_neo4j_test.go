package embed_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/embed"
	"github.com/ragforge/ragforge/internal/embed/embedtest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// notes loads the test config.
func notes(t *testing.T) *model.Model {
	t.Helper()
	m, err := config.Load("testdata/notes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// createNotes writes n notes for each of two tenants, with texts and
// titles that differ per note and per tenant.
func createNotes(t *testing.T, d neo4j.DriverWithContext, n int) {
	t.Helper()
	neo4jtest.Run(t, d, `UNWIND ['alice', 'bob'] AS user
UNWIND range(1, $n) AS i
CREATE (:Note {id: user + '-' + i, user_id: user, text: user + ' writes note number ' + i + ' about chess', title: 'title ' + i + ' of ' + user})`, map[string]any{"n": n})
}

// stored returns each note's id → text, vector and hash of the index.
type storedNote struct {
	text   string
	vector []float32
	hash   string
}

func storedNotes(t *testing.T, d neo4j.DriverWithContext, vi *model.VectorIndex) map[string]storedNote {
	t.Helper()
	q := fmt.Sprintf("MATCH (n:Note) RETURN n.id AS id, n.%s AS text, n.%s AS vector, n.%s AS hash", vi.Field, vi.VectorProperty(), vi.HashProperty())
	res, err := neo4j.ExecuteQuery(context.Background(), d, q, nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]storedNote{}
	for _, r := range res.Records {
		id, _ := r.Values[0].(string)
		s := storedNote{}
		s.text, _ = r.Values[1].(string)
		s.hash, _ = r.Values[3].(string)
		if v, ok := r.Values[2].([]any); ok {
			for _, x := range v {
				s.vector = append(s.vector, float32(x.(float64)))
			}
		}
		out[id] = s
	}
	return out
}

// checkVectors fails unless, in each index, every note with text holds
// the server's vector of its own text and that text's hash, and every
// other none.
func checkVectors(t *testing.T, d neo4j.DriverWithContext, indexes ...*model.VectorIndex) {
	t.Helper()
	for _, vi := range indexes {
		for id, s := range storedNotes(t, d, vi) {
			if s.text == "" {
				if s.vector != nil || s.hash != "" {
					t.Errorf("%s %s: no text but a vector or hash %q", vi.Name, id, s.hash)
				}
				continue
			}
			if want := embedtest.Vector(t, s.text, vi.Dimensions); !slices.Equal(s.vector, want) {
				t.Errorf("%s %s: the vector is not that of its own text %q", vi.Name, id, s.text)
			}
			if want := embedder.TextHash(vi, s.text); s.hash != want {
				t.Errorf("%s %s: hash %q, want %q", vi.Name, id, s.hash, want)
			}
		}
	}
}

func run(t *testing.T, d neo4j.DriverWithContext, m *model.Model, e embedder.Embedder, batch int, fields ...string) (*embed.Report, error) {
	t.Helper()
	return embed.Run(context.Background(), d, m, embed.Options{Database: neo4jtest.Database(), Embedder: e, BatchSize: batch, Fields: fields})
}

// TestEmbedFillsEveryIndexInBatchesThenFindsNothingToDo embeds 2×125
// notes of two tenants in batches of 100 (3 requests per index), checks
// every vector is its own node's text's, and that a second run sends no
// request.
func TestEmbedFillsEveryIndexInBatchesThenFindsNothingToDo(t *testing.T) {
	d := neo4jtest.Open(t)
	m := notes(t)
	createNotes(t, d, 125)
	srv := embedtest.New(t)
	rep, err := run(t, d, m, srv.Embedder(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Indexes) != 2 {
		t.Fatalf("report of %d indexes, want 2: %+v", len(rep.Indexes), rep)
	}
	for _, r := range rep.Indexes {
		if r.Nodes != 250 || r.Embedded != 250 || r.Current != 0 || r.Batches != 3 {
			t.Errorf("first run, %s: %+v, want 250 nodes embedded in 3 batches", r.Index, r)
		}
	}
	if srv.Requests() != 6 || srv.Texts() != 500 {
		t.Errorf("first run: %d requests for %d texts, want 6 for 500", srv.Requests(), srv.Texts())
	}
	checkVectors(t, d, m.Entity("Note").VectorIndexes...)

	rep, err = run(t, d, m, srv.Embedder(), 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Indexes {
		if r.Embedded != 0 || r.Current != 250 || r.Batches != 0 {
			t.Errorf("second run, %s: %+v, want all 250 current", r.Index, r)
		}
	}
	if srv.Requests() != 6 {
		t.Errorf("second run sent %d requests", srv.Requests()-6)
	}
}

// TestEmbedReembedsOnlyChangedTextsAndClearsRemovedOnes changes two texts,
// removes one and adds a note after a full run: the next run embeds the
// three new texts in one request and clears the removed text's vector.
func TestEmbedReembedsOnlyChangedTextsAndClearsRemovedOnes(t *testing.T) {
	d := neo4jtest.Open(t)
	m := notes(t)
	createNotes(t, d, 20)
	srv := embedtest.New(t)
	if _, err := run(t, d, m, srv.Embedder(), 100, "Note.text"); err != nil {
		t.Fatal(err)
	}
	neo4jtest.Run(t, d, `MATCH (n:Note) WHERE n.id IN ['alice-3', 'bob-7'] SET n.text = n.text + ' and go'`, nil)
	neo4jtest.Run(t, d, `MATCH (n:Note {id: 'bob-9'}) REMOVE n.text`, nil)
	neo4jtest.Run(t, d, `CREATE (:Note {id: 'alice-new', user_id: 'alice', text: 'a new note'})`, nil)
	before := srv.Requests()
	rep, err := run(t, d, m, srv.Embedder(), 100, "Note.text")
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Indexes[0]
	if len(rep.Indexes) != 1 || r.Index != "note_text_embeddings" || r.Embedded != 3 || r.Cleared != 1 || r.Empty != 1 || r.Current != 37 {
		t.Errorf("report %+v, want only note_text_embeddings: 3 embedded, 1 cleared (empty), 37 current", rep.Indexes)
	}
	if got := srv.Requests() - before; got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
	checkVectors(t, d, m.Entity("Note").VectorIndexes[0])
}

// TestEmbedStopsAtAnEmbedderErrorWithWhatWasSaved answers the second
// request with HTTP 500: the run stops, saying so and how much was saved,
// and the first batch stays saved.
func TestEmbedStopsAtAnEmbedderErrorWithWhatWasSaved(t *testing.T) {
	d := neo4jtest.Open(t)
	m := notes(t)
	createNotes(t, d, 15)
	srv := embedtest.New(t)
	srv.Before = func(n int) int {
		if n == 2 {
			return 500
		}
		return 0
	}
	rep, err := run(t, d, m, srv.Embedder(), 10, "Note.text")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"500 Internal Server Error", "Note.text (note_text_embeddings)", "10 nodes saved in 1 batches", "run again to resume"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if rep == nil || rep.Indexes[0].Embedded != 10 {
		t.Errorf("report %+v, want 10 embedded", rep)
	}
	saved := 0
	for _, s := range storedNotes(t, d, m.Entity("Note").VectorIndexes[0]) {
		if s.vector != nil {
			saved++
		}
	}
	if saved != 10 {
		t.Errorf("%d notes hold a vector, want the first batch's 10", saved)
	}
}

// TestEmbedRefusesAVectorOfTheWrongSize has the server answer 12
// dimensions for a 16-dimension index: nothing is written and the error
// names both sizes.
func TestEmbedRefusesAVectorOfTheWrongSize(t *testing.T) {
	d := neo4jtest.Open(t)
	m := notes(t)
	createNotes(t, d, 3)
	srv := embedtest.New(t)
	srv.Dimensions = 12
	_, err := run(t, d, m, srv.Embedder(), 10, "Note.text")
	if err == nil || !strings.Contains(err.Error(), "returned 12 dimensions, but vector index note_text_embeddings has 16") {
		t.Fatalf("error %v, want one naming 12 and 16 dimensions", err)
	}
	for id, s := range storedNotes(t, d, m.Entity("Note").VectorIndexes[0]) {
		if s.vector != nil {
			t.Errorf("%s got a vector", id)
		}
	}
}

// TestEmbedTargetsNameTheValidFields checks --field's errors offline.
func TestEmbedTargetsNameTheValidFields(t *testing.T) {
	m := notes(t)
	for _, f := range []string{"Note.id", "Nope.text", "text"} {
		_, err := embed.Targets(m, []string{f})
		if err == nil || !strings.Contains(err.Error(), "(fields: Note.text, Note.title)") {
			t.Errorf("%q: %v", f, err)
		}
	}
	ts, err := embed.Targets(m, []string{"Note.title", "Note.title"})
	if err != nil || len(ts) != 1 || ts[0].Index.Name != "note_title_embeddings" {
		t.Errorf("Note.title twice: %v %v", ts, err)
	}
}

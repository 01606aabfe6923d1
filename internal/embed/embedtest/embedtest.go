// Package embedtest is a deterministic OpenAI-compatible /embeddings server
// on 127.0.0.1 for tests: its vectors are embedder.Offline's of each input
// text (so a test can compute what a node must hold), and it counts the
// requests and texts it answered.
package embedtest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/model"
)

// Server answers POST /embeddings.
type Server struct {
	// URL is the API root to give embedder.OpenAI.BaseURL.
	URL string
	// Before, when set, runs before each request is answered with the
	// request's number (1 for the first); a non-zero status it returns is
	// the answer instead (with an OpenAI-style error body). It may block.
	Before func(n int) int
	// Dimensions, when set, overrides the requested dimensions of every
	// answer (to test a wrong-size model).
	Dimensions int

	mu       sync.Mutex
	requests int
	texts    int
}

// New starts a server closed at the test's end.
func New(t testing.TB) *Server {
	t.Helper()
	s := &Server{}
	hs := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(hs.Close)
	s.URL = hs.URL + "/v1"
	return s
}

// Embedder returns an OpenAI embedder of the server.
func (s *Server) Embedder() *embedder.OpenAI {
	return &embedder.OpenAI{BaseURL: s.URL}
}

// Requests counts the requests received; Texts the texts answered with
// vectors.
func (s *Server) Requests() int { s.mu.Lock(); defer s.mu.Unlock(); return s.requests }
func (s *Server) Texts() int    { s.mu.Lock(); defer s.mu.Unlock(); return s.texts }

// Vector is what the server answers for text at dims dimensions:
// embedder.Offline's vector.
func Vector(t testing.TB, text string, dims int) []float32 {
	t.Helper()
	v, err := embedder.Offline{}.Embed(context.Background(), text, &model.VectorIndex{Name: "test", Dimensions: dims})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		Model      string          `json:"model"`
		Input      json.RawMessage `json:"input"`
		Dimensions int             `json:"dimensions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad JSON"}}`, http.StatusBadRequest)
		return
	}
	var texts []string
	if json.Unmarshal(req.Input, &texts) != nil {
		var one string
		if json.Unmarshal(req.Input, &one) != nil {
			http.Error(w, `{"error":{"message":"input is neither a string nor a list of strings"}}`, http.StatusBadRequest)
			return
		}
		texts = []string{one}
	}
	s.mu.Lock()
	s.requests++
	n := s.requests
	s.mu.Unlock()
	if s.Before != nil {
		if status := s.Before(n); status != 0 {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":{"message":"the test server refused request ` + http.StatusText(status) + `"}}`))
			return
		}
	}
	dims := req.Dimensions
	if dims == 0 {
		// Models without the dimensions parameter: the size is the
		// model's; the tests' model names none, so 16.
		dims = 16
	}
	if s.Dimensions > 0 {
		dims = s.Dimensions
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Data []item `json:"data"`
	}{}
	for i, text := range texts {
		v, err := embedder.Offline{}.Embed(r.Context(), text, &model.VectorIndex{Name: "test", Dimensions: dims})
		if err != nil {
			http.Error(w, `{"error":{"message":"empty text"}}`, http.StatusBadRequest)
			return
		}
		out.Data = append(out.Data, item{Index: i, Embedding: v})
	}
	s.mu.Lock()
	s.texts += len(texts)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

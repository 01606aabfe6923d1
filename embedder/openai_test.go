package embedder_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/model"
)

// request is what the fake service received.
type request struct {
	Method, Path, Auth string
	Body               map[string]any
}

// service starts an OpenAI-compatible fake that records each request and
// answers with reply.
func service(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, body map[string]any)) (*httptest.Server, *[]request) {
	t.Helper()
	var got []request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		got = append(got, request{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body})
		reply(w, r, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

// vectorReply answers with a vector of n coordinates.
func vectorReply(n int) func(http.ResponseWriter, *http.Request, map[string]any) {
	return func(w http.ResponseWriter, _ *http.Request, body map[string]any) {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(i) / 10
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"object": "list", "model": body["model"],
			"data": []any{map[string]any{"object": "embedding", "index": 0, "embedding": v}},
		})
	}
}

// TestOpenAISendsModelInputAndKeyAndReturnsTheVector checks the request
// (path, method, Bearer key, the index's model, the text) and that the
// vector comes back unchanged.
func TestOpenAISendsModelInputAndKeyAndReturnsTheVector(t *testing.T) {
	srv, got := service(t, vectorReply(4))
	o := &embedder.OpenAI{BaseURL: srv.URL + "/v1/", APIKey: "sk-test", Model: "fallback-model"}
	vi := &model.VectorIndex{Name: "docs", Dimensions: 4, Model: "nomic-embed-text"}
	vec, err := o.Embed(context.Background(), "board games", vi)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(vec, []float32{0, 0.1, 0.2, 0.3}) {
		t.Errorf("vector %v", vec)
	}
	r := (*got)[0]
	if r.Method != http.MethodPost || r.Path != "/v1/embeddings" || r.Auth != "Bearer sk-test" {
		t.Errorf("request %s %s, Authorization %q", r.Method, r.Path, r.Auth)
	}
	if r.Body["model"] != "nomic-embed-text" || r.Body["input"] != "board games" {
		t.Errorf("body %v", r.Body)
	}
	if _, ok := r.Body["dimensions"]; ok {
		t.Errorf("dimensions sent to a model that cannot shorten its vectors: %v", r.Body)
	}
}

// TestOpenAIUsesItsModelForAnIndexThatNamesNoneAndSendsNoKeyWithoutOne
// covers Ollama's case: no key, the model from the option.
func TestOpenAIUsesItsModelForAnIndexThatNamesNoneAndSendsNoKeyWithoutOne(t *testing.T) {
	srv, got := service(t, vectorReply(3))
	o := &embedder.OpenAI{BaseURL: srv.URL, Model: "all-minilm"}
	if _, err := o.Embed(context.Background(), "x", &model.VectorIndex{Name: "i", Dimensions: 3}); err != nil {
		t.Fatal(err)
	}
	if r := (*got)[0]; r.Body["model"] != "all-minilm" || r.Auth != "" || r.Path != "/embeddings" {
		t.Errorf("model %v, Authorization %q, path %s", r.Body["model"], r.Auth, r.Path)
	}
}

// TestOpenAIAsksTextEmbedding3ForTheIndexDimensions checks that the
// models that can shorten their vectors are asked for the index's size.
func TestOpenAIAsksTextEmbedding3ForTheIndexDimensions(t *testing.T) {
	srv, got := service(t, vectorReply(256))
	o := &embedder.OpenAI{BaseURL: srv.URL}
	if _, err := o.Embed(context.Background(), "x", &model.VectorIndex{Name: "i", Dimensions: 256, Model: "text-embedding-3-large"}); err != nil {
		t.Fatal(err)
	}
	if d := (*got)[0].Body["dimensions"]; d != float64(256) {
		t.Errorf("dimensions %v, want 256", d)
	}
}

// TestOpenAIErrorsSayWhatWentWrong covers the refusals: each error names
// the cause, quotes the service's message when there is one, and never
// shows the key.
func TestOpenAIErrorsSayWhatWentWrong(t *testing.T) {
	status := func(code int, body string) func(http.ResponseWriter, *http.Request, map[string]any) {
		return func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.WriteHeader(code)
			_, _ = io.WriteString(w, body)
		}
	}
	vi := &model.VectorIndex{Name: "concept_embeddings", Dimensions: 4, Model: "m"}
	cases := []struct {
		name  string
		reply func(http.ResponseWriter, *http.Request, map[string]any)
		index *model.VectorIndex
		text  string
		want  []string
	}{
		{"OpenAI error object", status(401, `{"error":{"message":"Incorrect API key provided: sk-***st.","type":"invalid_request_error","code":"invalid_api_key"}}`), vi, "x",
			[]string{"401 Unauthorized", "Incorrect API key provided", "check the API key", "model m"}},
		{"Ollama error string", status(404, `{"error":"model \"m\" not found, try pulling it first"}`), vi, "x",
			[]string{"404 Not Found", `model "m" not found, try pulling it first`, "check the base URL"}},
		{"long text body", status(502, "<html>\n<body>"+strings.Repeat("bad gateway ", 100)+"</body></html>"), vi, "x",
			[]string{"502 Bad Gateway", "<html> <body>bad gateway", "…"}},
		{"empty body", status(500, ""), vi, "x", []string{"500 Internal Server Error", "(empty body)"}},
		{"wrong dimensions", vectorReply(3), vi, "x",
			[]string{"model m returned 3 dimensions, but vector index concept_embeddings has 4"}},
		{"not JSON", status(200, "hello"), vi, "x", []string{"not an embeddings response", "hello"}},
		{"no embedding", status(200, `{"data":[]}`), vi, "x", []string{"holds 0 embeddings, want 1"}},
		{"no model", vectorReply(4), &model.VectorIndex{Name: "plain", Dimensions: 4}, "x",
			[]string{"vector index plain names no model"}},
		{"empty text", vectorReply(4), vi, " ", []string{"nothing to embed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := service(t, c.reply)
			o := &embedder.OpenAI{BaseURL: srv.URL, APIKey: "sk-secret-test"}
			_, err := o.Embed(context.Background(), c.text, c.index)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "sk-secret-test") {
				t.Errorf("the key shows in %q", err)
			}
		})
	}
}

// TestOpenAIGivesUpAfterItsTimeout checks that a service that does not
// answer fails the call after Timeout, saying so.
func TestOpenAIGivesUpAfterItsTimeout(t *testing.T) {
	release := make(chan struct{})
	srv, _ := service(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	o := &embedder.OpenAI{BaseURL: srv.URL, Model: "m", Timeout: 100 * time.Millisecond}
	start := time.Now()
	_, err := o.Embed(context.Background(), "x", &model.VectorIndex{Name: "i", Dimensions: 2})
	if err == nil || !strings.Contains(err.Error(), "no answer within 100ms") {
		t.Errorf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestOpenAIRefusesABaseURLItCannotUse checks Endpoint's refusals and the
// URL it builds.
func TestOpenAIRefusesABaseURLItCannotUse(t *testing.T) {
	for base, want := range map[string]string{
		"":                            "https://api.openai.com/v1/embeddings",
		"http://localhost:11434/v1/":  "http://localhost:11434/v1/embeddings",
		"localhost:11434/v1":          "is not an http(s) URL",
		"ftp://example.com/v1":        "is not an http(s) URL",
		"https://user:pw@example.com": "carries credentials",
	} {
		got, err := (&embedder.OpenAI{BaseURL: base}).Endpoint()
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, want) || strings.Contains(got, "pw@") {
			t.Errorf("%q: got %q, want %q", base, got, want)
		}
	}
}

package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/embed/embedtest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// notesConfig is a config whose one vector index names no model.
const notesConfig = `name: notes
entities:
  - name: Note
    description: A short note
    unique_field: id
    searchable_fields:
      - {name: id, type: string, description: Identifier}
      - {name: text, type: string, description: What the note says}
    vector_indexes:
      - {name: note_embeddings, field: text, dimensions: 64}
`

// writeFile writes content to a new file of the test's and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// buildEmbedder parses the embedder flags in args and builds the embedder
// for config.
func buildEmbedder(t *testing.T, cfg string, args ...string) (engine.Embedder, error) {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := addEmbedderFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	m, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f.build(m)
}

// TestEmbedderFlagsChooseNoneOfflineOrOpenAI checks what each choice
// builds, and that the URL, model and key come from the flags, else the
// environment.
func TestEmbedderFlagsChooseNoneOfflineOrOpenAI(t *testing.T) {
	notes := writeFile(t, "notes.yaml", notesConfig)
	t.Setenv(envEmbedderKey, "sk-from-env")
	t.Setenv(envEmbedderURL, "")
	t.Setenv(envEmbedderModel, "")
	if e, err := buildEmbedder(t, codeRAG); e != nil || err != nil {
		t.Errorf("default: %v, %v; want none", e, err)
	}
	if e, err := buildEmbedder(t, codeRAG, "--embedder", "offline"); err != nil || e != (embedder.Offline{}) {
		t.Errorf("offline: %#v, %v", e, err)
	}
	e, err := buildEmbedder(t, codeRAG, "--embedder", "openai")
	if o, ok := e.(*embedder.OpenAI); err != nil || !ok || o.BaseURL != embedder.DefaultBaseURL || o.APIKey != "sk-from-env" || o.Model != "" {
		t.Errorf("openai: %#v, %v", e, err)
	}
	keyFile := writeFile(t, "key", "sk-from-file\r\nsecond line\n")
	e, err = buildEmbedder(t, notes, "--embedder", "openai", "--embedder-url", "http://localhost:11434/v1", "--embedder-model", "all-minilm", "--embedder-key-file", keyFile)
	if o, ok := e.(*embedder.OpenAI); err != nil || !ok || o.BaseURL != "http://localhost:11434/v1" || o.APIKey != "sk-from-file" || o.Model != "all-minilm" {
		t.Errorf("openai with flags: %#v, %v", e, err)
	}
	// Ollama needs no key; the URL and model may come from the environment.
	t.Setenv(envEmbedderKey, "")
	t.Setenv(envEmbedderURL, "http://127.0.0.1:11434/v1")
	t.Setenv(envEmbedderModel, "nomic-embed-text")
	e, err = buildEmbedder(t, notes, "--embedder", "openai")
	if o, ok := e.(*embedder.OpenAI); err != nil || !ok || o.BaseURL != "http://127.0.0.1:11434/v1" || o.APIKey != "" || o.Model != "nomic-embed-text" {
		t.Errorf("openai from the environment: %#v, %v", e, err)
	}
	if _, err := buildEmbedder(t, notes, "--embedder", "offline"); err != nil {
		t.Errorf("offline with RAGFORGE_EMBEDDER_* set: %v", err)
	}
}

// TestEmbedderFlagsRefuseSettingsThatCannotWork checks each refusal says
// what to change.
func TestEmbedderFlagsRefuseSettingsThatCannotWork(t *testing.T) {
	notes := writeFile(t, "notes.yaml", notesConfig)
	empty := writeFile(t, "empty", "\n")
	t.Setenv(envEmbedderKey, "")
	t.Setenv(envEmbedderURL, "")
	t.Setenv(envEmbedderModel, "")
	for _, c := range []struct {
		cfg  string
		args []string
		want string
	}{
		{codeRAG, []string{"--embedder", "bert"}, `unknown --embedder "bert" (allowed: none, offline, openai)`},
		{codeRAG, []string{"--embedder", "offline", "--embedder-model", "m"}, "--embedder-model only apply to --embedder openai (it is offline)"},
		{codeRAG, []string{"--embedder-url", "http://x/v1"}, "--embedder-url only apply to --embedder openai (it is none)"},
		{codeRAG, []string{"--embedder", "openai", "--embedder-url", "localhost:11434"}, "--embedder-url: embedder: base URL"},
		{codeRAG, []string{"--embedder", "openai"}, "OpenAI needs an API key: set OPENAI_API_KEY or give --embedder-key-file FILE"},
		{codeRAG, []string{"--embedder", "openai", "--embedder-key-file", empty}, "has no key on its first line"},
		{codeRAG, []string{"--embedder", "openai", "--embedder-key-file", filepath.Join(t.TempDir(), "none")}, "--embedder-key-file: open"},
		{notes, []string{"--embedder", "openai", "--embedder-url", "http://localhost:11434/v1"}, "vector index note_embeddings of Note names no model: give --embedder-model"},
		{codeRAG, []string{"--embedder-key", "sk-x"}, "set OPENAI_API_KEY or give --embedder-key-file FILE"},
	} {
		_, err := buildEmbedder(t, c.cfg, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
}

// TestEmbedderKeyInTheArgumentsIsRefusedAndNeverShown runs call and serve
// with the key in the arguments (refused, usage error) and asks for their
// help with OPENAI_API_KEY set (not shown).
func TestEmbedderKeyInTheArgumentsIsRefusedAndNeverShown(t *testing.T) {
	const secret = "sk-secret-5d2e"
	t.Setenv(envEmbedderKey, secret)
	for cmd, args := range map[string][]string{"call": {"call", codeRAG, "--tool", "query_entities"}, "serve": {"serve", codeRAG}} {
		code, _, errOut := execute(t, append(args, "--embedder", "openai", "--embedder-key", "sk-x")...)
		if code != 2 || !strings.Contains(errOut, `invalid value "sk-x" for flag -embedder-key: an API key in the arguments shows in ps`) {
			t.Errorf("%s --embedder-key: exit %d, stderr %s", cmd, code, errOut)
		}
		_, out, errOut := execute(t, cmd, "--help")
		if strings.Contains(out+errOut, secret) || !strings.Contains(errOut, "-embedder-key-file FILE") {
			t.Errorf("%s --help shows the key or not where it goes:\n%s", cmd, errOut)
		}
		code, _, errOut = execute(t, append(args, "--embedder", "word2vec")...)
		if code != 2 || !strings.Contains(errOut, `ragforge-plan `+cmd+`: unknown --embedder "word2vec"`) {
			t.Errorf("%s --embedder word2vec: exit %d, stderr %s", cmd, code, errOut)
		}
	}
}

// TestCallWithTheOfflineEmbedderOffersSemanticSearch stores Offline
// embeddings of three notes on the real server, and runs semantic_search
// through the command: refused without an embedder, and with
// --embedder offline the note sharing the query's words comes first.
func TestCallWithTheOfflineEmbedderOffersSemanticSearch(t *testing.T) {
	d := neo4jtest.Open(t)
	notes := writeFile(t, "notes.yaml", notesConfig)
	m, err := config.Load(notes)
	if err != nil {
		t.Fatal(err)
	}
	vi := m.Entity("Note").VectorIndexes[0]
	for id, text := range map[string]string{
		"n1": "the chess club meets on tuesdays",
		"n2": "tomato plants need sun and water",
		"n3": "sailing lessons at the lake",
	} {
		vec, err := embedder.Offline{}.Embed(context.Background(), text, vi)
		if err != nil {
			t.Fatal(err)
		}
		neo4jtest.Run(t, d, "CREATE (:Note {id: $id, text: $text, embedding: $vec})", map[string]any{"id": id, "text": text, "vec": vec})
	}
	neo4jtest.Run(t, d, "CREATE VECTOR INDEX note_embeddings FOR (n:Note) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: 64, `vector.similarity_function`: 'cosine'}}", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(120)", nil)
	call := append([]string{"call", notes, "--tool", "semantic_search", "--format", "json", "--args", `{"entity_type":"Note","query":"when does the Chess Club meet?","top_k":3}`}, serverFlags(t)...)
	if code, out, errOut := execute(t, call...); code != 1 || !strings.Contains(out, `unknown tool \"semantic_search\"`) {
		t.Errorf("without an embedder: exit %d, stdout %s, stderr %s; want semantic_search refused", code, out, errOut)
	}
	code, out, errOut := execute(t, append(call, "--embedder", "offline")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Entities []struct {
			ID    string  `json:"id"`
			Score float64 `json:"score"`
		} `json:"entities"`
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(res.Entities) == 0 || res.Entities[0].ID != "n1" {
		t.Errorf("want n1 first:\n%s", out)
	}
	// The answer and the tool's description say the vectors are lexical
	// and how to serve a real model.
	lexical := embedder.Caveat(embedder.Offline{})
	if !slices.Contains(res.Notes, lexical) || !strings.Contains(lexical, "not semantic") || !strings.Contains(lexical, "--embedder openai") {
		t.Errorf("notes %q; want %q", res.Notes, lexical)
	}
	code, out, errOut = execute(t, append([]string{"tools", notes, "--format", "mcp", "--embedder", "offline"}, serverFlags(t)...)...)
	if code != 0 || !strings.Contains(out, lexical) {
		t.Errorf("tools --embedder offline: exit %d, stderr %s; want semantic_search's description to say %q:\n%s", code, errOut, lexical, out)
	}
	// docs/embeddings.md's flags for an OpenAI-compatible server (OpenAI, Ollama,
	// vLLM, text-embeddings-inference), here a local one answering with
	// the offline vectors: the query is embedded there, and neither the
	// answer nor the description says lexical.
	srv := embedtest.New(t)
	srv.Dimensions = vi.Dimensions // a model whose vectors fit the index
	openai := []string{"--embedder", "openai", "--embedder-url", srv.URL, "--embedder-model", "nomic-embed-text"}
	code, out, errOut = execute(t, append(call, openai...)...)
	res.Entities, res.Notes = nil, nil
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || len(res.Entities) == 0 || res.Entities[0].ID != "n1" || srv.Requests() != 1 {
		t.Fatalf("--embedder openai: exit %d (%v), %d requests, stderr %s:\n%s", code, err, srv.Requests(), errOut, out)
	}
	if strings.Contains(strings.Join(res.Notes, " "), "lexical") {
		t.Errorf("--embedder openai: notes %q say lexical", res.Notes)
	}
	code, out, _ = execute(t, append([]string{"tools", notes, "--format", "mcp"}, append(openai, serverFlags(t)...)...)...)
	if code != 0 || !strings.Contains(out, "semantic_search") || strings.Contains(out, "lexical") {
		t.Errorf("tools --embedder openai: exit %d; want semantic_search, not lexical:\n%s", code, out)
	}
}

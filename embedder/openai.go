package embedder

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ragforge/ragforge/model"
)

// Defaults of [OpenAI].
const (
	// DefaultBaseURL is OpenAI's API root.
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultTimeout bounds one embeddings request, so a stalled service
	// fails the call instead of holding it.
	DefaultTimeout = 30 * time.Second
	// maxResponse bounds the bytes read of one answer (a 4096-dimension
	// vector is about 100 kB of JSON).
	maxResponse = 8 << 20
	// maxSummary bounds how much of an error body an error quotes.
	maxSummary = 300
)

// OpenAI embeds text with an OpenAI-compatible embeddings API:
// POST {BaseURL}/embeddings with {"model", "input"} and the key as a
// Bearer token. It works with OpenAI, with Ollama's OpenAI compatibility
// (BaseURL http://localhost:11434/v1, no key) and with other servers that
// speak the same API.
//
// The model is the one the vector index names (`model:` in the config),
// since the vectors stored in the index were made with it and another
// model's vectors are not comparable; Model is used for indexes that name
// none. The answer must have exactly the index's dimensions. For OpenAI's
// text-embedding-3 models, which can shorten their vectors, the request
// asks for the index's dimensions.
//
// Set the fields before the first call; OpenAI is then safe for
// concurrent use.
type OpenAI struct {
	// BaseURL is the API root "/embeddings" is appended to
	// (DefaultBaseURL if "").
	BaseURL string
	// APIKey is sent as "Authorization: Bearer KEY" when not "".
	APIKey string
	// Model embeds for vector indexes whose config names no model.
	Model string
	// Timeout bounds each request (DefaultTimeout if zero).
	Timeout time.Duration
	// Client sends the requests (http.DefaultClient if nil).
	Client *http.Client
}

// embeddingsRequest is the body of POST /embeddings.
type embeddingsRequest struct {
	Model string `json:"model"`
	// Input is one text, or a list of texts for EmbedBatch.
	Input      any `json:"input"`
	Dimensions int `json:"dimensions,omitempty"`
}

// embeddingsResponse is the part of the answer Embed reads.
type embeddingsResponse struct {
	Data []struct {
		Embedding []float32 `json:"embedding"`
		// Index is the position of the input this embedding is of.
		Index *int `json:"index"`
	} `json:"data"`
}

// Endpoint returns the URL requests are sent to, or why BaseURL is not
// usable (so a command can refuse a bad URL before serving).
func (o *OpenAI) Endpoint() (string, error) {
	base := o.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("embedder: base URL %q is not an http(s) URL (e.g. %s, or http://localhost:11434/v1 for Ollama)", base, DefaultBaseURL)
	}
	if u.User != nil {
		return "", fmt.Errorf("embedder: base URL %s carries credentials; give the key as the API key instead", u.Redacted())
	}
	return strings.TrimSuffix(u.String(), "/") + "/embeddings", nil
}

// Embed asks the service for the embedding of text with the index's model
// and checks it has the index's dimensions.
func (o *OpenAI) Embed(ctx context.Context, text string, index *model.VectorIndex) ([]float32, error) {
	vecs, err := o.request(ctx, []string{text}, false, index)
	if err != nil {
		return nil, err
	}
	return vecs[0], nil
}

// EmbedBatch asks the service for the embeddings of texts in one request
// (the API's array input), in their order, each checked to have the
// index's dimensions.
func (o *OpenAI) EmbedBatch(ctx context.Context, texts []string, index *model.VectorIndex) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	return o.request(ctx, texts, true, index)
}

// request embeds texts with the index's model, sent as a list when
// asList and as the one text otherwise, and returns their vectors in
// order.
func (o *OpenAI) request(ctx context.Context, texts []string, asList bool, index *model.VectorIndex) ([][]float32, error) {
	dims, err := dimensions(index)
	if err != nil {
		return nil, err
	}
	for _, text := range texts {
		if strings.TrimSpace(text) == "" {
			return nil, errNothingToEmbed
		}
	}
	endpoint, err := o.Endpoint()
	if err != nil {
		return nil, err
	}
	name := index.Model
	if name == "" {
		name = o.Model
	}
	if name == "" {
		return nil, fmt.Errorf("embedder: vector index %s names no model and no default model is set (give the index model: NAME in the config, or set the embedder's model)", index.Name)
	}
	req := embeddingsRequest{Model: name, Input: texts[0]}
	if asList {
		req.Input = texts
	}
	if strings.HasPrefix(name, "text-embedding-3") {
		req.Dimensions = dims
	}
	vecs, err := o.post(ctx, endpoint, req, len(texts))
	if err != nil {
		return nil, err
	}
	for _, vec := range vecs {
		if len(vec) != dims {
			return nil, fmt.Errorf("embedder: model %s returned %d dimensions, but vector index %s has %d (use a model with %d dimensions, or declare dimensions: %d on the index and rebuild it)", name, len(vec), index.Name, dims, dims, len(vec))
		}
	}
	return vecs, nil
}

// post sends one embeddings request and returns the n vectors of the
// answer, in input order.
func (o *OpenAI) post(ctx context.Context, endpoint string, body embeddingsRequest, n int) ([][]float32, error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	reqCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("embedder: encoding the request: %w", err)
	}
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, endpoint, bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("embedder: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	client := o.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if reqCtx.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("embedder: POST %s: no answer within %v", endpoint, timeout)
		}
		return nil, fmt.Errorf("embedder: POST %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("embedder: POST %s: reading the answer: %w", endpoint, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embedder: POST %s (model %s): %s: %s%s", endpoint, body.Model, resp.Status, summarize(data), hint(resp.StatusCode))
	}
	if len(data) > maxResponse {
		return nil, fmt.Errorf("embedder: POST %s: the answer is larger than %d bytes", endpoint, maxResponse)
	}
	var out embeddingsResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("embedder: POST %s: the answer is not an embeddings response (%v): %s", endpoint, err, summarize(data))
	}
	if len(out.Data) != n {
		return nil, fmt.Errorf("embedder: POST %s: the answer holds %d embeddings, want %d", endpoint, len(out.Data), n)
	}
	vecs := make([][]float32, n)
	for i, d := range out.Data {
		// Servers answer in input order and say so in index; one that
		// leaves index out (all zero) is taken in order.
		at := i
		if d.Index != nil {
			at = *d.Index
		}
		if at < 0 || at >= n || vecs[at] != nil {
			return nil, fmt.Errorf("embedder: POST %s: the answer's embedding %d has index %d, which is not one of 0..%d once", endpoint, i, at, n-1)
		}
		vecs[at] = d.Embedding
	}
	return vecs, nil
}

// summarize returns the message of an error body: the "error.message" (or
// "error" string) of a JSON answer, else the body's text on one line, cut
// to a readable length.
func summarize(body []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	msg := ""
	if json.Unmarshal(body, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(e.Error, &obj) == nil && obj.Message != "":
			msg = obj.Message
		case json.Unmarshal(e.Error, &s) == nil:
			msg = s
		}
	}
	if msg == "" {
		msg = string(body)
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if msg == "" {
		return "(empty body)"
	}
	if r := []rune(msg); len(r) > maxSummary {
		msg = string(r[:maxSummary]) + "…"
	}
	return msg
}

// hint says what usually causes an error status.
func hint(status int) string {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return " (check the API key)"
	case http.StatusNotFound:
		return " (check the base URL, which ends in /v1 for OpenAI and Ollama, and that the model exists there)"
	}
	return ""
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/mcpserver"
)

// sampleQuestion is one of the quickstart's questions about net/http: what
// a person asks, the tool call an agent answers it with on the code-RAG
// config, and the columns one entity of the answer shows.
type sampleQuestion struct {
	question string
	tool     string
	// args is JSON as written here, so the printed call is the one sent,
	// keys in the order a reader expects.
	args    string
	columns func(e sampleEntity) []any
}

// netHTTP keeps a question to net/http and its subpackages, tests left
// out, whatever else the database holds (an earlier `fixture load` of the
// whole standard library, say).
const netHTTP = `{"field": "file", "operator": "STARTS WITH", "value": "net/http/"}, ` +
	`{"not": [{"field": "file", "operator": "ENDS WITH", "value": "_test.go"}]}`

// sampleQuestions show four kinds of question the tools answer in one
// call each: ordering by a computed field (line_count is no stored
// property), a relationship test (the types containing a ServeHTTP method,
// i.e. the http.Handler implementations), alternatives of text tests, and
// the call graph (what calls DetectContentType: where net/http sniffs a
// body's type, in its subpackages too; CALLS comes from Go's type checker
// when the fixture loads).
var sampleQuestions = []sampleQuestion{
	{
		question: "Which are the 10 largest functions and methods of net/http?",
		tool:     "query_entities",
		args: `{"entity_type": "Scope", "conditions": [{"field": "type", "operator": "IN", "value": ["function", "method"]}, ` + netHTTP + `], ` +
			`"order_by": {"field": "line_count", "direction": "DESC"}, "fields": ["name", "file", "startLine", "line_count"], "limit": 10}`,
		columns: func(e sampleEntity) []any {
			return []any{fmt.Sprint(e.field("line_count"), " lines"), e.field("name"), fmt.Sprint(e.field("file"), ":", e.field("startLine"))}
		},
	},
	{
		question: "Which types of net/http implement http.Handler, i.e. declare a ServeHTTP method?",
		tool:     "query_entities",
		args: `{"entity_type": "Scope", "conditions": [{"via": "CONTAINS", "direction": "outgoing", "entity": "Scope", ` +
			`"conditions": [{"field": "name", "operator": "=", "value": "ServeHTTP"}]}, ` + netHTTP + `], ` +
			`"order_by": [{"field": "file"}, {"field": "name"}], "fields": ["name", "file"], "limit": 50}`,
		columns: func(e sampleEntity) []any { return []any{e.field("name"), e.field("file")} },
	},
	{
		question: "Which functions of net/http return a Handler?",
		tool:     "query_entities",
		args: `{"entity_type": "Scope", "conditions": [{"field": "type", "operator": "=", "value": "function"}, ` + netHTTP + `, ` +
			`{"any_of": [{"field": "signature", "operator": "ENDS WITH", "value": ") Handler"}, ` +
			`{"field": "signature", "operator": "ENDS WITH", "value": ") http.Handler"}]}], ` +
			`"order_by": [{"field": "file"}, {"field": "name"}], "fields": ["signature", "file"], "limit": 50}`,
		columns: func(e sampleEntity) []any { return []any{e.field("signature"), e.field("file")} },
	},
	{
		question: "What calls DetectContentType, i.e. where does net/http sniff a body's content type?",
		tool:     "query_entities",
		args: `{"entity_type": "Scope", "conditions": [{"via": "CALLS", "direction": "outgoing", "entity": "Scope", ` +
			`"conditions": [{"field": "name", "operator": "=", "value": "DetectContentType"}, {"field": "file", "operator": "=", "value": "net/http/sniff.go"}]}, ` + netHTTP + `], ` +
			`"order_by": [{"field": "file"}, {"field": "startLine"}], "fields": ["name", "signature", "file", "startLine"], "limit": 50}`,
		columns: func(e sampleEntity) []any {
			return []any{e.field("signature"), fmt.Sprint(e.field("file"), ":", e.field("startLine"))}
		},
	},
}

// sampleEntity is one entity of a tool result, as the server sends it.
type sampleEntity struct {
	Properties map[string]any `json:"properties"`
	Computed   map[string]any `json:"computed"`
}

// field is a property or computed field of the entity ("?" when absent,
// so a missing value shows instead of vanishing from a line).
func (e sampleEntity) field(name string) any {
	if v, ok := e.Computed[name]; ok {
		return v
	}
	if v, ok := e.Properties[name]; ok {
		return v
	}
	return "?"
}

// sampleAnswer is what the server answered to one sample question.
type sampleAnswer struct {
	Entities  []sampleEntity `json:"entities"`
	Truncated bool           `json:"truncated"`
}

// runDemo connects to a running `serve` of the code-RAG config as an MCP
// client and asks it the sample questions (`ragforge-plan demo`): the
// quickstart's proof that an agent's tools answer on the graph, and a way
// to check any such server by hand.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("demo", stderr,
		"usage: ragforge-plan demo [--url URL] [--token-file FILE] [--timeout D]",
		"Asks a running `ragforge-plan serve testdata/configs/valid/code-rag.yaml --transport http`, as an MCP client",
		"(the official Go SDK), four questions about net/http (`fixture load --src $(go env GOROOT)/src/net/http`",
		"loads it), and prints each question, the tool call that answers it and the answer. scripts/quickstart runs it.",
	)
	url := fs.String("url", "http://127.0.0.1:8080"+mcpserver.Path, "the server's MCP endpoint")
	tokenFile := fs.String("token-file", "", "send the bearer token on the first line of `FILE` (one of serve's --tokens)")
	timeout := fs.Duration("timeout", 60*time.Second, "time limit of the whole demo: connecting and the four calls")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "ragforge-plan demo: unexpected argument %q\n", pos[0])
		fs.Usage()
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintln(stderr, "ragforge-plan demo: --timeout must be positive")
		return 2
	}
	token := ""
	if *tokenFile != "" {
		if token, err = firstLine(*tokenFile); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan demo: --token-file: %v\n", err)
			return 2
		}
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if _, err := askSampleQuestions(ctx, *url, token, stdout); err != nil {
		fmt.Fprintf(stderr, "ragforge-plan demo: %v\n", err)
		return 1
	}
	return 0
}

// askSampleQuestions connects to the MCP endpoint url (with the bearer
// token, when not empty), asks every sample question, prints each with its
// call and answer to w, and returns the answers, which tests hold to
// answers computed from the parsed source.
func askSampleQuestions(ctx context.Context, url, token string, w io.Writer) ([]sampleAnswer, error) {
	// The SDK reports a 401 as a bare "Unauthorized"; noting it here lets
	// the error say what to do about the token.
	var refused atomic.Bool
	withToken := tokenTransport(token)
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, HTTPClient: &http.Client{
		Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			resp, err := withToken.RoundTrip(r)
			if err == nil && resp.StatusCode == http.StatusUnauthorized {
				refused.Store(true)
			}
			return resp, err
		}),
	}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ragforge-plan demo", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		hint := "is `ragforge-plan serve testdata/configs/valid/code-rag.yaml --transport http` running there?"
		switch {
		case refused.Load() && token == "":
			hint = "the server wants a bearer token: give --token-file with one of its --tokens"
		case refused.Load():
			hint = "the server refused the token: --token-file must hold one of its --tokens"
		}
		return nil, fmt.Errorf("connecting to %s: %w (%s)", url, err, hint)
	}
	defer cs.Close()
	offered := map[string]bool{}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the tools of %s: %w", url, err)
		}
		offered[t.Name] = true
	}
	fmt.Fprintf(w, "Connected to %s as an MCP client: %d tools. Four questions an agent could ask:\n", url, len(offered))
	var answers []sampleAnswer
	for i, q := range sampleQuestions {
		if !offered[q.tool] {
			return nil, fmt.Errorf("%s offers no %s tool: serve testdata/configs/valid/code-rag.yaml there", url, q.tool)
		}
		fmt.Fprintf(w, "\n%d. %s\n   %s %s\n", i+1, q.question, q.tool, q.args)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: q.tool, Arguments: json.RawMessage(q.args)})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", q.tool, err)
		}
		if res.IsError {
			return nil, fmt.Errorf("%s answered with an error: %s", q.tool, resultText(res))
		}
		var a sampleAnswer
		b, err := json.Marshal(res.StructuredContent)
		if err == nil {
			// Numbers as sent: a float64 would print line 100000 as 1e+05.
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			err = dec.Decode(&a)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: reading its result: %w", q.tool, err)
		}
		if len(a.Entities) == 0 {
			return nil, errors.New(q.tool + " found nothing: is net/http loaded? " +
				"(ragforge-plan fixture load --src $(go env GOROOT)/src/net/http)")
		}
		more := ""
		if a.Truncated {
			more = ", more beyond the limit"
		}
		fmt.Fprintf(w, "   → %d entities%s:\n", len(a.Entities), more)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, e := range a.Entities {
			var cells []string
			for _, c := range q.columns(e) {
				cells = append(cells, fmt.Sprint(c))
			}
			fmt.Fprintf(tw, "     %s\n", strings.Join(cells, "\t"))
		}
		tw.Flush()
		answers = append(answers, a)
	}
	return answers, nil
}

// resultText is the text content of a tool result.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// tokenTransport sends every request with the bearer token (none when it
// is empty), the way a client configured with an Authorization header does.
func tokenTransport(token string) http.RoundTripper {
	next := http.DefaultTransport.(*http.Transport).Clone()
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		if token != "" {
			r = r.Clone(r.Context())
			r.Header.Set("Authorization", "Bearer "+token)
		}
		return next.RoundTrip(r)
	})
}

// roundTripper is a function as an http.RoundTripper.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

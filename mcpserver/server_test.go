package mcpserver

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/tools"
)

const codeRAG = "../testdata/configs/valid/code-rag.yaml"

// newEngine builds an engine without a server (tools are listed and calls
// validated; nothing runs on Neo4j) with the given custom tools.
func newEngine(t *testing.T, custom ...tools.CustomTool) *engine.Engine {
	t.Helper()
	m, err := config.Load(codeRAG)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Tools: tools.Options{Aggregations: true, CustomTools: custom}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// connect runs s on an in-memory transport and returns a client session.
func connect(t *testing.T, s *Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func listNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func problems(t *testing.T, res *mcp.CallToolResult) []tools.Problem {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var ce tools.CallError
	if err := json.Unmarshal(b, &ce); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return ce.Problems
}

func TestToolsListIsTheEngineCatalogMarkedReadOnly(t *testing.T) {
	e := newEngine(t)
	s, err := New(e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tl := range e.Tools().Tools {
		want = append(want, tl.Name)
	}
	var got []string
	for _, tl := range res.Tools {
		got = append(got, tl.Name)
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", tl.Name)
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("tools/list %v, want %v", got, want)
	}
}

func TestBadCallIsAnErrorResultWithTheValidChoices(t *testing.T) {
	s, err := New(newEngine(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, connect(t, s, nil), "query_entities", map[string]any{"entity_type": "Scop"})
	ps := problems(t, res)
	if !res.IsError || len(ps) != 1 || ps[0].Path != "/entity_type" || !slices.Contains(ps[0].Valid, "Scope") ||
		!strings.Contains(text(res), "(valid: Scope, File, Directory, ExternalLibrary, Change)") {
		t.Errorf("isError %v, text %q, problems %+v", res.IsError, text(res), ps)
	}
}

func TestANonObjectResultIsWrappedAsStructuredContent(t *testing.T) {
	hello := tools.CustomTool{Name: "hello", Description: "Say hello.", ReadOnly: true,
		Handler: func(context.Context, json.RawMessage) (any, error) { return "hi", nil }}
	s, err := New(newEngine(t, hello), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, connect(t, s, nil), "hello", nil)
	b, _ := json.Marshal(res.StructuredContent)
	if res.IsError || string(b) != `{"result":"hi"}` || text(res) != `{"result":"hi"}` {
		t.Errorf("isError %v, structured %s, text %q", res.IsError, b, text(res))
	}
}

// TestAnUnencodableResultIsAToolErrorSayingWhere: a result holding a
// float JSON has no number for (a tool's bug: the shipped tools give
// none) answers as a tool error naming the tool, the value and where it
// is, not encoding/json's bare "json: unsupported value: NaN".
func TestAnUnencodableResultIsAToolErrorSayingWhere(t *testing.T) {
	nan := tools.CustomTool{Name: "nan", Description: "Answer NaN.", ReadOnly: true,
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return map[string]any{"ok": 1, "scores": []float64{0.5, math.Inf(1)}}, nil
		}}
	s, err := New(newEngine(t, nan), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, connect(t, s, nil), "nan", nil)
	want := "nan ran, but its result cannot be sent: cannot encode as JSON: the value at .Custom.scores[1] is +Inf, which JSON has no number for"
	if !res.IsError || !strings.Contains(text(res), want) {
		t.Errorf("isError %v, text %q; want an error saying %q", res.IsError, text(res), want)
	}
}

func TestSearchToolsIsListedAloneAndTheToolsItFindsAreCallable(t *testing.T) {
	s, err := New(newEngine(t), Options{SearchTools: true})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil)
	if names := listNames(t, cs); !slices.Equal(names, []string{SearchToolsName}) {
		t.Fatalf("tools/list %v, want only %s", names, SearchToolsName)
	}
	res := call(t, cs, SearchToolsName, map[string]any{"query": "count the scopes grouped by type"})
	var found struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &found); err != nil || res.IsError || len(found.Tools) == 0 {
		t.Fatalf("search_tools: %s (%v)", b, err)
	}
	if found.Tools[0].Name != "aggregate_entities" || len(found.Tools[0].InputSchema) == 0 {
		t.Errorf("search_tools ranked %s first, want aggregate_entities with its schema", found.Tools[0].Name)
	}
	// An unlisted tool is called like a listed one: the engine answers (here
	// with the problems of a bad call), not "unknown tool".
	res = call(t, cs, "aggregate_entities", map[string]any{"entity_type": "Scope"})
	if ps := problems(t, res); !res.IsError || len(ps) == 0 || !strings.Contains(text(res), "operation") {
		t.Errorf("aggregate_entities: isError %v, %q", res.IsError, text(res))
	}
	if res := call(t, cs, SearchToolsName, map[string]any{"query": " "}); !res.IsError || problems(t, res)[0].Path != "/query" {
		t.Errorf("empty query: isError %v, %q", res.IsError, text(res))
	}
}

// blockingTool is a custom tool that runs until release is closed.
func blockingTool(started chan<- struct{}, release <-chan struct{}) tools.CustomTool {
	return tools.CustomTool{Name: "wait", Description: "Wait until released.", ReadOnly: true,
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			started <- struct{}{}
			<-release
			return map[string]any{"waited": true}, nil
		}}
}

func TestDrainWaitsForRunningCallsAndRefusesNewOnes(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	s, err := New(newEngine(t, blockingTool(started, release)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil)
	running := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wait"})
		running <- res
	}()
	<-started
	drained := make(chan error, 1)
	go func() { drained <- s.Drain(context.Background()) }()
	for !s.isDraining() {
		time.Sleep(time.Millisecond)
	}
	if res := call(t, cs, "query_entities", map[string]any{"entity_type": "Scope"}); !res.IsError || !strings.Contains(text(res), "shutting down") {
		t.Errorf("a call while draining: isError %v, %q", res.IsError, text(res))
	} else if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), `"retryable":true`) {
		t.Errorf("a call while draining: structured content %s, want retryable (it did not run)", b)
	}
	select {
	case err := <-drained:
		t.Fatalf("Drain returned (%v) while a call was running", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-drained; err != nil {
		t.Errorf("Drain: %v", err)
	}
	if res := <-running; res == nil || res.IsError {
		t.Errorf("the running call: %+v", res)
	}
}

func TestDrainGivesUpWhenTheGracePeriodEnds(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	s, err := New(newEngine(t, blockingTool(started, release)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil)
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wait"})
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := s.Drain(ctx); err == nil || !strings.Contains(err.Error(), "still running") {
		t.Errorf("Drain: %v, want calls still running", err)
	}
}

// progressLog records a client's progress notifications.
type progressLog struct {
	mu  sync.Mutex
	got []*mcp.ProgressNotificationParams
}

func (l *progressLog) handler(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
	l.mu.Lock()
	l.got = append(l.got, r.Params)
	l.mu.Unlock()
}

// check waits up to 5 s for the last notification (the client handles
// them apart from the result), then checks there were a start (progress
// 0, token p1), ticks that rise and a finish (progress = total) naming
// the outcome.
func (l *progressLog) check(t *testing.T, outcome string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		l.mu.Lock()
		n := len(l.got)
		last := l.got[max(n-1, 0):]
		l.mu.Unlock()
		if n >= 3 && last[0].Total > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	got := l.got
	if len(got) < 3 || got[0].Progress != 0 || got[0].ProgressToken != "p1" {
		t.Fatalf("notifications %+v, want a start, ticks and a finish", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Progress <= got[i-1].Progress {
			t.Errorf("progress went from %v to %v", got[i-1].Progress, got[i].Progress)
		}
	}
	if last := got[len(got)-1]; last.Total != last.Progress || !strings.Contains(last.Message, outcome) {
		t.Errorf("last notification %+v, want progress = total and the outcome", last)
	}
}

func TestProgressStartsTicksAndFinishesBeforeTheResult(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	s, err := New(newEngine(t, blockingTool(started, release)), Options{ProgressInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var log progressLog
	cs := connect(t, s, &mcp.ClientOptions{ProgressNotificationHandler: log.handler})
	log.callWait(t, cs, started, release)
}

// callWait calls blockingTool's wait with progress token p1, releasing it
// 40 ms after it starts, and checks the notifications.
func (l *progressLog) callWait(t *testing.T, cs *mcp.ClientSession, started <-chan struct{}, release chan<- struct{}) {
	t.Helper()
	go func() {
		<-started
		time.Sleep(40 * time.Millisecond)
		close(release)
	}()
	params := &mcp.CallToolParams{Name: "wait"}
	params.SetProgressToken("p1")
	if res, err := cs.CallTool(context.Background(), params); err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	l.check(t, "wait: ")
}

// TestAWriteWhoseCommitWentUnansweredIsARetryableResultThatMayHaveApplied:
// the model reads that the write may have been applied and that it may
// retry, in the text and the structured content.
func TestAWriteWhoseCommitWentUnansweredIsARetryableResultThatMayHaveApplied(t *testing.T) {
	res := errorResult(context.Background(), &engine.CommitUnknownError{Cause: "Connection lost during commit: EOF", Err: context.DeadlineExceeded})
	sc, _ := res.StructuredContent.(map[string]any)
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || sc["retryable"] != true || sc["may_have_applied"] != true || !strings.Contains(text, "may have been applied") || !strings.Contains(text, "retrying the same call is safe") {
		t.Errorf("got %+v, %q", sc, text)
	}
}

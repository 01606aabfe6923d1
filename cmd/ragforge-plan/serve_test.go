package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tools"
)

// clientDir holds the MCP client the serve tests drive the server with:
// the official TypeScript SDK, pinned by package-lock.json and installed by
// scripts/test (npm ci).
const clientDir = "../../mcpserver/testdata/client"

// slowQuery keeps Neo4j busy for a few seconds (3.5 s on the project's
// machine), long enough for periodic progress and for a shutdown to find
// it running.
const slowQuery = "UNWIND range(1, 150000000) AS x RETURN count(x) AS n"

// requireClient returns the node command, or skips (fails under CI=true)
// when the client is not installed.
func requireClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(clientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		msg := fmt.Sprintf("the MCP test client is not installed (%v): scripts/test installs it with `npm ci --prefix mcpserver/testdata/client`", err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true: the MCP tests must run)")
		}
		t.Skip(msg)
	}
	return node
}

// buildCommand builds ragforge-plan for the client to start.
func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ragforge-plan")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// clientCall is what the client saw of one tools/call.
type clientCall struct {
	Name              string          `json:"name"`
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Text              string          `json:"text"`
	Progress          []struct {
		Progress float64 `json:"progress"`
		Total    float64 `json:"total"`
		Message  string  `json:"message"`
	} `json:"progress"`
}

// clientStep is what the client saw of one step.
type clientStep struct {
	Op    string `json:"op"`
	Tools []struct {
		Name     string `json:"name"`
		ReadOnly bool   `json:"readOnly"`
	} `json:"tools"`
	clientCall
	Results []clientCall `json:"results"`
}

// runClient runs the client with the steps and returns its exit code and
// standard output.
func runClient(t *testing.T, node string, steps any, args ...string) (int, string) {
	t.Helper()
	return runClientScript(t, node, "client.mjs", steps, args...)
}

// runClientScript runs one of the client scripts in clientDir with the
// steps (written to a file, its first argument) and args, and returns its
// exit code and standard output.
func runClientScript(t *testing.T, node, script string, steps any, args ...string) (int, string) {
	t.Helper()
	data, err := json.Marshal(steps)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "steps.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script, file}, args...)...)
	cmd.Dir = clientDir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("client: %v", err)
		}
		code = exit.ExitCode()
	}
	t.Logf("client stderr:\n%s", stderr.String())
	return code, string(out)
}

// mcpFixture is net/http loaded into Neo4j with its full-text index, the
// steps the client runs on it, and a check of what the client saw.
type mcpFixture struct {
	d     neo4j.DriverWithContext
	g     *fixture.Graph
	tools []string // the catalog the server must list
	flags []string // serve's flags: connection, raw Cypher, stats store
	file  string   // a file with 3 to 50 scopes, for explore_relationships
	files []fixture.File
}

func loadMCPFixture(t *testing.T) *mcpFixture {
	t.Helper()
	d := neo4jtest.Open(t)
	g := fixturetest.LoadNetHTTP(t, d)
	neo4jtest.Run(t, d, "CREATE FULLTEXT INDEX scope_text IF NOT EXISTS FOR (n:Scope) ON EACH [n.name, n.signature, n.source]", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(300)", nil)
	m, err := config.Load(codeRAG)
	if err != nil {
		t.Fatal(err)
	}
	// The catalog `serve` must list: the same engine options, capabilities
	// detected on the same server.
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tools: tools.Options{Aggregations: true, RawCypher: true}})
	if err != nil {
		t.Fatal(err)
	}
	f := &mcpFixture{d: d, g: g, flags: append(neo4jtest.Flags(t), "--raw-cypher", "--stats-store", filepath.Join(t.TempDir(), "usage.json"))}
	for _, tl := range e.Tools().Tools {
		f.tools = append(f.tools, tl.Name)
	}
	perFile := map[string]int{}
	for _, s := range g.Scopes {
		perFile[s.File]++
	}
	for _, fl := range g.Files {
		if n := perFile[fl.Path]; n >= 3 && n <= 50 && (f.file == "" || n > perFile[f.file]) {
			f.file = fl.Path
		}
	}
	f.files = g.Files[:6]
	return f
}

// waitRunning waits until Neo4j runs a query containing fragment (serve
// logs a call once, when it ends, so Neo4j's transactions say when it has
// started).
func (f *mcpFixture) waitRunning(t *testing.T, fragment string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		res, err := neo4j.ExecuteQuery(t.Context(), f.d, "SHOW TRANSACTIONS YIELD currentQuery WHERE currentQuery CONTAINS $q RETURN count(*) AS n",
			map[string]any{"q": fragment}, neo4j.EagerResultTransformer)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.Records[0].Get("n"); n.(int64) > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("Neo4j did not start a query with %q within a minute", fragment)
}

func (f *mcpFixture) getFile(path string) map[string]any {
	return map[string]any{"name": "get_entity_by_id", "arguments": map[string]any{"entity_type": "File", "id_value": path}}
}

// steps are the client's calls: every kind of tool, a bad call, and
// concurrent calls with one slow call that asks for progress.
func (f *mcpFixture) steps() []map[string]any {
	concurrent := []map[string]any{{"name": "run_cypher", "arguments": map[string]any{"query": slowQuery}, "progress": true}}
	for _, fl := range f.files {
		concurrent = append(concurrent, f.getFile(fl.Path))
	}
	call := func(name string, args map[string]any) map[string]any {
		return map[string]any{"op": "call", "name": name, "arguments": args}
	}
	return []map[string]any{
		{"op": "list"},
		call("query_entities", map[string]any{"entity_type": "Scope", "conditions": []any{map[string]any{"field": "name", "operator": "=", "value": "ServeHTTP"}}, "limit": 50}),
		call("get_entity_by_id", map[string]any{"entity_type": "File", "id_value": "net/http/server.go"}),
		call("fulltext_search", map[string]any{"entity_type": "Scope", "query": "ServeHTTP", "fields": []string{"name"}, "limit": 5}),
		call("explore_relationships", map[string]any{"start_entity_type": "File", "start_conditions": []any{map[string]any{"field": "path", "operator": "=", "value": f.file}}, "relationship_type": "CONTAINS", "direction": "outgoing", "depth": 1, "limit": 50}),
		call("aggregate_entities", map[string]any{"entity_type": "Scope", "operation": "COUNT", "group_by": "type"}),
		call("query_entities", map[string]any{"entity_type": "Scop"}),
		{"op": "concurrent", "calls": concurrent},
	}
}

// result is a decoded tool result.
type result struct {
	Entities []struct {
		ID         any            `json:"id"`
		Properties map[string]any `json:"properties"`
	} `json:"entities"`
	Groups []struct {
		Group string  `json:"group"`
		Value float64 `json:"value"`
	} `json:"groups"`
	Rows  []map[string]any `json:"rows"`
	Count int              `json:"count"`
	// A CallError's problems.
	Problems []tools.Problem `json:"problems"`
}

func decode(t *testing.T, c clientCall) result {
	t.Helper()
	var r result
	if err := json.Unmarshal(c.StructuredContent, &r); err != nil {
		t.Fatalf("%s: structured content: %v\n%s", c.Name, err, c.StructuredContent)
	}
	return r
}

// check verifies the client's view of f.steps against answers computed in
// Go from the parsed source.
func (f *mcpFixture) check(t *testing.T, out string) {
	t.Helper()
	var steps []clientStep
	if err := json.Unmarshal([]byte(out), &steps); err != nil || len(steps) != 8 {
		t.Fatalf("client output (%v):\n%s", err, out)
	}
	var listed []string
	for _, tl := range steps[0].Tools {
		listed = append(listed, tl.Name)
		if !tl.ReadOnly {
			t.Errorf("%s is not marked read-only", tl.Name)
		}
	}
	slices.Sort(listed)
	want := slices.Sorted(slices.Values(f.tools))
	if !slices.Equal(listed, want) || !slices.Contains(listed, "fulltext_search") {
		t.Errorf("tools/list: %v, want %v (with fulltext_search: the index is online)", listed, want)
	}
	for _, s := range steps[1:6] {
		var text, structured any
		json.Unmarshal([]byte(s.Text), &text)
		json.Unmarshal(s.StructuredContent, &structured)
		if s.IsError || structured == nil || !reflect.DeepEqual(text, structured) {
			t.Errorf("%s: isError %v; want the result as structured content and the same JSON as text", s.Name, s.IsError)
		}
	}
	serveHTTP, byType, inFile := 0, map[string]float64{}, 0
	for _, s := range f.g.Scopes {
		if s.Name == "ServeHTTP" {
			serveHTTP++
		}
		byType[s.Type]++
		if s.File == f.file {
			inFile++
		}
	}
	if r := decode(t, steps[1].clientCall); r.Count != serveHTTP {
		t.Errorf("query_entities: %d ServeHTTP scopes, want %d", r.Count, serveHTTP)
	}
	var serverGo fixture.File
	for _, fl := range f.g.Files {
		if fl.Path == "net/http/server.go" {
			serverGo = fl
		}
	}
	if r := decode(t, steps[2].clientCall); r.Count != 1 || r.Entities[0].Properties["lines"] != float64(serverGo.Lines) {
		t.Errorf("get_entity_by_id: %.300s, want lines %d", steps[2].Text, serverGo.Lines)
	}
	if r := decode(t, steps[3].clientCall); r.Count == 0 || r.Entities[0].Properties["name"] != "ServeHTTP" {
		t.Errorf("fulltext_search: %.300s", steps[3].Text)
	}
	if r := decode(t, steps[4].clientCall); r.Count != inFile {
		t.Errorf("explore_relationships: %d scopes in %s, want %d", r.Count, f.file, inFile)
	}
	got := map[string]float64{}
	for _, g := range decode(t, steps[5].clientCall).Groups {
		got[g.Group] = g.Value
	}
	if fmt.Sprint(got) != fmt.Sprint(byType) {
		t.Errorf("aggregate_entities: %v, want %v", got, byType)
	}
	bad := steps[6].clientCall
	if r := decode(t, bad); !bad.IsError || len(r.Problems) != 1 || !slices.Contains(r.Problems[0].Valid, "Scope") || !strings.Contains(bad.Text, "(valid: Scope, File") {
		t.Errorf("bad call: isError %v, text %q, structured %s", bad.IsError, bad.Text, bad.StructuredContent)
	}
	results := steps[7].Results
	slow := results[0]
	if r := decode(t, slow); slow.IsError || len(r.Rows) != 1 || r.Rows[0]["n"] != float64(150000000) {
		t.Errorf("slow call: %s %s", slow.Text, slow.StructuredContent)
	}
	// The start, and one while it ran (it takes longer than the 2 s
	// interval). The server sends the finish just before the result, but
	// this client dispatches notifications a tick later than responses and
	// may drop it, so it is not required here.
	p := slow.Progress
	if len(p) < 2 || p[0].Progress != 0 || p[0].Message != "running run_cypher" || p[1].Progress != 1 {
		t.Errorf("progress of the slow call: %+v, want the start (0) and a periodic one (1)", p)
	}
	for i, c := range results[1:] {
		if r := decode(t, c); c.IsError || r.Count != 1 || r.Entities[0].ID != f.files[i].Path {
			t.Errorf("concurrent call %d: %.300s", i, c.Text)
		}
	}
}

func TestServeAnswersTheOfficialMCPClientOnStdioWithAndWithoutSearchTools(t *testing.T) {
	node := requireClient(t)
	bin := buildCommand(t)
	f := loadMCPFixture(t)
	abs, err := filepath.Abs(codeRAG)
	if err != nil {
		t.Fatal(err)
	}
	serve := append([]string{"stdio", bin, "serve", abs}, f.flags...)
	code, out := runClient(t, node, f.steps(), serve...)
	if code != 0 {
		t.Fatalf("client exit %d: %s", code, out)
	}
	f.check(t, out)

	// --search-tools: one tool listed, the tools it finds callable.
	aggregate := map[string]any{"entity_type": "Scope", "operation": "COUNT", "group_by": "type"}
	code, out = runClient(t, node, []map[string]any{
		{"op": "list"},
		{"op": "call", "name": "search_tools", "arguments": map[string]any{"query": "count the scopes grouped by type"}},
		{"op": "call", "name": "aggregate_entities", "arguments": aggregate},
	}, append(serve, "--search-tools")...)
	var steps []clientStep
	if err := json.Unmarshal([]byte(out), &steps); code != 0 || err != nil || len(steps) != 3 {
		t.Fatalf("client exit %d (%v): %s", code, err, out)
	}
	if len(steps[0].Tools) != 1 || steps[0].Tools[0].Name != "search_tools" {
		t.Errorf("tools/list with --search-tools: %+v", steps[0].Tools)
	}
	var found struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(steps[1].StructuredContent, &found)
	if steps[1].IsError || len(found.Tools) == 0 || found.Tools[0].Name != "aggregate_entities" {
		t.Errorf("search_tools: %.300s", steps[1].Text)
	}
	if r := decode(t, steps[2].clientCall); steps[2].IsError || len(r.Groups) == 0 {
		t.Errorf("aggregate_entities, found by search_tools: %.300s", steps[2].Text)
	}
}

// server is a running `ragforge-plan serve --transport http`.
type server struct {
	cmd   *exec.Cmd
	url   string
	lines chan string // its stderr, line by line
}

func startHTTPServer(t *testing.T, bin string, args ...string) *server {
	t.Helper()
	return startHTTPServerFor(t, bin, codeRAG, args...)
}

// startHTTPServerFor serves config over HTTP on a free loopback port,
// without warming Neo4j's plan cache (the shared test server's planning
// is for the tests that measure it; args may give --warm-plans).
func startHTTPServerFor(t *testing.T, bin, config string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", config, "--transport", "http", "--addr", "127.0.0.1:0", "--warm-plans", "0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	s := &server{cmd: cmd, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	line := s.waitFor(t, " tools at http://")
	s.url = strings.Fields(line[strings.Index(line, "http://"):])[0]
	s.url = strings.TrimSuffix(s.url, ",")
	return s
}

// waitFor returns the first stderr line containing want.
func (s *server) waitFor(t *testing.T, want string) string {
	t.Helper()
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				t.Fatalf("serve exited before printing %q", want)
			}
			t.Log("serve: " + line)
			if strings.Contains(line, want) {
				return line
			}
		case <-timeout:
			t.Fatalf("serve did not print %q", want)
		}
	}
}

func TestServeOverHTTPRefusesClientsWithoutATokenAndFinishesCallsOnSIGTERM(t *testing.T) {
	node := requireClient(t)
	bin := buildCommand(t)
	f := loadMCPFixture(t)
	tokens := filepath.Join(t.TempDir(), "tokens.yaml")
	if err := os.WriteFile(tokens, []byte("- token: s3cret-one\n- {token: s3cret-two}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startHTTPServer(t, bin, append([]string{"--tokens", tokens}, f.flags...)...)
	for _, token := range []string{"", "wrong"} {
		code, out := runClient(t, node, []any{map[string]any{"op": "list"}}, "http", s.url, token)
		if code != 3 || !strings.Contains(out, `"code":401`) {
			t.Errorf("token %q: client exit %d, output %s; want a refused connection (401)", token, code, out)
		}
	}
	code, out := runClient(t, node, f.steps(), "http", s.url, "s3cret-two")
	if code != 0 {
		t.Fatalf("client exit %d: %s", code, out)
	}
	f.check(t, out)

	// SIGTERM while a call runs: the call finishes, then the server stops.
	s.waitFor(t, "msg=call tool=run_cypher") // the slow call of f.steps
	type done struct {
		code int
		out  string
	}
	finished := make(chan done, 1)
	go func() {
		code, out := runClient(t, node, []any{map[string]any{"op": "call", "name": "run_cypher", "arguments": map[string]any{"query": slowQuery}}}, "http", s.url, "s3cret-one")
		finished <- done{code, out}
	}()
	f.waitRunning(t, "range(1, 150000000)")
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	d := <-finished
	if d.code != 0 || !strings.Contains(d.out, `"n":150000000`) {
		t.Errorf("the call running at SIGTERM: client exit %d, %s", d.code, d.out)
	}
	s.waitFor(t, "serve: stopped")
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v", err)
	}
}

// TestServeRefusesATenantBoundTokenAtStartUp: a config without a tenant
// cannot scope a token's calls, so a token bound to a tenant would see
// every tenant's data.
func TestServeRefusesATenantBoundTokenAtStartUp(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(tokens, []byte(`[{"token": "a"}, {"token": "b", "tenant": "acme"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := execute(t, "serve", codeRAG, "--transport", "http", "--tokens", tokens)
	if code != 1 || !strings.Contains(errOut, `token 2 is bound to tenant "acme", but the config declares no tenant`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestServeOverHTTPNeedsTokensOffLoopback: without tokens the server is
// open, so it listens only where other machines cannot reach it.
func TestServeOverHTTPNeedsTokensOffLoopback(t *testing.T) {
	code, _, errOut := execute(t, "serve", codeRAG, "--transport", "http", "--addr", "0.0.0.0:0")
	if code != 2 || !strings.Contains(errOut, "is not a loopback address: give --tokens") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

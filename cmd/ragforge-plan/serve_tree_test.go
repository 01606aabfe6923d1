package main

import (
	"context"
	"encoding/json"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/internal/tree"
)

// rawStep is what raw-client.mjs saw of one step: a listing or a result,
// each as the SDK returned it.
type rawStep struct {
	Op    string `json:"op"`
	Tools []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations map[string]any  `json:"annotations"`
	} `json:"tools"`
	Name   string `json:"name"`
	Result struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
}

// runRawClient runs raw-client.mjs with the steps against `serve` started
// with args, and decodes what it printed.
func runRawClient(t *testing.T, node string, steps any, args ...string) []rawStep {
	t.Helper()
	code, out := runClientScript(t, node, "raw-client.mjs", steps, args...)
	if code != 0 {
		t.Fatalf("client exit %d: %.2000s", code, out)
	}
	var got []rawStep
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("client output (%v):\n%.2000s", err, out)
	}
	return got
}

// loadStandardLibraryTree parses $(go env GOROOT)/src and loads its
// Directory/File graph (no scopes or imports: the tree tools read only
// those) into the test database.
func loadStandardLibraryTree(t *testing.T) *fixture.Graph {
	t.Helper()
	d := neo4jtest.Open(t)
	src, err := fixture.GOROOTSrc()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	g, err := fixture.ParseDeclarations(src)
	if err != nil {
		t.Fatal(err)
	}
	parsed := time.Since(start)
	g.Scopes, g.Imports = nil, nil
	stats, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("standard library: %d directories, %d files; parse %v, load %v", len(g.Directories), len(g.Files), parsed.Round(time.Millisecond), stats.Duration.Round(time.Millisecond))
	return g
}

// treeCounts are the files, directories and bytes a tree tool must report
// for the parsed files keep passes, with the directories that hold them
// from root down (the root being the diagram's, computed by the caller).
func treeCounts(g *fixture.Graph, root string, keep func(p string) bool) (files, dirs int, size int64) {
	seen := map[string]bool{}
	for _, f := range g.Files {
		if !keep(f.Path) {
			continue
		}
		files++
		size += f.Size
		for d := path.Dir(f.Path); ; d = path.Dir(d) {
			seen[d] = true
			if d == root || d == "." {
				break
			}
		}
	}
	return files, len(seen), size
}

func under(dirs ...string) func(string) bool {
	return func(p string) bool {
		for _, d := range dirs {
			if strings.HasPrefix(p, d+"/") {
				return true
			}
		}
		return false
	}
}

// decodeDiagram reads a create_diagram or update_diagram_filters result,
// failing on an error result or a text that is not the structured content.
func decodeDiagram(t *testing.T, s rawStep) tree.DiagramResult {
	t.Helper()
	var d tree.DiagramResult
	var text, structured any
	if s.Result.IsError || len(s.Result.Content) != 1 {
		t.Fatalf("%s: isError %v, content %.500v", s.Name, s.Result.IsError, s.Result.Content)
	}
	if json.Unmarshal([]byte(s.Result.Content[0].Text), &text) != nil || json.Unmarshal(s.Result.StructuredContent, &structured) != nil || !reflect.DeepEqual(text, structured) {
		t.Errorf("%s: the text is not the structured content's JSON", s.Name)
	}
	if err := json.Unmarshal(s.Result.StructuredContent, &d); err != nil || d.Diagram == nil {
		t.Fatalf("%s: structured content %.500s: %v", s.Name, s.Result.StructuredContent, err)
	}
	return d
}

// checkFlow checks a diagram's React Flow form: every node with an id,
// type, position and data naming its path; one edge per non-root node, each
// between two of its nodes.
func checkFlow(t *testing.T, d tree.DiagramResult, root string) {
	t.Helper()
	ids := map[string]bool{}
	for _, n := range d.Nodes {
		if ids[n.ID] || n.Data.Path != n.ID || n.Type != n.Data.Kind || n.Data.Label != path.Base(n.ID) {
			t.Fatalf("node %+v (duplicate %v)", n, ids[n.ID])
		}
		ids[n.ID] = true
	}
	if len(d.Nodes) == 0 || d.Nodes[0].ID != root || d.Nodes[0].Position.X != 0 {
		t.Errorf("first node %+v, want the root %s in column 0", d.Nodes[:min(1, len(d.Nodes))], root)
	}
	if len(d.Edges) != len(d.Nodes)-1 {
		t.Errorf("%d edges for %d nodes", len(d.Edges), len(d.Nodes))
	}
	for _, e := range d.Edges {
		if !ids[e.Source] || !ids[e.Target] || e.ID == "" {
			t.Errorf("edge %+v is not between two nodes", e)
		}
	}
}

// TestServeTreeToolsDriveTheStandardLibraryThroughTheOfficialClient is the
// tree tools end to end: the whole standard library's Directory/File graph
// on Neo4j, `serve` of the file-tree config on stdio, the official
// TypeScript client listing and calling all three tools, every count
// checked against the parsed source, and the diagram made over MCP drawn
// by `diagram render`.
func TestServeTreeToolsDriveTheStandardLibraryThroughTheOfficialClient(t *testing.T) {
	node := requireClient(t)
	bin := buildCommand(t)
	g := loadStandardLibraryTree(t)
	abs, err := filepath.Abs(fileTree)
	if err != nil {
		t.Fatal(err)
	}
	flags := neo4jtest.Flags(t)
	// The tree holds no depth or mtime, which file-tree.yaml declares (the
	// tree tools read neither): serve it with the contradiction noted.
	serve := append([]string{bin, "serve", abs, "--serve-contradicted"}, flags...)
	call := func(name string, args map[string]any) map[string]any {
		return map[string]any{"op": "call", "name": name, "arguments": args}
	}
	// The first client creates the diagram; its id is needed by the second.
	start := time.Now()
	steps := runRawClient(t, node, []map[string]any{
		{"op": "list"},
		call(tree.CreateDiagram, map[string]any{"name": "net/http", "description": "the HTTP package",
			"filters": map[string]any{"path_patterns": []string{"net/http/**"}, "languages": []string{"go"}}}),
		call(tree.QueryFileTree, map[string]any{"filters": map[string]any{"path_patterns": []string{"net/**"}, "exclude_paths": []string{"**/*_test.go"}}, "limit": 20}),
	}, serve...)
	if len(steps) != 3 {
		t.Fatalf("%d steps", len(steps))
	}

	// tools/list: the three tree tools with their schemas and honest hints.
	listed := map[string]int{}
	for i, tl := range steps[0].Tools {
		listed[tl.Name] = i
	}
	// Only query_file_tree is read-only; create_diagram only adds (a
	// preset); update_diagram_filters overwrites a preset, so it keeps
	// MCP's defaults (destructive, not idempotent); all touch only the graph.
	// A read-only tool carries no destructiveHint, and its idempotentHint
	// is the SDK's zero value: MCP ignores both when readOnlyHint is true.
	annotations := map[string]string{
		tree.CreateDiagram:        `{"destructiveHint":false,"idempotentHint":false,"openWorldHint":false,"readOnlyHint":false}`,
		tree.QueryFileTree:        `{"idempotentHint":false,"openWorldHint":false,"readOnlyHint":true}`,
		tree.UpdateDiagramFilters: `{"idempotentHint":false,"openWorldHint":false,"readOnlyHint":false}`,
	}
	required := map[string][]string{tree.CreateDiagram: {"name"}, tree.QueryFileTree: nil, tree.UpdateDiagramFilters: {"diagram_id", "filters"}}
	for name, req := range required {
		i, ok := listed[name]
		if !ok {
			t.Errorf("tools/list lacks %s", name)
			continue
		}
		tl := steps[0].Tools[i]
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tl.InputSchema, &schema); err != nil || schema.Type != "object" || schema.Properties["filters"] == nil || !slices.Equal(schema.Required, req) {
			t.Errorf("%s: input schema %s (%v), want an object with filters, requiring %v", name, tl.InputSchema, err, req)
		}
		if got, _ := json.Marshal(tl.Annotations); string(got) != annotations[name] {
			t.Errorf("%s: annotations %s, want %s", name, got, annotations[name])
		}
	}

	// create_diagram: net/http's Go files, counted from the parsed source.
	created := decodeDiagram(t, steps[1])
	files, dirs, size := treeCounts(g, "net/http", under("net/http"))
	if s := created.Stats; s.Files != files || s.Directories != dirs || s.TotalSize != size || s.Nodes != files+dirs || s.HiddenBelowMaxDepth != 0 {
		t.Errorf("create_diagram stats %+v, want %d files, %d directories, %d bytes", s, files, dirs, size)
	}
	if !strings.HasPrefix(created.ID, "diagram-") || created.Action != (tree.Action{Type: "CREATE_DIAGRAM_TAB", DiagramID: created.ID}) || created.Name != "net/http" {
		t.Errorf("create_diagram: id %q, action %+v, name %q", created.ID, created.Action, created.Name)
	}
	checkFlow(t, created, "net/http")

	// query_file_tree: net/ without tests; a directory under net matches
	// net/** itself, so every one is counted.
	q := steps[2]
	var qr tree.QueryResult
	if err := json.Unmarshal(q.Result.StructuredContent, &qr); q.Result.IsError || err != nil {
		t.Fatalf("query_file_tree: isError %v (%v): %.500v", q.Result.IsError, err, q.Result.Content)
	}
	files, _, size = treeCounts(g, "net", func(p string) bool { return under("net")(p) && !strings.HasSuffix(p, "_test.go") })
	dirs = 0
	for _, d := range g.Directories {
		if d.Path == "net" || under("net")(d.Path) {
			dirs++
		}
	}
	if s := qr.Summary; s.Files != files || s.Directories != dirs || s.TotalSize != size || s.Languages["go"] != files || len(s.Languages) != 1 {
		t.Errorf("query_file_tree summary %+v, want %d go files, %d directories, %d bytes", s, files, dirs, size)
	}
	if len(qr.Nodes) != 20 || !qr.Truncated || qr.Nodes[0].Path != "net" || !strings.HasPrefix(qr.Answer, "net holds ") {
		t.Errorf("query_file_tree: %d nodes (truncated %v), first %v, answer %q", len(qr.Nodes), qr.Truncated, qr.Nodes[:min(1, len(qr.Nodes))], qr.Answer)
	}

	// update_diagram_filters, additive then not, and an unknown id.
	steps = runRawClient(t, node, []map[string]any{
		call(tree.UpdateDiagramFilters, map[string]any{"diagram_id": created.ID, "additive": true, "filters": map[string]any{"path_patterns": []string{"net/url/**"}}}),
		call(tree.UpdateDiagramFilters, map[string]any{"diagram_id": created.ID, "filters": map[string]any{"path_patterns": []string{"net/http/cgi/*.go"}}}),
		call(tree.UpdateDiagramFilters, map[string]any{"diagram_id": "diagram-nope", "filters": map[string]any{}}),
	}, serve...)
	added := decodeDiagram(t, steps[0])
	files, dirs, size = treeCounts(g, "net", under("net/http", "net/url"))
	if s := added.Stats; s.Files != files || s.Directories != dirs || s.TotalSize != size {
		t.Errorf("additive update stats %+v, want %d files, %d directories, %d bytes", s, files, dirs, size)
	}
	if added.Action != (tree.Action{Type: "UPDATE_DIAGRAM", DiagramID: created.ID}) || !slices.Equal(added.Filters.PathPatterns, []string{"net/http/**", "net/url/**"}) || !slices.Equal(added.Filters.Languages, []string{"go"}) {
		t.Errorf("additive update: action %+v, filters %+v", added.Action, added.Filters)
	}
	checkFlow(t, added, "net")
	replaced := decodeDiagram(t, steps[1])
	files, dirs, size = treeCounts(g, "net/http/cgi", func(p string) bool { return path.Dir(p) == "net/http/cgi" })
	if s := replaced.Stats; s.Files != files || s.Directories != dirs || s.TotalSize != size || files == 0 {
		t.Errorf("replacing update stats %+v, want %d files, %d directories, %d bytes", s, files, dirs, size)
	}
	if replaced.Action.Type != "UPDATE_DIAGRAM" || len(replaced.Filters.Languages) != 0 || !replaced.CreatedAt.Equal(created.CreatedAt) || !replaced.UpdatedAt.After(created.CreatedAt) {
		t.Errorf("replacing update: action %+v, filters %+v, created %v → %v, updated %v", replaced.Action, replaced.Filters, created.CreatedAt, replaced.CreatedAt, replaced.UpdatedAt)
	}
	checkFlow(t, replaced, "net/http/cgi")
	bad := steps[2].Result
	var problems struct {
		Problems []struct {
			Path string `json:"path"`
		} `json:"problems"`
	}
	json.Unmarshal(bad.StructuredContent, &problems)
	if !bad.IsError || len(bad.Content) != 1 || !strings.Contains(bad.Content[0].Text, "unknown diagram id") || !strings.Contains(bad.Content[0].Text, "diagram-nope") ||
		len(problems.Problems) != 1 || problems.Problems[0].Path != "/diagram_id" {
		t.Errorf("unknown diagram id: isError %v, content %v, structured %s", bad.IsError, bad.Content, bad.StructuredContent)
	}
	t.Logf("both clients took %v", time.Since(start).Round(time.Millisecond))

	// The diagram made over MCP, as saved last, drawn as SVG.
	code, svg, errOut := execute(t, append([]string{"diagram", "render", created.ID, fileTree}, flags...)...)
	if code != 0 {
		t.Fatalf("diagram render: exit %d: %s", code, errOut)
	}
	rects, texts := readSVG(t, svg)
	if !strings.HasPrefix(strings.TrimSpace(svg), "<svg") && !strings.HasPrefix(strings.TrimSpace(svg), "<?xml") || rects != len(replaced.Nodes)+1 || !strings.Contains(texts, "cgi") {
		t.Errorf("render: %d rects for %d nodes (and the background):\n%.500s", rects, len(replaced.Nodes), svg)
	}
}

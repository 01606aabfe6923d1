package tree_test

import (
	"context"
	"encoding/json"
	"errors"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/internal/tree"
	"github.com/ragforge/ragforge/tools"
)

// netHTTP is the net/http fixture loaded into Neo4j, with an engine over
// the file-tree example config.
type netHTTP struct {
	g *fixture.Graph
	d neo4j.DriverWithContext
	e *engine.Engine
}

func loadNetHTTP(t testing.TB) *netHTTP {
	t.Helper()
	d := neo4jtest.Open(t)
	return &netHTTP{g: fixturetest.LoadNetHTTP(t, d), d: d, e: newEngine(t, d)}
}

// newEngine builds the engine of the file-tree example with a clock that
// moves a second per call, so update times differ from creation times.
func newEngine(t testing.TB, d neo4j.DriverWithContext) *engine.Engine {
	t.Helper()
	m, err := config.Load("../../testdata/configs/valid/file-tree.yaml")
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Now: func() time.Time {
		clock = clock.Add(time.Second)
		return clock
	}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// call runs a tool and decodes its JSON result into dst.
func (f *netHTTP) call(t testing.TB, tool string, args any, dst any) error {
	t.Helper()
	return execute(t, f.e, context.Background(), tool, args, dst)
}

// execute runs a tool on e under ctx and decodes its JSON result into dst.
func execute(t testing.TB, e *engine.Engine, ctx context.Context, tool string, args any, dst any) error {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := e.Execute(ctx, engine.Call{Name: tool, Arguments: raw})
	if err != nil {
		return err
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, dst); err != nil {
		t.Fatalf("%s result %s: %v", tool, out, err)
	}
	return nil
}

// expected counts the fixture's files and directories that keep passes,
// computed from the parsed source with plain string tests.
func (f *netHTTP) expected(keep func(p string) bool) (files, dirs int, size int64) {
	for _, x := range f.g.Files {
		if keep(x.Path) {
			files++
			size += x.Size
		}
	}
	for _, x := range f.g.Directories {
		if keep(x.Path) {
			dirs++
		}
	}
	return files, dirs, size
}

// checkDrawing checks a diagram's React Flow form: unique ids, every edge
// between two of its nodes, one edge per non-root node, and no two boxes
// overlapping.
func checkDrawing(t *testing.T, d *tree.DiagramResult) {
	t.Helper()
	ids := map[string]tree.Flow{}
	for _, n := range d.Nodes {
		if _, dup := ids[n.ID]; dup {
			t.Fatalf("node id %s twice", n.ID)
		}
		ids[n.ID] = n
		if n.Data.Label == "" || n.Data.Path != n.ID || n.Type != n.Data.Kind {
			t.Fatalf("node %+v", n)
		}
	}
	if len(d.Nodes) > 0 && len(d.Edges) != len(d.Nodes)-1 {
		t.Errorf("%d edges for %d nodes of one tree", len(d.Edges), len(d.Nodes))
	}
	for _, e := range d.Edges {
		if _, ok := ids[e.Source]; !ok {
			t.Fatalf("edge %s from a missing node", e.ID)
		}
		if _, ok := ids[e.Target]; !ok {
			t.Fatalf("edge %s to a missing node", e.ID)
		}
		if ids[e.Source].Position.X >= ids[e.Target].Position.X {
			t.Errorf("edge %s does not run left to right", e.ID)
		}
	}
	// Boxes overlap only within a column: sort each column by y.
	cols := map[float64][]float64{}
	for _, n := range d.Nodes {
		cols[n.Position.X] = append(cols[n.Position.X], n.Position.Y)
	}
	for x, ys := range cols {
		slices.Sort(ys)
		for i := 1; i < len(ys); i++ {
			if ys[i]-ys[i-1] < tree.NodeHeight {
				t.Fatalf("column x=%v: boxes at y %v and %v overlap", x, ys[i-1], ys[i])
			}
		}
	}
}

func TestCreateDiagramDrawsNetHTTPAndSavesItsPreset(t *testing.T) {
	f := loadNetHTTP(t)
	var d tree.DiagramResult
	if err := f.call(t, tree.CreateDiagram, map[string]any{"name": "net/http", "description": "the HTTP package"}, &d); err != nil {
		t.Fatal(err)
	}
	files, dirs, size := f.expected(func(string) bool { return true })
	if d.Stats.Files != files || d.Stats.Directories != dirs || d.Stats.TotalSize != size || d.Stats.Nodes != files+dirs {
		t.Errorf("stats %+v, want %d files, %d directories, %d bytes", d.Stats, files, dirs, size)
	}
	if d.Action.Type != "CREATE_DIAGRAM_TAB" || d.Action.DiagramID != d.ID || !strings.HasPrefix(d.ID, "diagram-") {
		t.Errorf("action %+v for diagram %s", d.Action, d.ID)
	}
	if d.Nodes[0].ID != "net/http" || d.Nodes[0].Position.X != 0 || d.Layout != tree.LayoutHierarchical {
		t.Errorf("first node %+v, layout %s; want the root net/http in column 0", d.Nodes[0], d.Layout)
	}
	checkDrawing(t, &d)

	rec, err := neo4j.ExecuteQuery(context.Background(), f.d, "MATCH (p:"+tree.PresetLabel+") RETURN p.id, p.name, p.description, p.tree, p.filters, p.created_at",
		nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Records) != 1 {
		t.Fatalf("%d presets saved, want 1", len(rec.Records))
	}
	v := rec.Records[0].Values
	if v[0] != d.ID || v[1] != "net/http" || v[2] != "the HTTP package" || v[3] != "files" || v[4] != "{}" {
		t.Errorf("preset %v", v)
	}
	if created, _ := v[5].(time.Time); !created.Equal(d.CreatedAt) {
		t.Errorf("preset created at %v, diagram says %v", v[5], d.CreatedAt)
	}
}

func TestCreateDiagramFiltersWithGlobsLanguagesAndDepth(t *testing.T) {
	f := loadNetHTTP(t)
	httptest := func(p string) bool { return p == "net/http/httptest" || strings.HasPrefix(p, "net/http/httptest/") }
	cases := []struct {
		name    string
		filters map[string]any
		keep    func(p string) bool
		root    string
	}{
		{"a directory's subtree, tests excluded",
			map[string]any{"path_patterns": []string{"net/http/httptest/**"}, "exclude_paths": []string{"**/*_test.go"}},
			func(p string) bool { return httptest(p) && !strings.HasSuffix(p, "_test.go") }, "net/http/httptest"},
		{"test files anywhere keep their directories",
			map[string]any{"path_patterns": []string{"**/*_test.go"}, "exclude_paths": []string{"net/http/internal"}},
			func(p string) bool {
				if p == "net/http/internal" || strings.HasPrefix(p, "net/http/internal/") {
					return false
				}
				if strings.HasSuffix(p, "_test.go") {
					return true
				}
				for _, x := range f.g.Files {
					if strings.HasSuffix(x.Path, "_test.go") && strings.HasPrefix(x.Path, p+"/") && !strings.HasPrefix(x.Path, "net/http/internal/") {
						return true
					}
				}
				return false
			}, "net/http"},
		{"depth 1 is the root and its children",
			map[string]any{"max_depth": 1},
			func(p string) bool { return p == "net/http" || path.Dir(p) == "net/http" }, "net/http"},
		{"a language every file has",
			map[string]any{"languages": []string{"go"}, "path_patterns": []string{"net/http/pprof/*"}},
			func(p string) bool {
				return path.Dir(p) == "net/http/pprof" && strings.HasSuffix(p, ".go") || p == "net/http/pprof"
			}, "net/http/pprof"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d tree.DiagramResult
			if err := f.call(t, tree.CreateDiagram, map[string]any{"name": c.name, "filters": c.filters}, &d); err != nil {
				t.Fatal(err)
			}
			files, dirs, size := f.expected(c.keep)
			if d.Stats.Files != files || d.Stats.Directories != dirs || d.Stats.TotalSize != size {
				t.Errorf("stats %+v, want %d files, %d directories, %d bytes", d.Stats, files, dirs, size)
			}
			if len(d.Nodes) == 0 || d.Nodes[0].ID != c.root {
				t.Fatalf("root %v, want %s", d.Nodes[:min(1, len(d.Nodes))], c.root)
			}
			for _, n := range d.Nodes {
				if !c.keep(n.ID) {
					t.Errorf("node %s should have been filtered out", n.ID)
				}
			}
			checkDrawing(t, &d)
		})
	}
	var none tree.DiagramResult
	if err := f.call(t, tree.CreateDiagram, map[string]any{"name": "nothing", "filters": map[string]any{"languages": []string{"python"}}}, &none); err != nil {
		t.Fatal(err)
	}
	if len(none.Nodes) != 0 || none.Stats.Nodes != 0 {
		t.Errorf("python files of net/http: %+v", none.Stats)
	}
}

func TestUpdateDiagramFiltersAddsOrReplacesAndSavesThem(t *testing.T) {
	f := loadNetHTTP(t)
	var d tree.DiagramResult
	if err := f.call(t, tree.CreateDiagram, map[string]any{"name": "two packages", "filters": map[string]any{"path_patterns": []string{"net/http/cgi/**"}}}, &d); err != nil {
		t.Fatal(err)
	}
	under := func(dirs ...string) func(string) bool {
		return func(p string) bool {
			for _, d := range dirs {
				if p == d || strings.HasPrefix(p, d+"/") {
					return true
				}
			}
			return p == "net/http"
		}
	}
	var u tree.DiagramResult
	if err := f.call(t, tree.UpdateDiagramFilters, map[string]any{"diagram_id": d.ID, "additive": true,
		"filters": map[string]any{"path_patterns": []string{"net/http/fcgi/**"}, "max_depth": 3}}, &u); err != nil {
		t.Fatal(err)
	}
	files, dirs, _ := f.expected(under("net/http/cgi", "net/http/fcgi"))
	if u.ID != d.ID || u.Action.Type != "UPDATE_DIAGRAM" || u.Action.DiagramID != d.ID || u.Name != "two packages" {
		t.Errorf("update returned %s %q with action %+v", u.ID, u.Name, u.Action)
	}
	if !slices.Equal(u.Filters.PathPatterns, []string{"net/http/cgi/**", "net/http/fcgi/**"}) || u.Filters.Depth() != 3 {
		t.Errorf("merged filters %+v", u.Filters)
	}
	if u.Stats.Files != files || u.Stats.Directories != dirs {
		t.Errorf("stats %+v, want %d files and %d directories", u.Stats, files, dirs)
	}
	if !u.UpdatedAt.After(u.CreatedAt) || !u.CreatedAt.Equal(d.CreatedAt) {
		t.Errorf("created %v → %v, updated %v", d.CreatedAt, u.CreatedAt, u.UpdatedAt)
	}
	checkDrawing(t, &u)

	var r tree.DiagramResult
	if err := f.call(t, tree.UpdateDiagramFilters, map[string]any{"diagram_id": d.ID,
		"filters": map[string]any{"path_patterns": []string{"net/http/fcgi/*.go"}}}, &r); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Filters.PathPatterns, []string{"net/http/fcgi/*.go"}) || r.Filters.MaxDepth != nil {
		t.Errorf("replaced filters %+v", r.Filters)
	}
	files, _, _ = f.expected(func(p string) bool { return path.Dir(p) == "net/http/fcgi" })
	if r.Stats.Files != files || r.Nodes[0].ID != "net/http/fcgi" {
		t.Errorf("stats %+v rooted at %s, want %d files under net/http/fcgi", r.Stats, r.Nodes[0].ID, files)
	}
	rec, err := neo4j.ExecuteQuery(context.Background(), f.d, "MATCH (p:"+tree.PresetLabel+" {id: $id}) RETURN p.filters, p.updated_at > p.created_at",
		map[string]any{"id": d.ID}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil || len(rec.Records) != 1 {
		t.Fatalf("preset: %v, %d records", err, len(rec.Records))
	}
	if got := rec.Records[0].Values; got[0] != `{"path_patterns":["net/http/fcgi/*.go"]}` || got[1] != true {
		t.Errorf("saved preset %v", got)
	}
}

func TestTreeToolsAnswerBadCallsWithCallErrorsAndWriteNothing(t *testing.T) {
	f := loadNetHTTP(t)
	cases := []struct {
		tool string
		args map[string]any
		path string
		says string
	}{
		{tree.UpdateDiagramFilters, map[string]any{"diagram_id": "diagram-nope", "filters": map[string]any{}}, "/diagram_id", "unknown diagram id"},
		{tree.CreateDiagram, map[string]any{"name": "x", "filters": map[string]any{"path_patterns": []string{"net/[http"}}}, "/filters/path_patterns/0", "not a valid glob"},
		{tree.QueryFileTree, map[string]any{"filters": map[string]any{"exclude_paths": []string{"{a,b"}}}, "/filters/exclude_paths/0", "not a valid glob"},
		{tree.CreateDiagram, map[string]any{"name": "x", "filters": map[string]any{"max_depth": 99}}, "/filters/max_depth", "maximum"},
		{tree.CreateDiagram, map[string]any{"name": "x", "filters": map[string]any{"languages": []string{"cobol"}}}, "/filters/languages/0", ""},
	}
	for _, c := range cases {
		var out any
		err := f.call(t, c.tool, c.args, &out)
		var ce *tools.CallError
		if !errors.As(err, &ce) {
			t.Errorf("%s %v: error %v, want a CallError", c.tool, c.args, err)
			continue
		}
		if len(ce.Problems) == 0 || ce.Problems[0].Path != c.path || !strings.Contains(ce.Error(), c.says) {
			t.Errorf("%s %v: %v, want a problem at %s saying %q", c.tool, c.args, ce, c.path, c.says)
		}
	}
	rec, err := neo4j.ExecuteQuery(context.Background(), f.d, "MATCH (p:"+tree.PresetLabel+") RETURN count(p)",
		nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil || rec.Records[0].Values[0] != int64(0) {
		t.Errorf("presets after bad calls: %v %v", rec, err)
	}
}

func TestQueryFileTreeSummarizesNetHTTPAndTruncatesItsList(t *testing.T) {
	f := loadNetHTTP(t)
	var q tree.QueryResult
	if err := f.call(t, tree.QueryFileTree, map[string]any{"limit": 10}, &q); err != nil {
		t.Fatal(err)
	}
	files, dirs, size := f.expected(func(string) bool { return true })
	s := q.Summary
	if s.Files != files || s.Directories != dirs || s.TotalSize != size || s.Languages["go"] != files {
		t.Errorf("summary %+v, want %d go files, %d directories, %d bytes", s, files, dirs, size)
	}
	// The largest folder below net/http, and the deepest level, from the source.
	bytes := map[string]int64{}
	deepest := 0
	for _, x := range f.g.Files {
		for d := path.Dir(x.Path); d != "net/http"; d = path.Dir(d) {
			bytes[d] += x.Size
		}
		deepest = max(deepest, strings.Count(strings.TrimPrefix(x.Path, "net/http/"), "/")+1)
	}
	var largest string
	for d, b := range bytes {
		if largest == "" || b > bytes[largest] {
			largest = d
		}
	}
	if s.LargestFolder == nil || s.LargestFolder.Path != largest || s.LargestFolder.Size != bytes[largest] {
		t.Errorf("largest folder %+v, want %s with %d bytes", s.LargestFolder, largest, bytes[largest])
	}
	if s.MaxDepth != deepest {
		t.Errorf("max depth %d, want %d", s.MaxDepth, deepest)
	}
	if len(q.Nodes) != 10 || !q.Truncated || !strings.Contains(q.Note, "first 10 of") || q.Nodes[0].Path != "net/http" {
		t.Errorf("nodes %d (truncated %v, note %q), first %v", len(q.Nodes), q.Truncated, q.Note, q.Nodes[:1])
	}
	if !strings.HasPrefix(q.Answer, "net/http holds ") || !strings.Contains(q.Answer, largest) || strings.Count(q.Answer, ".") < 1 {
		t.Errorf("answer %q", q.Answer)
	}
}

func TestAReadOverTheNodeCapIsACallErrorAdvisingPathPatterns(t *testing.T) {
	f := loadNetHTTP(t)
	r, err := tree.NewBounded(f.e.Model(), tools.Env{Driver: f.d, Database: neo4jtest.Database()}, 20)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Query(context.Background(), "", tree.Filters{}, 10)
	var ce *tools.CallError
	if !errors.As(err, &ce) || ce.Problems[0].Path != "/filters/path_patterns" || !strings.Contains(ce.Error(), "more than 20 nodes") {
		t.Fatalf("error %v, want a CallError at /filters/path_patterns", err)
	}
	// A pattern under one directory reads only that directory.
	q, err := r.Query(context.Background(), "", tree.Filters{PathPatterns: []string{"net/http/cgi/**"}}, 10)
	if err != nil || q.Summary.Files == 0 {
		t.Fatalf("net/http/cgi under the cap: %v %+v", err, q)
	}
}

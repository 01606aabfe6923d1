package tree_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/internal/tree"
)

// BenchmarkCreateDiagram10kFiles times create_diagram, through Execute on
// the loopback server, for a tree of more than 10,000 files: the standard
// library's directories and files (6,400 Go files) plus a copy of them
// under mirror/, every level shown. Each call reads the tree, filters,
// lays out, saves a preset, and the result is encoded as the JSON an
// agent or UI receives.
//
//	go test ./tree -run XXX -bench CreateDiagram10k -count 5
func BenchmarkCreateDiagram10kFiles(b *testing.B) {
	d := neo4jtest.Open(b)
	src, err := fixture.GOROOTSrc()
	if err != nil {
		b.Fatal(err)
	}
	g, err := fixture.ParseDeclarations(src)
	if err != nil {
		b.Fatal(err)
	}
	g.Scopes, g.Imports = nil, nil
	n := len(g.Directories)
	for _, x := range g.Directories[:n] {
		if x.Path == "." {
			x.Path = "mirror"
			x.Name = "mirror"
		} else {
			x.Path = "mirror/" + x.Path
		}
		g.Directories = append(g.Directories, x)
	}
	for _, x := range g.Files[:len(g.Files)] {
		x.Path = "mirror/" + x.Path
		g.Files = append(g.Files, x)
	}
	if _, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database()}); err != nil {
		b.Fatal(err)
	}
	e := newEngine(b, d)
	args := json.RawMessage(`{"name": "standard library twice", "filters": {"max_depth": 50}}`)
	run := func() *tree.DiagramResult {
		res, err := e.Execute(context.Background(), engine.Call{Name: tree.CreateDiagram, Arguments: args})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(res); err != nil {
			b.Fatal(err)
		}
		out := res.Custom.(tree.DiagramResult)
		return &out
	}
	first := run()
	if first.Stats.Files < 10000 || first.Stats.Files != len(g.Files) {
		b.Fatalf("the diagram has %d files, want all %d (at least 10,000)", first.Stats.Files, len(g.Files))
	}
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(first.Stats.Files), "files")
	b.ReportMetric(float64(first.Stats.Nodes), "nodes")
}

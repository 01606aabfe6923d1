package ragforge_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// module is the import path every ragforge package starts with.
const module = "github.com/ragforge/ragforge"

// layer is a set of packages that may import one another and any package
// of a lower layer, never one of a higher layer.
type layer struct {
	name string
	// pkgs are paths under the module; "x/..." is x and every package
	// below it. A package belongs to the layer of its longest match.
	pkgs []string
}

// layers are ragforge's packages from the lowest to the highest; docs/design.md
// ("Layers") repeats the list. A package that imports a higher layer's
// package fails TestImportsPointDown: move the type or helper it needs
// down, rather than the package up.
var layers = []layer{
	// The config's types and leaf helpers that import nothing of ragforge
	// beyond them.
	{"model", []string{"model", "schema", "tenant", "internal/textvalue", "internal/jsonout", "internal/tokens",
		"internal/gosrc", "internal/golden", "internal/neo4jtest/...", "internal/fixture/hubgraph"}},
	// Cypher plumbing, one of each: identifiers, values, transactions,
	// the read-only and tenant proofs, Lucene escaping, time buckets.
	{"cypher", []string{"internal/cypher/..."}},
	// A config read, checked and compiled; the tool kit; the live graph's
	// schema; what a change records; test graphs.
	{"config", []string{"computed", "config", "embedder/...", "tools/...", "retrieval", "internal/graphschema/...",
		"internal/history/change", "internal/fixture/...", "internal/golden/plancase"}},
	// Usage counts, the stored/runtime policy and the materialization
	// state (model.State) the planner plans with.
	{"materialize", []string{"materialize"}},
	// One tool call → one statement.
	{"plan", []string{"planner"}},
	// The handlers of the custom tools, and the jobs that write the graph.
	{"handlers", []string{"internal/memory/...", "internal/history/historytools", "internal/history/gitimport",
		"internal/history/historytest", "internal/analytics", "internal/similar", "internal/tree/...", "internal/embed/..."}},
	{"engine", []string{"engine"}},
	// What runs the engine: the MCP server, the command, the benchmarks.
	{"hosts", []string{"mcpserver", "internal/retrievaleval", "cmd/...", "bench/..."}},
}

// layerOf is the index in layers of the package at rel (a path under the
// module), by its longest matching pattern, or -1 with none.
func layerOf(layers []layer, rel string) (int, string) {
	at, best := -1, ""
	for i, l := range layers {
		for _, p := range l.pkgs {
			if match(p, rel) && len(p) > len(best) {
				at, best = i, p
			}
		}
	}
	return at, best
}

// match reports whether pattern names the package at rel.
func match(pattern, rel string) bool {
	if tree, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == tree || strings.HasPrefix(rel, tree+"/")
	}
	return rel == pattern
}

// climbs checks imports (each package's ragforge imports, by path under
// the module) against layers: a package in no layer, an import of a higher
// layer and a pattern that names no package are each one problem.
func climbs(layers []layer, imports map[string][]string) []string {
	var problems []string
	used := map[string]bool{}
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		from, p := layerOf(layers, pkg)
		if from < 0 {
			problems = append(problems, fmt.Sprintf("%s is in no layer: add it to layers (layers_test.go) and to docs/design.md's Layers", pkg))
			continue
		}
		used[p] = true
		for _, imp := range imports[pkg] {
			if to, _ := layerOf(layers, imp); to > from {
				problems = append(problems, fmt.Sprintf("%s (layer %s) imports %s (layer %s, above it): move what it needs down to %s's layer or below",
					pkg, layers[from].name, imp, layers[to].name, pkg))
			}
		}
	}
	for _, l := range layers {
		for _, p := range l.pkgs {
			if !used[p] {
				problems = append(problems, fmt.Sprintf("layer %s lists %s, which names no package", l.name, p))
			}
		}
	}
	return problems
}

// TestImportsPointDown: no ragforge package imports one of a higher layer
// (test files aside: an external test may drive the engine from below).
func TestImportsPointDown(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}
	for _, p := range pkgs {
		rel, ok := strings.CutPrefix(p.PkgPath, module+"/")
		if !ok || len(p.GoFiles) == 0 {
			continue // the module root holds only this test
		}
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		imports[rel] = nil
		for path := range p.Imports {
			if r, ok := strings.CutPrefix(path, module+"/"); ok {
				imports[rel] = append(imports[rel], r)
			}
		}
		slices.Sort(imports[rel])
	}
	if len(imports) < 40 {
		t.Fatalf("go list found %d ragforge packages; run the test at the module root", len(imports))
	}
	for _, p := range climbs(layers, imports) {
		t.Error(p)
	}
}

// TestClimbsFindsEachProblem: the check refuses an import of a higher
// layer, a package in no layer and a pattern that names nothing, and lets
// a package import its own layer and the layers below.
func TestClimbsFindsEachProblem(t *testing.T) {
	ls := []layer{{"low", []string{"model", "internal/cypher/..."}}, {"high", []string{"planner", "gone"}}}
	got := climbs(ls, map[string][]string{
		"model":                   {"planner"},
		"internal/cypher/ident":   {"model"},
		"internal/cypher/neo4jtx": {"internal/cypher/ident"},
		"planner":                 {"model", "internal/cypher/ident"},
		"stray":                   nil,
	})
	want := []string{
		"model (layer low) imports planner (layer high, above it): move what it needs down to model's layer or below",
		"stray is in no layer: add it to layers (layers_test.go) and to docs/design.md's Layers",
		"layer high lists gone, which names no package",
	}
	if !slices.Equal(got, want) {
		t.Errorf("climbs =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Package fixturetest loads the fixture graph of the Go standard library's
// net/http into the test database, the one real graph most integration
// tests run on, so that each test does not repeat the parse-and-load steps:
// as the fixture's code graph (LoadNetHTTP), or as two tenants' drives of
// the team-drive example (LoadTwoDrives).
package fixturetest

import (
	"context"
	"path"
	"path/filepath"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/fixture"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// LoadNetHTTP parses $(go env GOROOT)/src/net/http and loads it through d
// (a driver from neo4jtest.Open), failing the test on any error; it returns
// the parsed graph, from which tests compute their expected results.
func LoadNetHTTP(t testing.TB, d neo4j.DriverWithContext) *fixture.Graph {
	t.Helper()
	g := parseNetHTTP(t)
	if _, err := fixture.Load(context.Background(), d, g, fixture.LoadOptions{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	return g
}

// parseNetHTTP parses $(go env GOROOT)/src/net/http, failing the test on
// any error.
func parseNetHTTP(t testing.TB) *fixture.Graph {
	t.Helper()
	src, err := fixture.GOROOTSrc()
	if err != nil {
		t.Fatal(err)
	}
	g, err := fixture.Parse(filepath.Join(src, "net", "http"))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Markers in the path of the document only one tenant's drive holds (see
// [LoadTwoDrives]): a result that shows the other's has leaked.
const (
	AliceOnly = "ALICEONLY"
	BobOnly   = "BOBONLY"
)

// BobsSizeFactor multiplies every size in bob's drive, so a total that
// counts one of his documents differs from alice's.
const BobsSizeFactor = 10

// OwnSize is the parsed size of the document only one drive holds.
const OwnSize = 50

// LoadTwoDrives loads net/http as two workspaces of the team-drive example
// config (testdata/configs/valid/team-drive.yaml), "alice" and "bob", as an
// application importing their files would: Folder and Document nodes with
// workspace_id, node_id workspace:path, the parsed paths and CONTAINS from
// each folder to its children. Both drives hold the same paths, bob's with
// every size BobsSizeFactor times the parsed one; each also holds a
// document only it has, named with its marker: alice's
// net/http/ALICEONLY.md and bob's net/http/BOBONLY/plans.md, in a folder
// of his own. It returns the parsed graph, from which tests compute
// alice's expected results (hers are the parsed sizes, plus OwnSize for
// her own document).
func LoadTwoDrives(t testing.TB, d neo4j.DriverWithContext) *fixture.Graph {
	t.Helper()
	g := parseNetHTTP(t)
	for tn, own := range map[string]string{"alice": "net/http/" + AliceOnly + ".md", "bob": "net/http/" + BobOnly + "/plans.md"} {
		scale := int64(1)
		if tn == "bob" {
			scale = BobsSizeFactor
		}
		var folders, docs []any
		for _, x := range g.Directories {
			folders = append(folders, x.Path)
		}
		for _, x := range g.Files {
			docs = append(docs, map[string]any{"path": x.Path, "size": x.Size * scale, "language": x.Language})
		}
		if dir := path.Dir(own); dir != "net/http" {
			folders = append(folders, dir)
		}
		docs = append(docs, map[string]any{"path": own, "size": OwnSize * scale, "language": "markdown"})
		p := map[string]any{"tn": tn, "folders": folders, "docs": docs}
		neo4jtest.Run(t, d, `UNWIND $folders AS path
			CREATE (:Folder {node_id: $tn + ':' + path, workspace_id: $tn, path: path, name: split(path, '/')[-1]})`, p)
		neo4jtest.Run(t, d, `UNWIND $docs AS doc
			CREATE (:Document {node_id: $tn + ':' + doc.path, workspace_id: $tn, path: doc.path, name: split(doc.path, '/')[-1],
				size: doc.size, language: doc.language, modified: datetime('2025-06-01T10:00:00Z')})`, p)
		var edges []any
		for _, f := range folders {
			edges = append(edges, map[string]any{"parent": path.Dir(f.(string)), "child": f})
		}
		for _, x := range docs {
			c := x.(map[string]any)["path"].(string)
			edges = append(edges, map[string]any{"parent": path.Dir(c), "child": c})
		}
		neo4jtest.Run(t, d, `UNWIND $edges AS e
			MATCH (p:Folder {node_id: $tn + ':' + e.parent})
			MATCH (c {node_id: $tn + ':' + e.child}) WHERE c:Folder OR c:Document
			CREATE (p)-[:CONTAINS]->(c)`, map[string]any{"tn": tn, "edges": edges})
	}
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(60)", nil)
	return g
}

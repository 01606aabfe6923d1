package schemaapply_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/graphschema/introspect"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

const codeRAG = "../../../testdata/configs/valid/code-rag.yaml"

func TestApplyIsIdempotentKeepsEquivalentIndexesAndEndsOnline(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(1, 500) AS i CREATE (:Scope {uuid: 'u' + i, name: 'f' + i, file: 'a.go'})`, nil)
	// An index the user made under their own name serves Scope.name.
	neo4jtest.Run(t, d, `CREATE INDEX my_scope_name FOR (n:Scope) ON (n.name)`, nil)
	m, err := config.Load(codeRAG)
	if err != nil {
		t.Fatal(err)
	}
	items := schemaapply.Declared(m)
	ctx := context.Background()
	var progress bytes.Buffer
	first, err := schemaapply.Apply(ctx, d, items, schemaapply.Options{Database: neo4jtest.Database(), Progress: &progress})
	if err != nil {
		t.Fatalf("first apply: %v\n%+v", err, first)
	}
	byName := map[string]schemaapply.Outcome{}
	for _, o := range first {
		byName[o.Name] = o
		if o.State != "ONLINE" {
			t.Errorf("%s ended %s", o.Item, o.State)
		}
	}
	if o := byName["ragforge_idx_Scope_name"]; o.Action != schemaapply.Exists || o.Existing != "my_scope_name" {
		t.Errorf("Scope.name: %+v, want the existing my_scope_name", o)
	}
	// Directory.path is unique and indexed: the constraint's own index serves both.
	if _, ok := byName["ragforge_idx_Directory_path"]; ok {
		t.Errorf("a range index declared beside the uniqueness constraint on Directory.path")
	}
	for _, n := range []string{"ragforge_unique_Scope_uuid", "scope_text", "scope_source_embeddings", "ragforge_idx_File_extension"} {
		if o := byName[n]; o.Action != schemaapply.Created {
			t.Errorf("%s: %+v, want created", n, o)
		}
	}
	if !strings.Contains(progress.String(), "created vector index scope_source_embeddings on (:Scope {source_embedding})") {
		t.Errorf("progress:\n%s", progress.String())
	}
	second, err := schemaapply.Apply(ctx, d, items, schemaapply.Options{Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range second {
		if o.Action != schemaapply.Exists || o.State != "ONLINE" {
			t.Errorf("second apply: %s %s %s", o.Item, o.Action, o.State)
		}
	}
	s, err := introspect.ReadIndexes(ctx, d, neo4jtest.Database())
	if err != nil {
		t.Fatal(err)
	}
	ft := s.IndexNamed("scope_text")
	vi := s.IndexNamed("scope_source_embeddings")
	if ft == nil || ft.Config["fulltext.analyzer"] != "standard-no-stop-words" || vi == nil || vi.Config["vector.dimensions"] != int64(768) {
		t.Errorf("full-text %+v, vector %+v", ft, vi)
	}
}

func TestApplyReportsTakenNamesRenamedVectorIndexesAndDuplicatesAsConflicts(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE (:File {path: 'a.go'}), (:File {path: 'a.go'})", nil)
	neo4jtest.Run(t, d, "CREATE INDEX scope_text FOR (n:File) ON (n.name)", nil)
	neo4jtest.Run(t, d, "CREATE VECTOR INDEX my_vectors FOR (n:Scope) ON (n.signature_embedding) OPTIONS {indexConfig: {`vector.dimensions`: 768}}", nil)
	m, err := config.Load(codeRAG)
	if err != nil {
		t.Fatal(err)
	}
	out, err := schemaapply.Apply(context.Background(), d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()})
	if err == nil || !strings.Contains(err.Error(), "3 of") {
		t.Fatalf("err = %v", err)
	}
	want := map[string]string{
		"ragforge_unique_File_path":  "have the label `File` and property `path` = 'a.go'",
		"scope_text":                 "the name scope_text is taken by a RANGE index",
		"scope_signature_embeddings": "the graph has the same index named my_vectors",
	}
	for _, o := range out {
		if w, ok := want[o.Name]; ok != (o.Action == schemaapply.Conflict) || !strings.Contains(o.Problem, w) {
			t.Errorf("%s: %s %q", o.Name, o.Action, o.Problem)
		}
		if o.Action != schemaapply.Conflict && o.State != "ONLINE" {
			t.Errorf("%s ended %s", o.Name, o.State)
		}
	}
}

func TestApplyMakesPointAndRelationshipIndexesOnceEach(t *testing.T) {
	d := neo4jtest.Open(t)
	m, err := config.Load("testdata/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	items := schemaapply.Declared(m)
	var got []string
	for _, it := range items {
		got = append(got, it.String())
	}
	want := []string{
		"uniqueness constraint ragforge_unique_Store_id on (:Store {id})",
		"uniqueness constraint ragforge_unique_Product_sku on (:Product {sku})",
		"point index ragforge_idx_Store_location on (:Store {location})",
		"range index ragforge_idx_STOCKS_since on ()-[:STOCKS {since}]-()",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("declared:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ctx := context.Background()
	for run := 1; run <= 2; run++ {
		out, err := schemaapply.Apply(ctx, d, items, schemaapply.Options{Database: neo4jtest.Database()})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out {
			if want := map[int]schemaapply.Action{1: schemaapply.Created, 2: schemaapply.Exists}[run]; o.Action != want || o.State != "ONLINE" {
				t.Errorf("run %d: %s %s %s", run, o.Item, o.Action, o.State)
			}
		}
	}
	s, err := introspect.ReadIndexes(ctx, d, neo4jtest.Database())
	if err != nil {
		t.Fatal(err)
	}
	if s.FindIndex("RELATIONSHIP", "STOCKS", []string{"since"}, "RANGE") == nil || s.FindIndex("NODE", "Store", []string{"location"}, "POINT") == nil {
		t.Errorf("indexes: %+v", s.Indexes)
	}
}

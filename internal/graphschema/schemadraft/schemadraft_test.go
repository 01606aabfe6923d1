package schemadraft_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/graphschema/schemacheck"
	"github.com/ragforge/ragforge/internal/graphschema/schemadraft"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// draftAndCheck drafts a config from the test database, loads it (failing
// the test when it does not load) and checks it against the same graph.
func draftAndCheck(t *testing.T, d neo4j.DriverWithContext, source string) ([]byte, *model.Model, []schemacheck.Finding) {
	t.Helper()
	ctx := context.Background()
	draft, err := schemadraft.Draft(ctx, d, schemadraft.Options{Database: neo4jtest.Database(), Source: source})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "draft.yaml")
	if err := os.WriteFile(path, draft, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := config.Load(path)
	if err != nil {
		t.Fatalf("draft does not load: %v\n%s", err, draft)
	}
	cm, err := computed.CompileModel(m)
	if err != nil {
		t.Fatal(err)
	}
	findings, err := schemacheck.Check(ctx, d, neo4jtest.Database(), cm)
	if err != nil {
		t.Fatal(err)
	}
	return draft, m, findings
}

func TestDraftOfTheNetHTTPFixtureLoadsAndChecksCleanOnItsGraph(t *testing.T) {
	d := neo4jtest.Open(t)
	fixturetest.LoadNetHTTP(t, d)
	draft, m, findings := draftAndCheck(t, d, "the net/http fixture")
	for _, f := range findings {
		t.Errorf("vet of the draft: %s", f)
	}
	if got := m.EntityNames(); !slices.Equal(got, []string{"Directory", "ExternalLibrary", "File", "Scope"}) {
		t.Errorf("entities %v", got)
	}
	rels := map[string][]string{}
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			rels[e.Name] = append(rels[e.Name], r.Type+" "+string(r.Direction)+" "+join(r.Targets))
		}
	}
	want := map[string][]string{
		"Directory":       {"CONTAINS outgoing Directory,File", "CONTAINS incoming Directory", "IMPORTS incoming File"},
		"ExternalLibrary": {"DEPENDS_ON incoming Scope", "IMPORTS incoming File"},
		"File":            {"CONTAINS outgoing Scope", "CONTAINS incoming Directory", "IMPORTS outgoing Directory,ExternalLibrary"},
		"Scope": {"CALLS outgoing Scope", "CALLS incoming Scope", "CONTAINS outgoing Scope", "CONTAINS incoming File,Scope",
			"DEPENDS_ON outgoing ExternalLibrary,Scope", "DEPENDS_ON incoming Scope"},
	}
	for name, w := range want {
		if !slices.Equal(rels[name], w) {
			t.Errorf("%s relationships %v, want %v", name, rels[name], w)
		}
	}
	scope := m.Entity("Scope")
	if scope.UniqueField != "uuid" || scope.Field("type").Type != "enum" || scope.Field("startLine").Type != "integer" || !scope.Field("loadedFrom").Indexed {
		t.Errorf("Scope drafted as %+v\n%s", scope, draft)
	}
	t.Logf("%s", draft)
}

func join(list []string) string {
	out := ""
	for i, s := range list {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}

func TestDraftTypesISOStringsListsAndEmbeddingsAndLeavesOutTheVectorWithAComment(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(1, 30) AS i
		CREATE (:Note {id: i, text: 'note ' + i, at: '2024-05-0' + (i % 9 + 1) + 'T10:00:00Z', score: CASE WHEN i % 2 = 0 THEN i ELSE i + 0.5 END,
			tags: ['a', 'b'], text_embedding: [0.1, 0.2, 0.3], pinned: i % 3 = 0})`, nil)
	neo4jtest.Run(t, d, "CREATE VECTOR INDEX note_vectors FOR (n:Note) ON (n.text_embedding) OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'euclidean'}}", nil)
	neo4jtest.Run(t, d, "CREATE (:_RagforgeLock {name: 'x'})", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(300)", nil)
	draft, m, findings := draftAndCheck(t, d, "")
	for _, f := range findings {
		if f.Severity == schemacheck.Error {
			t.Errorf("vet of the draft: %s", f)
		}
	}
	note := m.Entity("Note")
	if len(m.Entities) != 1 || note == nil || note.UniqueField != "id" {
		t.Fatalf("entities %v\n%s", m.EntityNames(), draft)
	}
	if f := note.Field("at"); f == nil || f.Type != "datetime" || f.StoredAs != "iso_string" {
		t.Errorf("at: %+v", f)
	}
	if f := note.Field("score"); f == nil || f.Type != "number" {
		t.Errorf("score: %+v", f)
	}
	if f := note.Field("pinned"); f == nil || f.Type != "boolean" {
		t.Errorf("pinned: %+v", f)
	}
	if f := note.Field("tags"); f == nil || f.Type != "string_list" {
		t.Errorf("tags: %+v\n%s", f, draft)
	}
	if note.Field("text_embedding") != nil || !strings.Contains(string(draft), "Note.text_embedding left out: an embedding") {
		t.Errorf("an embedding drafted as a field:\n%s", draft)
	}
	if len(note.VectorIndexes) != 1 || *note.VectorIndexes[0] != (model.VectorIndex{Name: "note_vectors", Field: "text", Property: "text_embedding", Dimensions: 3, Similarity: "euclidean", Pos: note.VectorIndexes[0].Pos}) {
		t.Errorf("vector indexes %+v", note.VectorIndexes)
	}
}

// northwindShaped is a small graph shaped like Northwind as its public load
// script leaves it: order numbers and dates as text, "NULL" for a missing
// shipping date, keys and postal codes of digits, and order lines whose
// unitPrice and discount are text.
const northwindShaped = `UNWIND range(0, 39) AS i
	CREATE (o:Order {orderID: toString(10248 + i), freight: toString(round(i * 3.17, 2)),
		orderDate: '1996-07-' + right('0' + toString(i % 28 + 1), 2) + ' 00:00:00.000',
		shippedDate: CASE WHEN i % 7 = 3 THEN 'NULL' ELSE '1996-08-' + right('0' + toString(i % 28 + 1), 2) + ' 00:00:00.000' END,
		shipPostalCode: CASE WHEN i % 2 = 0 THEN '05021' ELSE '51100' END, shipVia: toString(i % 3 + 1), shipRegion: 'NULL'})
	WITH o, i
	MERGE (p:Product {productID: toString(i % 5 + 1)})
	CREATE (o)-[:ORDERS {orderID: o.orderID, productID: p.productID, unitPrice: toString(i % 5 * 7) + '.00',
		discount: CASE WHEN i % 4 = 0 THEN '0.15' ELSE '0' END, quantity: i % 9 + 1}]->(p)`

// TestDraftTypesNumbersAndDatesHeldAsText: init drafts Northwind's text
// numbers and dates as typed fields with stored_as: text, the "NULL"
// marker as null_values and a comment saying why; keys and codes of
// digits stay strings (enums here, having few values); the draft loads and vets clean on its graph.
func TestDraftTypesNumbersAndDatesHeldAsText(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT Order_orderID FOR (o:Order) REQUIRE (o.orderID) IS UNIQUE", nil)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT Product_productID FOR (p:Product) REQUIRE (p.productID) IS UNIQUE", nil)
	neo4jtest.Run(t, d, northwindShaped, nil)
	draft, m, findings := draftAndCheck(t, d, "a Northwind-shaped graph")
	for _, f := range findings {
		t.Errorf("vet of the draft: %s", f)
	}
	order := m.Entity("Order")
	if order == nil {
		t.Fatalf("no Order entity:\n%s", draft)
	}
	for name, want := range map[string]string{
		"freight": "number text []", "orderDate": "datetime text []", "shippedDate": "datetime text [NULL]",
		"shipVia": "integer text []", "orderID": "string  []", "shipPostalCode": "enum  []", "shipRegion": "enum  []",
	} {
		f := order.Field(name)
		if f == nil {
			t.Errorf("no field %s", name)
			continue
		}
		if got := fmt.Sprintf("%s %s %v", f.Type, f.StoredAs, f.NullValues); got != want {
			t.Errorf("%s drafted as %q, want %q", name, got, want)
		}
	}
	var line *model.Relationship
	for _, r := range order.Relationships {
		if r.Type == "ORDERS" {
			line = r
		}
	}
	if line == nil {
		t.Fatalf("no ORDERS relationship:\n%s", draft)
	}
	for _, p := range line.Properties {
		want := map[string]string{"unitPrice": "number text", "discount": "number text", "quantity": "integer ", "orderID": "string ", "productID": "string "}[p.Name]
		if got := fmt.Sprintf("%s %s", p.Type, p.StoredAs); got != want {
			t.Errorf("ORDERS.%s drafted as %q, want %q", p.Name, got, want)
		}
	}
	for _, comment := range []string{
		`name: shippedDate, type: datetime, stored_as: text, null_values: ["NULL"]} # every sampled value is a datetime written as text or "NULL" (null)`,
		`name: freight, type: number, stored_as: text} # every sampled value is a number written as text`,
	} {
		if !strings.Contains(string(draft), comment) {
			t.Errorf("draft lacks %q:\n%s", comment, draft)
		}
	}
}

// TestDraftTypesListsOnNodesAndRelationships: lists of strings, integers
// (some empty, which Neo4j types StringArray) and numbers (integers and
// floats) are drafted as list fields, on nodes and on relationships, and
// vet of the draft finds no error.
func TestDraftTypesListsOnNodesAndRelationships(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (k:Person {name: 'Keanu', nicknames: ['Neo'], scores: [1, 2], weights: [1.5, 2]}),
		(c:Person {name: 'Carrie', nicknames: [], scores: [], weights: [2]}),
		(m:Movie {title: 'The Matrix'})
		CREATE (k)-[:ACTED_IN {roles: ['Neo'], takes: [3]}]->(m), (c)-[:ACTED_IN {roles: ['Trinity'], takes: []}]->(m)`, nil)
	draft, m, findings := draftAndCheck(t, d, "")
	for _, f := range findings {
		if f.Severity == schemacheck.Error {
			t.Errorf("vet of the draft: %s", f)
		}
	}
	person := m.Entity("Person")
	if person == nil {
		t.Fatalf("no Person:\n%s", draft)
	}
	for name, want := range map[string]model.Type{"nicknames": model.StringList, "scores": model.IntegerList, "weights": model.NumberList} {
		if f := person.Field(name); f == nil || f.Type != want {
			t.Errorf("Person.%s: %+v, want %s\n%s", name, f, want, draft)
		}
	}
	var acted *model.Relationship
	for _, r := range person.Relationships {
		if r.Type == "ACTED_IN" {
			acted = r
		}
	}
	if acted == nil {
		t.Fatalf("no ACTED_IN:\n%s", draft)
	}
	got := map[string]model.Type{}
	for _, p := range acted.Properties {
		got[p.Name] = p.Type
	}
	if want := map[string]model.Type{"roles": model.StringList, "takes": model.IntegerList}; !maps.Equal(got, want) {
		t.Errorf("ACTED_IN properties %v, want %v\n%s", got, want, draft)
	}
}

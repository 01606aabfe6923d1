package schemacheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/graphschema/schemacheck"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// check loads a config and returns its findings on the test graph, as
// text.
func check(t *testing.T, d neo4j.DriverWithContext, cfg string) []string {
	t.Helper()
	m, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := computed.CompileModel(m)
	if err != nil {
		t.Fatal(err)
	}
	findings, err := schemacheck.Check(context.Background(), d, neo4jtest.Database(), cm)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(findings))
	for i, f := range findings {
		got[i] = f.String()
	}
	return got
}

// matchPrefixes fails the test unless each finding starts with the wanted
// text at its index.
func matchPrefixes(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d findings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range min(len(got), len(want)) {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d:\n got %s\nwant %s…", i, got[i], want[i])
		}
	}
}

func TestCheckReportsMisspeltNamesAtTheirLines(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (:Dir {path: '.'})-[:CONTAINS]->(f:File {path: 'a.go'})-[:CONTAINS {order: 1}]->(s:Scope {uuid: 'u1', name: 'F', startLine: 1, endLine: 9, tags: ['x'],
		changed: 1732300000000, seen: 'yesterday'})-[:CONTAINS]->(:Scope {uuid: 'u2', name: 'M', startLine: 2, endLine: 3})`, nil)
	got := check(t, d, "testdata/misspelt.yaml")
	want := []string{
		"testdata/misspelt.yaml:3:5: warning: no uniqueness constraint on Scope.uuid",
		"testdata/misspelt.yaml:7:9: warning: Scope.name is declared indexed but the graph has no RANGE or TEXT index on it",
		"testdata/misspelt.yaml:8:9: error: no Scope node has the property startLin, so filters on it match nothing; did you mean startLine?",
		"testdata/misspelt.yaml:9:9: error: endLine is declared string but every Scope node holds it as Long, so comparisons with it never match; declare type: integer",
		"testdata/misspelt.yaml:10:9: error: tags is declared string but every Scope node holds it as StringArray",
		"testdata/misspelt.yaml:11:9: error: the sampled Scope.changed values are too large for epoch seconds",
		"testdata/misspelt.yaml:12:9: error: no sampled Scope.seen value is an RFC 3339 date-time",
		"testdata/misspelt.yaml:14:9: error: no relationship has the type CONTAINZ, so explore_relationships finds nothing through it; did you mean CONTAINS?",
		"testdata/misspelt.yaml:15:9: error: no CONTAINS relationship goes (Scope)-[:CONTAINS]->(File), so explore_relationships finds nothing there; the graph has (Scope)<-[:CONTAINS]-(File): did you mean direction: incoming?",
		"testdata/misspelt.yaml:17:5: warning: the full-text index scope_text does not exist",
		"testdata/misspelt.yaml:18:5: error: no node has the label Fil, so every tool returns nothing for it; did you mean File?",
		"testdata/misspelt.yaml:22:5: warning: no uniqueness constraint on File.path",
		"testdata/misspelt.yaml:30:13: error: no CONTAINS relationship has the property ordr, so filters on it match nothing; did you mean order?",
		"testdata/misspelt.yaml:31:5: warning: no uniqueness constraint on Dir.path",
		// Of a multi-target relationship, only the target it does not reach.
		"testdata/misspelt.yaml:36:9: error: no CONTAINS relationship goes (Dir)-[:CONTAINS]->(Scope), so explore_relationships finds nothing there (CONTAINS connects (Dir)->(File), (File)->(Scope), (Scope)->(Scope))",
	}
	matchPrefixes(t, got, want)
}

func TestCheckOfAnEmptyDatabaseWarnsOnceInsteadOfFailingEveryName(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE (:_RagforgeLock {name: 'apply'})", nil) // ragforge's own state is not data
	findings := check(t, d, "testdata/misspelt.yaml")
	if len(findings) != 1 || !strings.Contains(findings[0], ": warning: ") || !strings.Contains(findings[0], "holds no nodes besides ragforge's own") {
		t.Errorf("findings = %v", findings)
	}
}

func TestCheckWarnsAboutIndexesAndUnlistedEnumValuesAndFailsOnVectorDimensions(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (:Doc {id: 'd1', title: 'T', body: 'B', startLine: 1, endLine: 4, span: 3, body_embedding: [0.1, 0.2, 0.3], kind: 'Note', status: 'open'}),
		(:Doc {id: 'd2', kind: 'Memo', status: 'stale'})`, nil)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT doc_id FOR (n:Doc) REQUIRE n.id IS UNIQUE", nil)
	neo4jtest.Run(t, d, "CREATE FULLTEXT INDEX doc_search FOR (n:Doc) ON EACH [n.body, n.title]", nil)
	neo4jtest.Run(t, d, "CREATE VECTOR INDEX doc_vectors FOR (n:Doc) ON (n.body_embedding) OPTIONS {indexConfig: {`vector.dimensions`: 3}}", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(300)", nil)
	got := check(t, d, "testdata/indexes.yaml")
	want := []string{
		"testdata/indexes.yaml:7:9: warning: Doc.title is declared indexed but the graph has no RANGE or TEXT index on it",
		"testdata/indexes.yaml:11:9: error: no sampled Doc.kind value is one of the declared values, so filters on it match nothing; the graph holds \"Memo\", \"Note\"",
		"testdata/indexes.yaml:12:9: warning: some sampled Doc.status values are not declared, so no filter reaches their nodes: \"stale\"",
		"testdata/indexes.yaml:14:9: warning: Doc.span is stored in span but not indexed (index: true); `ragforge-plan materialize apply` creates the index",
		"testdata/indexes.yaml:16:9: error: the vector index doc_vectors holds 3 dimensions, not 4: every semantic_search call would fail",
		"testdata/indexes.yaml:17:5: warning: no full-text index is named doc_text, but doc_search covers the same properties: name it doc_search here",
	}
	matchPrefixes(t, got, want)
}

func TestCheckLetsAnUnrecordedHistoryPassButNotAHalfOne(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT doc_id FOR (n:Doc) REQUIRE n.id IS UNIQUE", nil)
	neo4jtest.Run(t, d, "CREATE (:Doc {id: 'd1'})", nil)
	// No Change and no HAS_CHANGE: nothing recorded yet, a warning each.
	matchPrefixes(t, check(t, d, "testdata/history.yaml"), []string{
		"testdata/history.yaml:8:9: warning: no relationship has the type HAS_CHANGE: no change is recorded yet: change_tracking writes Change nodes and HAS_CHANGE relationships (`ragforge-plan history import --git DIR`",
		"testdata/history.yaml:9:5: warning: no node has the label Change: no change is recorded yet",
	})
	// A Change without its relationship is a broken history: errors.
	neo4jtest.Run(t, d, "CREATE CONSTRAINT change_uuid FOR (n:Change) REQUIRE n.uuid IS UNIQUE", nil)
	neo4jtest.Run(t, d, "CREATE (:Change {uuid: 'c1'})", nil)
	matchPrefixes(t, check(t, d, "testdata/history.yaml"), []string{
		"testdata/history.yaml:8:9: error: no relationship has the type HAS_CHANGE, so explore_relationships finds nothing through it",
		"testdata/history.yaml:14:9: error: no relationship has the type HAS_CHANGE, so explore_relationships finds nothing through it",
	})
	// A history under a name close to the config's is a misspelling: errors.
	neo4jtest.Run(t, d, "MATCH (c:Change) DETACH DELETE c", nil)
	neo4jtest.Run(t, d, "MATCH (doc:Doc) CREATE (doc)-[:HAS_CHANGES]->(:Changes {uuid: 'c2'})", nil)
	matchPrefixes(t, check(t, d, "testdata/history.yaml"), []string{
		"testdata/history.yaml:8:9: error: no relationship has the type HAS_CHANGE, so explore_relationships finds nothing through it; did you mean HAS_CHANGES?",
		"testdata/history.yaml:9:5: error: no node has the label Change, so every tool returns nothing for it; did you mean Changes?",
	})
}

// TestCheckReadsFieldsHeldAsText: vet samples fields stored_as: text, on
// nodes and relationships: a text field none of whose texts parse is an
// error (every value would read as null), texts that neither parse nor are
// declared null_values are a warning naming them, a declared marker is
// quiet, a layout that reads no sampled text is an error, and a number
// field holding strings is told about stored_as: text.
func TestCheckReadsFieldsHeldAsText(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT order_id FOR (n:Order) REQUIRE n.orderID IS UNIQUE", nil)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT product_id FOR (n:Product) REQUIRE n.productID IS UNIQUE", nil)
	neo4jtest.Run(t, d, `CREATE (:Order {orderID: '1', freight: '32.38', shippedDate: 'NULL', requiredDate: '1996-08-01 00:00:00.000', shipCity: 'Reims', shipVia: '3', orderDate: '1996-07-04 00:00:00.000'})
		-[:ORDERS {unitPrice: '14.00', discount: '0.15'}]->(:Product {productID: '11'}),
		(:Order {orderID: '2', freight: 'n/a', shippedDate: '1996-07-16 00:00:00.000', requiredDate: 'NULL', shipCity: 'Lyon', shipVia: '1'})`, nil)
	got := check(t, d, "testdata/text.yaml")
	want := []string{
		`testdata/text.yaml:7:9: warning: 1 of 2 sampled Order.freight texts are not a number and read as null: "n/a" (list them in null_values if they mean no value)`,
		`testdata/text.yaml:9:9: warning: 1 of 2 sampled Order.requiredDate texts are not a datetime (such as 1996-07-04 or 1996-07-04 00:00:00.000) and read as null: "NULL"`,
		`testdata/text.yaml:10:9: error: no sampled Order.shipCity text reads as a number, so every value reads as null; the graph holds "Lyon", "Reims"`,
		`testdata/text.yaml:11:9: error: shipVia is declared number but every Order node holds it as String, so comparisons with it never match; declare stored_as: text if the strings are numbers written as text, else type: string`,
		`testdata/text.yaml:12:9: error: no sampled Order.orderDate text reads as a datetime in the layout 02/01/2006, so every value reads as null; the graph holds "1996-07-04 00:00:00.000"`,
		`testdata/text.yaml:18:13: error: no sampled ORDERS.discount text reads as an integer, so every value reads as null; the graph holds "0.15"`,
	}
	matchPrefixes(t, got, want)
}

// TestCheckReadsListsOnNodesAndRelationships: list fields declared as the
// graph stores them pass (empty lists included, a number list holding
// integers and floats); a list declared where one value is stored, one
// value declared where lists are stored, and a list of the wrong element
// type (strings in an integer list, empty lists beside them) are errors
// naming the type to declare.
func TestCheckReadsListsOnNodesAndRelationships(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (k:Person {name: 'Keanu', nicknames: ['Neo'], scores: [1, 2], weights: [1.5], born: 1964, tags: ['x'], codes: ['a']}),
		(c:Person {name: 'Carrie', nicknames: [], scores: [], weights: [2], codes: []}),
		(m:Movie {title: 'The Matrix'})
		CREATE (k)-[:ACTED_IN {roles: ['Neo'], takes: [3]}]->(m), (c)-[:ACTED_IN {roles: [], takes: [1, 2]}]->(m)`, nil)
	got := check(t, d, "testdata/lists.yaml")
	want := []string{
		"testdata/lists.yaml:3:5: warning: no uniqueness constraint on Person.name",
		"testdata/lists.yaml:10:9: error: born is declared integer_list but every Person node holds it as Long, so comparisons with it never match; declare type: integer",
		"testdata/lists.yaml:11:9: error: tags is declared string but every Person node holds it as StringArray, so comparisons with it never match; declare type: string_list",
		"testdata/lists.yaml:12:9: error: codes is declared integer_list but every Person node holds it as StringArray, so comparisons with it never match; declare type: string_list",
		"testdata/lists.yaml:18:13: error: takes is declared string_list but every ACTED_IN relationship holds it as LongArray, so comparisons with it never match; declare type: integer_list",
		"testdata/lists.yaml:19:5: warning: no uniqueness constraint on Movie.title",
	}
	matchPrefixes(t, got, want)
}

// TestCheckWarnsAboutWhatTheConfigLeavesOut: vet --uri warns, with
// counts, about every label, relationship type and property the graph has
// and the config does not declare.
func TestCheckWarnsAboutWhatTheConfigLeavesOut(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT person_name FOR (n:Person) REQUIRE n.name IS UNIQUE", nil)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT movie_title FOR (n:Movie) REQUIRE n.title IS UNIQUE", nil)
	neo4jtest.Run(t, d, `CREATE (k:Person {name: 'Keanu', born: 1964}), (c:Person {name: 'Carrie'}), (j:Person {name: 'Joel', born: 1952}),
		(m:Movie {title: 'The Matrix'}), (:Studio {name: 'WB'}), (:Studio {name: 'Village'}),
		(k)-[:ACTED_IN {roles: ['Neo']}]->(m), (c)-[:ACTED_IN {roles: ['Trinity']}]->(m), (c)-[:ACTED_IN]->(:Movie {title: 'Memento'}),
		(j)-[:PRODUCED]->(m)`, nil)
	matchPrefixes(t, check(t, d, "testdata/undeclared.yaml"), []string{
		"testdata/undeclared.yaml: warning: the graph has 2 Studio node(s) the config declares no entity for: no tool reaches them",
		"testdata/undeclared.yaml: warning: the graph has 1 PRODUCED relationship(s) ((Person)->(Movie)) the config declares no relationship for: explore_relationships and the related conditions cannot follow them, so their ends look unconnected",
		"testdata/undeclared.yaml:5:5: warning: 2 Person node(s) hold the property born (Long), which the config does not declare: no tool filters on it or returns it",
		"testdata/undeclared.yaml:10:9: warning: 2 ACTED_IN relationship(s) hold the property roles (StringArray), which the config does not declare",
	})
}

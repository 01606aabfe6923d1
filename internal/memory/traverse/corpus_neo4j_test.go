package traverse_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// nextToPerson2 are the rows of the pairs of alice's people who know each
// other, one of them named "… person 2".
var nextToPerson2 = []string{"alice person 1 | alice person 2", "alice person 2 | alice person 1", "alice person 2 | alice person 3", "alice person 3 | alice person 2"}

// scoped are statements that keep every node they read in alice's tenant,
// in the shapes an agent writes (OR, NOT, XOR, CASE, OPTIONAL MATCH,
// UNION, CALL, EXISTS, COUNT and COLLECT subqueries, list and pattern
// comprehensions) and in the plan shapes Neo4j picks for them on a graph
// of few, large tenants (the USING JOIN hints force the node hash joins
// issue 34's harness met), each with the rows it returns on twoTenants'
// graph: ages 21 to 26, KNOWS from each person to the next, THINKS_ABOUT
// from person i to concept i. A row is its columns' values joined by " | ".
var scoped = []struct {
	cypher string
	params map[string]any
	rows   []string
}{
	{"MATCH (p:Person {user_id: $tenant})-[r]-(q:Person) WHERE q.user_id = $tenant AND (q.name CONTAINS $m OR p.name CONTAINS $m) RETURN p.name, q.name LIMIT 5",
		map[string]any{"m": "person 2"},
		nextToPerson2},
	{"MATCH (p:Person {user_id: $tenant})-[r]-(q:Person) USING JOIN ON q WHERE q.user_id = $tenant AND (q.name CONTAINS $m OR p.name CONTAINS $m) RETURN p.name, q.name LIMIT 5",
		map[string]any{"m": "person 2"},
		nextToPerson2},
	{"MATCH (p:Person {user_id: $tenant})-[r]-(q:Person) USING JOIN ON p WHERE q.user_id = $tenant AND (q.name CONTAINS $m OR p.name CONTAINS $m) RETURN p.name, q.name LIMIT 5",
		map[string]any{"m": "person 2"},
		nextToPerson2},
	{"MATCH (p:Person) WHERE (p.user_id = $tenant AND p.age > 25) OR (p.user_id = $tenant AND p.age < 22) RETURN p.marker", nil,
		[]string{"alice-p-1", "alice-p-6"}},
	{"MATCH (p:Person) WHERE p.user_id = $tenant AND p.age = 21 OR p.user_id = $tenant AND p.age = 26 RETURN p.marker", nil,
		[]string{"alice-p-1", "alice-p-6"}},
	{"MATCH (p:Person) WHERE p.user_id = $tenant AND NOT p.age > 22 RETURN p.marker", nil,
		[]string{"alice-p-1", "alice-p-2"}},
	{"MATCH (p:Person) WHERE p.user_id = $tenant AND (p.age > 22 XOR p.age < 25) RETURN p.marker", nil,
		[]string{"alice-p-1", "alice-p-2", "alice-p-5", "alice-p-6"}},
	{"MATCH (p:Person) WHERE p.user_id = $tenant AND CASE WHEN p.age > 24 THEN true ELSE p.age = 21 END RETURN p.marker", nil,
		[]string{"alice-p-1", "alice-p-5", "alice-p-6"}},
	{"MATCH (p:Person) WHERE p.user_id = $tenant WITH p, p.age > 24 AS old WHERE old OR p.age = 21 RETURN p.marker", nil,
		[]string{"alice-p-1", "alice-p-5", "alice-p-6"}},
	{"MATCH (n) WHERE (n:Person OR n:Concept) AND n.user_id = $tenant AND n.marker ENDS WITH '-3' RETURN n.marker", nil,
		[]string{"alice-c-3", "alice-p-3"}},
	{"MATCH (p:Person {user_id: $tenant})-[:KNOWS]->(q:Person {user_id: $tenant}) WHERE p.age + q.age > 49 OR q.marker ENDS WITH '-2' RETURN p.marker, q.marker", nil,
		[]string{"alice-p-1 | alice-p-2", "alice-p-5 | alice-p-6"}},
	{"MATCH (p:Person {user_id: $tenant}) OPTIONAL MATCH (p)-[:KNOWS]->(q:Person) WHERE q.user_id = $tenant AND (q.age > 25 OR q.age < 23) RETURN p.marker, q.marker", nil,
		[]string{"alice-p-1 | alice-p-2", "alice-p-2 | <nil>", "alice-p-3 | <nil>", "alice-p-4 | <nil>", "alice-p-5 | alice-p-6", "alice-p-6 | <nil>"}},
	{"MATCH (p:Person {user_id: $tenant}) OPTIONAL MATCH (p)-[:KNOWS]->(q:Person) USING JOIN ON p WHERE q.user_id = $tenant RETURN p.marker, q.marker", nil,
		[]string{"alice-p-1 | alice-p-2", "alice-p-2 | alice-p-3", "alice-p-3 | alice-p-4", "alice-p-4 | alice-p-5", "alice-p-5 | alice-p-6", "alice-p-6 | <nil>"}},
	{"MATCH (p:Person) WHERE p.user_id = $tenant AND p.age > 25 RETURN p.marker AS m UNION MATCH (c:Concept) WHERE c.user_id = $tenant AND (c.marker ENDS WITH '-1' OR c.marker ENDS WITH '-2') RETURN c.marker AS m", nil,
		[]string{"alice-c-1", "alice-c-2", "alice-p-6"}},
	{"MATCH (p:Person {user_id: $tenant}) CALL (p) { MATCH (p)-[:KNOWS]-(q) WHERE q.user_id = $tenant RETURN count(q) AS k } RETURN p.marker, k", nil,
		[]string{"alice-p-1 | 1", "alice-p-2 | 2", "alice-p-3 | 2", "alice-p-4 | 2", "alice-p-5 | 2", "alice-p-6 | 1"}},
	{"MATCH (p:Person {user_id: $tenant}) WHERE p.age = 21 OR EXISTS { MATCH (p)-[:KNOWS]->(q) WHERE q.user_id = $tenant AND q.age > 25 } RETURN p.marker", nil,
		[]string{"alice-p-1", "alice-p-5"}},
	{"MATCH (p:Person {user_id: $tenant}) WHERE NOT EXISTS { MATCH (p)-[:KNOWS]->(q) WHERE q.user_id = $tenant } OR p.age = 21 RETURN p.marker", nil,
		[]string{"alice-p-1", "alice-p-6"}},
	{"MATCH (p:Person {user_id: $tenant}) RETURN p.marker, COUNT { MATCH (p)-[:KNOWS]-(q) WHERE q.user_id = $tenant AND (q.age > 24 OR q.age < 22) } AS k", nil,
		[]string{"alice-p-1 | 0", "alice-p-2 | 1", "alice-p-3 | 0", "alice-p-4 | 1", "alice-p-5 | 1", "alice-p-6 | 1"}},
	{"MATCH (p:Person {user_id: $tenant}) WHERE p.age < 23 RETURN p.marker, COLLECT { MATCH (p)-[:THINKS_ABOUT]->(c) WHERE c.user_id = $tenant RETURN c.marker } AS cs", nil,
		[]string{"alice-p-1 | [alice-c-1]", "alice-p-2 | [alice-c-2]"}},
	{"MATCH (p:Person {user_id: $tenant}) WHERE p.age < 23 RETURN p.marker, [x IN range(1, 3) WHERE x <> 2 | x * p.age] AS xs", nil,
		[]string{"alice-p-1 | [21 63]", "alice-p-2 | [22 66]"}},
	{"MATCH (p:Person {user_id: $tenant}) WHERE p.age < 23 RETURN p.marker, [(p)-[:KNOWS]-(q) WHERE q.user_id = $tenant AND NOT q.age = 21 | q.marker] AS qs", nil,
		[]string{"alice-p-1 | [alice-p-2]", "alice-p-2 | [alice-p-3]"}},
	{"MATCH (p:Person {user_id: $tenant}) WHERE p.age = 21 MATCH path = (p)-[:KNOWS*1..2]->(q) WHERE all(x IN nodes(path) WHERE x.user_id = $tenant) RETURN q.marker", nil,
		[]string{"alice-p-2", "alice-p-3"}},
	{"CALL db.index.fulltext.queryNodes('names', 'person OR concept') YIELD node WHERE node.user_id = $tenant AND (node.marker ENDS WITH '-1' OR node.marker ENDS WITH '-2') RETURN node.marker", nil,
		[]string{"alice-c-1", "alice-c-2", "alice-p-1", "alice-p-2"}},
}

// escapes are statements that read a node of another tenant, or could:
// the scope package's refused plan cases (each refused here for the same
// reason, through the whole tool) and the shapes of the scoped corpus with
// one tenant predicate taken out or made optional.
func escapes(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("../../cypher/scope/testdata/plans.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{
		"MATCH (p:Person {user_id: $tenant})-[r]-(q:Person) WHERE q.name CONTAINS $m OR p.name CONTAINS $m RETURN p.name, q.name LIMIT 5":                           "node variable q",
		"MATCH (p:Person {user_id: $tenant})-[r]-(q:Person) USING JOIN ON q WHERE q.user_id = $tenant OR q.name CONTAINS $m RETURN p.name, q.name LIMIT 5":          "node variable q",
		"MATCH (p:Person {user_id: $tenant})-[r]-(q:Person) USING JOIN ON p WHERE q.name CONTAINS $m RETURN p.name, q.name LIMIT 5":                                 "node variable q",
		"MATCH (p:Person {user_id: $tenant}) OPTIONAL MATCH (p)-[:KNOWS]->(q:Person) USING JOIN ON p RETURN p.marker, q.marker":                                     "node variable q",
		"MATCH (p:Person) WHERE (p.user_id = $tenant AND p.age > 25) OR p.age < 22 RETURN p.marker":                                                                 "node variable p",
		"MATCH (p:Person) WHERE p.user_id = $tenant XOR p.age < 22 RETURN p.marker":                                                                                 "node variable p",
		"MATCH (p:Person) WHERE CASE WHEN p.age > 24 THEN true ELSE p.user_id = $tenant END RETURN p.marker":                                                        "node variable p",
		"MATCH (p:Person {user_id: $tenant}) WHERE p.age = 21 OR EXISTS { MATCH (p)-[:KNOWS]->(q) WHERE q.user_id = $tenant OR q.age > 25 } RETURN p.marker":        "node variable q",
		"MATCH (p:Person {user_id: $tenant}) RETURN p.marker, COUNT { MATCH (p)-[:KNOWS]-(q) WHERE q.age > 24 OR q.user_id = $tenant } AS k":                        "node variable q",
		"MATCH (p:Person) WHERE p.user_id = $tenant AND p.age > 25 RETURN p.marker AS m UNION MATCH (c:Concept) WHERE c.marker ENDS WITH '-1' RETURN c.marker AS m": "node variable c",
	}
	var query string
	for _, l := range strings.Split(string(raw), "\n") {
		switch {
		case strings.HasPrefix(l, "### query: "):
			query = strings.TrimPrefix(l, "### query: ")
		case strings.HasPrefix(l, "### want: refused "):
			out[query] = strings.TrimPrefix(l, "### want: refused ")
		}
	}
	return out
}

// TestTraverseCorpus holds both sides of the tenant proof through the
// whole tool: every scoped statement is accepted and returns its rows,
// every escape is refused with a CallError saying why.
func TestTraverseCorpus(t *testing.T) {
	// An agent's statements, which may use what Neo4j deprecates.
	d := neo4jtest.AllowDeprecations(neo4jtest.Open(t))
	bob := twoTenants(t, d)
	// The indexes the scope package's plan cases name.
	for _, q := range []string{
		"CREATE FULLTEXT INDEX people IF NOT EXISTS FOR (n:Person) ON EACH [n.name]",
		"CREATE FULLTEXT INDEX knows_text IF NOT EXISTS FOR ()-[r:KNOWS]-() ON EACH [r.note]",
		"CALL db.awaitIndexes()",
	} {
		neo4jtest.Run(t, d, q, nil)
	}
	tool := traverse.NewWith(testModel(), tools.Env{Driver: d, Database: neo4jtest.Database()},
		append(slices.Clone(traverse.DefaultProcedures), "db.schema.visualization", "db.index.fulltext.queryRelationships"))[0]
	ctx := tenant.With(context.Background(), "alice")
	t.Run("scoped statements are accepted with their rows", func(t *testing.T) {
		for _, c := range scoped {
			res, err := call(ctx, tool, query{cypher: c.cypher, params: c.params})
			if err != nil {
				t.Errorf("%s\n  refused: %v", c.cypher, err)
				continue
			}
			if got := rowStrings(res); !slices.Equal(got, c.rows) {
				t.Errorf("%s\n  rows %q\n  want %q", c.cypher, got, c.rows)
			}
			checkClean(t, d, query{cypher: c.cypher, params: c.params}, res, bob)
		}
	})
	t.Run("escapes are refused, saying why", func(t *testing.T) {
		es := escapes(t)
		if len(es) < 40 {
			t.Fatalf("only %d escapes", len(es))
		}
		for q, want := range es {
			_, err := call(ctx, tool, query{cypher: q, params: map[string]any{"m": "person"}})
			var ce *tools.CallError
			if !errors.As(err, &ce) || !strings.Contains(ce.Error(), want) {
				t.Errorf("%s\n  got %v\n  want a CallError saying %q", q, err, want)
			}
		}
	})
}

// rowStrings writes each row as its columns' values joined by " | ",
// sorted.
func rowStrings(res *traverse.Result) []string {
	out := []string{}
	for _, r := range res.Rows {
		var vs []string
		for _, c := range res.Columns {
			vs = append(vs, fmt.Sprint(r[c]))
		}
		out = append(out, strings.Join(vs, " | "))
	}
	slices.Sort(out)
	return out
}

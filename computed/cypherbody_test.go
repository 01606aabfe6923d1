package computed

import (
	"context"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// balancedBodies keep every bracket inside their strings, names and
// comments, as Cypher's lexer reads them.
var balancedBodies = []string{
	"OPTIONAL MATCH (n)-[:HAS_CHANGE]->(c:Change)\nRETURN count(c) AS x",
	"RETURN '}' AS x",
	`RETURN "}\"}" AS x`,
	`RETURN '\\' + '{' AS x`,
	"RETURN 1 AS x, 2 AS `}``{`",
	"RETURN 1 AS x // }",
	"RETURN 1 AS x /* } { /* */",
	"RETURN [n {.name}] AS x",
	`RETURN 1 AS x // \\u000A }`, // \\u is an escaped backslash, not a newline
	`RETURN '\u007D' AS x`,       // a } inside the string either way
	"RETURN 'a\nb' AS x",
}

// escapingBodies would end the subquery early (or swallow its closing
// brace) if Subquery wrapped them.
var escapingBodies = map[string]string{
	"RETURN 1 AS x } MATCH (m) DETACH DELETE m //":   "} closes nothing",
	`RETURN 1 AS x \u007D MATCH (m) DETACH DELETE m`: "} closes nothing",
	`RETURN 1 AS x // \u000A } MATCH (m) DELETE m`:   "} closes nothing",
	`RETURN 1 AS x // \u005C\u000A }`:                "} closes nothing",
	"RETURN 1 AS x /* \\\\\\u002A/ } */":             "} closes nothing",
	"RETURN 'x\\u005C' AS x":                         "string literal starting here is never closed",
	"RETURN (1 AS x":                                 "( opened here is never closed",
	"RETURN [1) AS x":                                ") does not match the [ opened at cypher 1:8",
	"RETURN 'abc AS x":                               "string literal starting here is never closed",
	`RETURN "abc\" AS x`:                             "string literal starting here is never closed",
	"RETURN 1 AS `x":                                 "backtick name starting here is never closed",
	"RETURN 1 AS `x``":                               "backtick name starting here is never closed",
	"RETURN 1 AS x /* }":                             "comment starting here is never closed",
	"RETURN 1 AS x; MATCH (m) DELETE m":              "one query",
	`RETURN 1 AS x \u00G1`:                           "four hexadecimal digits",
}

func TestCypherBodyScannerFollowsCypherLexicalRules(t *testing.T) {
	for _, body := range balancedBodies {
		if err := checkCypherBody(body); err != nil {
			t.Errorf("%q refused: %s", body, err.Msg)
		}
	}
	for body, want := range escapingBodies {
		err := checkCypherBody(body)
		if err == nil || !strings.Contains(err.Msg, want) {
			t.Errorf("%q: error %v, want one containing %q", body, err, want)
		}
	}
}

func TestCypherBodyErrorPointsAtTheBracketAsWritten(t *testing.T) {
	err := checkCypherBody("MATCH (n)\nRETURN 1 AS x \\u007D")
	if err == nil {
		t.Fatal("accepted an escaped }")
	}
	err.Source = "MATCH (n)\nRETURN 1 AS x \\u007D"
	if line, col := err.LineCol(); line != 2 || col != 15 {
		t.Errorf("error at %d:%d, want 2:15 (the backslash of \\u007D)", line, col)
	}
}

func TestCompileRejectsAnUnbalancedCypherBodyAndSubqueryRefusesIt(t *testing.T) {
	e := testEntity([3]string{"x", "integer", "cypher:RETURN 1 AS x } MATCH (m) DETACH DELETE m //"})
	_, err := Compile(e)
	if err == nil || !strings.Contains(err.Error(), "} closes nothing") {
		t.Fatalf("Compile = %v, want the stray } refused", err)
	}
	f := &Field{Config: e.Computed[len(e.Computed)-1], ent: &Entity{Name: e.Name}}
	if _, err := f.Subquery("n"); err == nil {
		t.Error("Subquery wrapped a body that escapes its scope")
	}
}

// TestNeo4jLexesBalancedBodiesInsideTheSubquery proves the scanner agrees
// with Neo4j: every body it accepts compiles inside the wrapper (the
// brackets in strings, names and comments did not close it), and the bodies
// it refuses for a stray } do break out of a bare CALL { … }.
func TestNeo4jLexesBalancedBodiesInsideTheSubquery(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	explain := func(body string) error {
		_, err := neo4j.ExecuteQuery(ctx, d, "EXPLAIN MATCH (n) CALL (n) {\n"+body+"\n} RETURN x", nil, neo4j.EagerResultTransformer)
		return err
	}
	for _, body := range balancedBodies {
		if err := explain(body); err != nil {
			t.Errorf("Neo4j refused %q, which the scanner accepts: %v", body, err)
		}
	}
	for body, want := range escapingBodies {
		if want != "} closes nothing" {
			continue
		}
		// Cut the body after the stray }: Neo4j must read that } as the
		// end of the subquery.
		raw := []rune(body)
		off := checkCypherBody(body).Offset
		end := off + 1
		if raw[off] == '\\' {
			end = off + 6 // \u007D
		}
		_, err := neo4j.ExecuteQuery(ctx, d, "EXPLAIN MATCH (n) CALL (n) {\n"+string(raw[:end])+" RETURN x", nil, neo4j.EagerResultTransformer)
		if err != nil {
			t.Errorf("Neo4j did not end the subquery at the stray } of %q: %v", body, err)
		}
	}
}

// FuzzCypherBody: the scanner never panics, points inside the body, and a
// body it accepts keeps the wrapper's closing brace as the one that closes
// the subquery.
func FuzzCypherBody(f *testing.F) {
	for _, b := range balancedBodies {
		f.Add(b)
	}
	for b := range escapingBodies {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		err := checkCypherBody(body)
		if err != nil {
			if err.Offset < 0 || err.Offset > len([]rune(body)) {
				t.Fatalf("offset %d outside %q", err.Offset, body)
			}
			return
		}
		wrapped := "CALL (n) {\n" + body + "\n}"
		if err := checkCypherBody(wrapped); err != nil {
			t.Fatalf("accepted %q but the wrapped form is unbalanced: %s", body, err.Msg)
		}
		if err := checkCypherBody(wrapped + "}"); err == nil {
			t.Fatalf("accepted %q but the wrapper's } does not close the subquery", body)
		}
	})
}

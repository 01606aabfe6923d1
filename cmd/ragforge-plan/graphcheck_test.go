package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestCallRefusesAConfigTheGraphContradictsUnlessToldToWarn: a movies
// graph whose released years are text contradicts the movies config
// (integer): call refuses it with vet's message; with
// --serve-contradicted it answers, and an answer about movies says so
// while one about people does not.
func TestCallRefusesAConfigTheGraphContradictsUnlessToldToWarn(t *testing.T) {
	const movies = "../../testdata/configs/valid/movies.yaml"
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (k:Person {name: 'Keanu Reeves', born: 1964}), (l:Person {name: 'Lilly Wachowski', born: 1967}),
		(m:Movie {title: 'The Matrix', released: '1999', tagline: 'Welcome to the Real World'}),
		(k)-[:ACTED_IN {roles: ['Neo']}]->(m), (l)-[:DIRECTED]->(m), (l)-[:PRODUCED]->(m), (l)-[:WROTE]->(m),
		(k)-[:REVIEWED {rating: 90, summary: 'Good'}]->(m), (k)-[:FOLLOWS]->(l)`, nil)
	flags := serverFlags(t)
	const movieArgs = `{"entity_type":"Movie","conditions":[{"field":"released","operator":">","value":1990}]}`
	code, out, errOut := execute(t, append([]string{"call", movies, "--tool", "query_entities", "--args", movieArgs}, flags...)...)
	if code != 1 || out != "" || !strings.Contains(errOut, "pass --serve-contradicted") ||
		!strings.Contains(errOut, "movies.yaml:17:9: type: released is declared integer but every Movie node holds it as String") {
		t.Fatalf("without the flag: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	notes := func(args string) []string {
		t.Helper()
		code, out, errOut := execute(t, append([]string{"call", movies, "--serve-contradicted", "--format", "json", "--tool", "query_entities", "--args", args}, flags...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var res struct {
			Notes []string `json:"notes"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return res.Notes
	}
	want := "the graph contradicts the config, so this answer may miss data: released is declared integer but every Movie node holds it as String"
	if got := notes(movieArgs); len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("movies: notes %q, want one starting %q", got, want)
	}
	if got := notes(`{"entity_type":"Person"}`); len(got) != 0 {
		t.Errorf("people: notes %q, want none", got)
	}
}

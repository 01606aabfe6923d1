package computed

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

func TestExplainCheckAcceptsReadOnlyAndRejectsTheRest(t *testing.T) {
	driver := neo4jtest.Open(t)
	ce := mustCompile(t,
		[3]string{"modified_at", "datetime", "cypher:OPTIONAL MATCH (n)-[:HAS_CHANGE]->(c:Change)\nRETURN max(c.timestamp) AS modified_at"},
		[3]string{"writes", "integer", "cypher:CREATE (x:Oops) RETURN 1 AS writes"},
		[3]string{"wrong_column", "integer", "cypher:RETURN 1 AS other"},
		[3]string{"broken", "integer", "cypher:RETURN 1 +* 2 AS broken"},
		[3]string{"two_columns", "integer", "cypher:RETURN 1 AS two_columns, 2 AS x"},
	)
	for name, want := range map[string]string{
		"modified_at":  "",
		"writes":       "read-only",
		"wrong_column": "exactly one column named wrong_column, got other",
		"broken":       "does not compile",
		"two_columns":  "exactly one column",
	} {
		err := ExplainCheck(context.Background(), driver, neo4jtest.Database(), ce.Field(name))
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: err = %v, want it to contain %q", name, err, want)
		}
	}
}

// TestRawCypherFieldRunsAsSubquery runs the code-RAG pattern — age_days
// reading the raw cypher field modified_at — on real nodes and compares it
// with the Go evaluation given modified_at's value.
func TestRawCypherFieldRunsAsSubquery(t *testing.T) {
	driver := neo4jtest.Open(t)
	ce := mustCompile(t,
		[3]string{"modified_at", "datetime", "cypher:OPTIONAL MATCH (n)-[:HAS_CHANGE]->(c:Change)\nRETURN max(c.timestamp) AS modified_at"},
		[3]string{"age_days", "integer", "days_since(modified_at)"},
		[3]string{"changes", "integer", "cypher:MATCH (n)-[:HAS_CHANGE]->(c:Change) RETURN c.n AS changes"},
	)
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	neo4jtest.Run(t, driver, `CREATE (a:T {i1: 1}), (b:T {i1: 2}), (c:T {i1: 3})
		CREATE (a)-[:HAS_CHANGE]->(:Change {timestamp: datetime('2024-05-01T00:00:00+02:00'), n: 1})
		CREATE (a)-[:HAS_CHANGE]->(:Change {timestamp: datetime('2024-05-20T10:00:00Z'), n: 2})
		CREATE (b)-[:HAS_CHANGE]->(:Change {timestamp: localdatetime('2024-05-31T13:00:00'), n: 5})`, nil)
	age, _ := ce.Field("age_days").Fragment(Options{Now: testNow})
	mod, _ := ce.Field("modified_at").Fragment(Options{})
	chg, _ := ce.Field("changes").Fragment(Options{})
	q := "MATCH (n:T) " + strings.Join(age.Subqueries, " ") + " " + strings.Join(chg.Subqueries, " ") +
		" RETURN n.i1 AS id, " + mod.Cypher + " AS modified_at, " + age.Cypher + " AS age, " + chg.Cypher + " AS changes ORDER BY id"
	res, err := neo4j.ExecuteQuery(context.Background(), driver, q, map[string]any{"now": now}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	if len(res.Records) != 3 {
		t.Fatalf("%d rows, want 3 (the subquery must keep every node)", len(res.Records))
	}
	wantAge := []any{int64(12), int64(0), nil}
	wantChanges := []any{nil, int64(5), nil} // two rows → null, one row → value, none → null
	for i, rec := range res.Records {
		goAge, err := ce.Field("age_days").EvalAt(map[string]any{"modified_at": rec.Values[1]}, now)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Values[2] != wantAge[i] || goAge != wantAge[i] {
			t.Errorf("row %d: age Neo4j %v, Go %v, want %v", i, rec.Values[2], goAge, wantAge[i])
		}
		if rec.Values[3] != wantChanges[i] {
			t.Errorf("row %d: changes %v, want %v", i, rec.Values[3], wantChanges[i])
		}
	}
}

// TestExplainCheckRefusesWhatRunCypherRefuses proves cypher fields are
// classified by the same readonly.Check as run_cypher: a read-only body
// that calls a procedure outside the allowlist, or an APOC loader (this
// case needs APOC: without it the loader is an unknown procedure), is
// refused naming the field.
func TestExplainCheckRefusesWhatRunCypherRefuses(t *testing.T) {
	driver := neo4jtest.Open(t)
	ce := mustCompile(t,
		[3]string{"info", "string", "cypher:CALL db.info() YIELD id RETURN id AS info"},
		[3]string{"loaded", "string", "cypher:CALL apoc.load.json('file:///etc/hosts') YIELD value RETURN value AS loaded"},
	)
	for _, c := range []struct{ name, want string }{
		{"info", "must be a read: procedure db.info is not allowed"},
		{"loaded", "must be a read: procedure apoc.load.json is not allowed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.want, "apoc") {
				neo4jtest.RequireAPOC(t, driver)
			}
			err := ExplainCheck(context.Background(), driver, neo4jtest.Database(), ce.Field(c.name))
			var ferr *Error
			if !errors.As(err, &ferr) || ferr.Field != c.name || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want a field error saying %q", err, c.want)
			}
		})
	}
}

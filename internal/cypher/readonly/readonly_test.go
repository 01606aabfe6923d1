package readonly_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

func TestCheckAcceptsReadsAndRefusesWritesLoadCSVAndUnlistedProcedures(t *testing.T) {
	d := neo4jtest.Open(t)
	opts := readonly.Options{Database: neo4jtest.Database()}
	ctx := context.Background()
	for _, q := range []string{
		"MATCH (n:Scope) RETURN n.name AS name, count(*) AS c",
		"CALL db.labels() YIELD label RETURN label",
	} {
		ex, err := readonly.Check(ctx, d, q, opts)
		if err != nil {
			t.Errorf("%q refused: %v", q, err)
			continue
		}
		if len(ex.Keys) == 0 {
			t.Errorf("%q: no columns", q)
		}
	}
	for q, want := range map[string]string{
		"CREATE (:Scope {name: 'x'})":                        "write-only (w)",
		"MATCH (n) DETACH DELETE n":                          "write",
		"CREATE INDEX x IF NOT EXISTS FOR (n:A) ON (n.b)":    "schema",
		"LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l":   "LOAD CSV",
		"CALL dbms.components() YIELD name RETURN name":      "schema-write",
		"CALL db.info() YIELD id RETURN id":                  "procedure db.info is not allowed",
		"EXPLAIN MATCH (n) RETURN n":                         "without EXPLAIN",
		"MATCH (n) CALL (n) { SET n.x = 1 } RETURN count(*)": "read-write",
	} {
		_, err := readonly.Check(ctx, d, q, opts)
		var r *readonly.Refusal
		if !errors.As(err, &r) || !strings.Contains(r.Reason, want) {
			t.Errorf("%q: got %v, want a Refusal saying %q", q, err, want)
		}
	}
	if _, err := readonly.Check(ctx, d, "CALL db.info() YIELD id RETURN id", readonly.Options{Database: neo4jtest.Database(), Procedures: []string{"db.info"}}); err != nil {
		t.Errorf("an allowed procedure was refused: %v", err)
	}
	if slices.Contains(readonly.DefaultProcedures, "apoc.load.json") {
		t.Error("the default allowlist holds a loader")
	}
}

// TestCheckAllowsAPOCValueFunctionsButRefusesItsLoaders: with APOC on the
// server, its text functions are a read and its loaders are refused by name
// (without APOC both would be plan errors, proving nothing).
func TestCheckAllowsAPOCValueFunctionsButRefusesItsLoaders(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.RequireAPOC(t, d)
	opts := readonly.Options{Database: neo4jtest.Database()}
	if _, err := readonly.Check(t.Context(), d, "RETURN apoc.text.join(['a', 'b'], ',') AS s", opts); err != nil {
		t.Errorf("apoc.text.join refused: %v", err)
	}
	_, err := readonly.Check(t.Context(), d, "CALL apoc.load.json('file:///x') YIELD value RETURN value", opts)
	var r *readonly.Refusal
	if !errors.As(err, &r) || !strings.Contains(r.Reason, "apoc.load.json is not allowed") {
		t.Errorf("apoc.load.json: got %v, want a Refusal naming it", err)
	}
}

func TestCheckReportsAStatementNeo4jCannotPlanAsAPlanError(t *testing.T) {
	d := neo4jtest.Open(t)
	_, err := readonly.Check(context.Background(), d, "RETURN 1 +* 2 AS x", readonly.Options{Database: neo4jtest.Database()})
	var pe *readonly.PlanError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "line 1") {
		t.Fatalf("got %v, want a PlanError with Neo4j's position", err)
	}
}

func TestCheckRefusesAProcedureInTheLeftBranchOfAPlan(t *testing.T) {
	// An agent's statements, which may use what Neo4j deprecates.
	d := neo4jtest.AllowDeprecations(neo4jtest.Open(t))
	opts := readonly.Options{Database: neo4jtest.Database()}
	// The unlisted procedure is the left input of a two-input operator;
	// the driver's Plan.Children repeats the right input instead.
	for _, q := range []string{
		"CALL { CALL db.info() YIELD id RETURN id } MATCH (n:Scope) RETURN id, n",
		"CALL { CALL db.info() YIELD id RETURN id } CALL { MATCH (n:Scope) RETURN n } RETURN id, n",
		"CALL db.info() YIELD id RETURN id UNION MATCH (n:Scope) RETURN n.name AS id",
	} {
		ex, err := readonly.Check(context.Background(), d, q, opts)
		var r *readonly.Refusal
		if !errors.As(err, &r) || !strings.Contains(r.Reason, "db.info") {
			t.Errorf("%q: got %v, want a Refusal naming db.info", q, err)
			if ex != nil {
				t.Logf("plan: %+v", ex.Plan)
			}
		}
	}
}

// TestCheckReportsACallToAnUnknownProcedureAsAPlanError: Neo4j answers
// EXPLAIN of an unknown procedure with ProcedureNotFound, not a Statement
// error; it is still the statement's fault, so Check returns a PlanError
// naming the procedure, which callers turn into a correctable error.
func TestCheckReportsACallToAnUnknownProcedureAsAPlanError(t *testing.T) {
	d := neo4jtest.Open(t)
	for _, q := range []string{
		"CALL nope.missing() YIELD x RETURN x",
		"MATCH (n) CALL (n) { CALL nope.missing(n) YIELD x RETURN x } RETURN *",
	} {
		_, err := readonly.Check(context.Background(), d, q, readonly.Options{Database: neo4jtest.Database()})
		var pe *readonly.PlanError
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "nope.missing") {
			t.Errorf("%q: got %T %v, want a PlanError naming nope.missing", q, err, err)
		}
	}
}

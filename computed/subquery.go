package computed

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/ident"
)

// Subquery is the CALL clause that computes a raw `cypher:` field for the
// node bound to variable node. The body runs in a variable-scope subquery
// that sees only the node (as n), must return one column named like the
// field, and is wrapped so that the outer row is always kept: zero rows or
// several rows give null, exactly one row gives its value. The value is
// bound to [Alias](node, field).
//
//	CALL (n) { CALL (n) {
//	<body>
//	} WITH collect([`field`]) AS __rf_rows RETURN CASE size(__rf_rows) WHEN 1 THEN __rf_rows[0][0] END AS `__rf_n_field` }
func (f *Field) Subquery(node string) (string, error) {
	if f.Config.Cypher == "" {
		return "", fmt.Errorf("%s.%s is not a cypher field", f.ent.Name, f.Config.Name)
	}
	if !plainVar.MatchString(node) {
		return "", fmt.Errorf("node variable %q is not a plain identifier", node)
	}
	col, err := ident.Quote(f.Config.Name)
	if err != nil {
		return "", err
	}
	alias, err := ident.Quote(Alias(node, f.Config.Name))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CALL (%s) { ", node)
	if node != "n" {
		fmt.Fprintf(&b, "WITH %s AS n ", node)
	}
	fmt.Fprintf(&b, "CALL (n) {\n%s\n} WITH collect([%s]) AS __rf_rows RETURN CASE size(__rf_rows) WHEN 1 THEN __rf_rows[0][0] END AS %s }",
		strings.TrimSpace(f.Config.Cypher), col, alias)
	return b.String(), nil
}

var neo4jPos = regexp.MustCompile(`\(line (\d+), column (\d+)`)

// ExplainCheck asks Neo4j to plan a raw `cypher:` field without running it
// (EXPLAIN) and verifies that the body parses, returns exactly one column
// named like the field, and is read-only (query type "r"), so `ragforge-plan
// vet` can reject a field that would write or fail at query time. Expression
// fields need no server and return nil.
func ExplainCheck(ctx context.Context, driver neo4j.DriverWithContext, database string, f *Field) error {
	if f.Config.Cypher == "" {
		return nil
	}
	fail := func(format string, args ...any) error {
		return &Error{Entity: f.ent.Name, Field: f.Config.Name, Pos: f.Config.ExpressionPos, Msg: fmt.Sprintf(format, args...)}
	}
	label, err := ident.Quote(f.ent.Name)
	if err != nil {
		return fail("%v", err)
	}
	opts := []neo4j.ExecuteQueryConfigurationOption{neo4j.ExecuteQueryWithReadersRouting()}
	if database != "" {
		opts = append(opts, neo4j.ExecuteQueryWithDatabase(database))
	}
	// The body alone: does it parse, and which columns does it return?
	q := fmt.Sprintf("EXPLAIN MATCH (n:%s) CALL (n) {\n%s\n} RETURN *", label, strings.TrimSpace(f.Config.Cypher))
	res, err := neo4j.ExecuteQuery(ctx, driver, q, nil, neo4j.EagerResultTransformer, opts...)
	if err != nil {
		msg := err.Error()
		if m := neo4jPos.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			msg = fmt.Sprintf("%s (cypher line %d, column %s)", firstLine(msg), line-1, m[2])
		}
		return fail("cypher does not compile: %s", msg)
	}
	cols := slices.DeleteFunc(slices.Clone(res.Keys), func(k string) bool { return k == "n" })
	if len(cols) != 1 || cols[0] != f.Config.Name {
		return fail("cypher must return exactly one column named %s, got %s", f.Config.Name, strings.Join(cols, ", "))
	}
	if t := res.Summary.StatementType(); t != neo4j.StatementTypeReadOnly {
		return fail("cypher must be read-only, Neo4j classifies it as %s", statementType(t))
	}
	// The form the planner runs.
	sub, err := f.Subquery("n")
	if err != nil {
		return fail("%v", err)
	}
	alias, err := ident.Quote(Alias("n", f.Config.Name))
	if err != nil {
		return fail("%v", err)
	}
	res, err = neo4j.ExecuteQuery(ctx, driver, fmt.Sprintf("EXPLAIN MATCH (n:%s) %s RETURN %s", label, sub, alias), nil, neo4j.EagerResultTransformer, opts...)
	if err != nil {
		return fail("wrapped cypher does not compile: %s", firstLine(err.Error()))
	}
	if t := res.Summary.StatementType(); t != neo4j.StatementTypeReadOnly {
		return fail("cypher must be read-only, Neo4j classifies it as %s", statementType(t))
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func statementType(t neo4j.StatementType) string {
	switch t {
	case neo4j.StatementTypeReadOnly:
		return "read-only (r)"
	case neo4j.StatementTypeReadWrite:
		return "read-write (rw)"
	case neo4j.StatementTypeWriteOnly:
		return "write-only (w)"
	case neo4j.StatementTypeSchemaWrite:
		return "schema-write (s)"
	}
	return "unknown"
}

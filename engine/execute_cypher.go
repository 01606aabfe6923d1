package engine

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/tools"
)

// DefaultProcedures are the procedures run_cypher may call: schema
// introspection and index queries, which read the graph only. Procedures
// that read files, reach the network or administer the server (APOC
// loaders, dbms.*) are refused.
var DefaultProcedures = []string{
	"db.labels", "db.relationshipTypes", "db.propertyKeys",
	"db.schema.visualization", "db.schema.nodeTypeProperties", "db.schema.relTypeProperties",
	"db.index.fulltext.queryNodes", "db.index.fulltext.queryRelationships",
	"db.index.vector.queryNodes", "db.index.vector.queryRelationships",
}

// allowedFunctionPrefixes are the APOC function namespaces run_cypher may
// use (pure value functions); any other apoc.* name in the plan is refused.
var allowedFunctionPrefixes = []string{"apoc.text.", "apoc.coll.", "apoc.map.", "apoc.convert.", "apoc.date.", "apoc.number.", "apoc.math.", "apoc.agg.", "apoc.node.", "apoc.nodes.", "apoc.label.", "apoc.any.", "apoc.meta.cypher."}

// procName reads a procedure name from a ProcedureCall operator's details,
// e.g. "db.labels() :: (label :: STRING)".
var procName = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(`)

// apocName finds APOC names anywhere in an operator's details.
var apocName = regexp.MustCompile(`(?i)\bapoc\.[A-Za-z0-9_.]+`)

// checkRaw accepts an agent-written statement only when Neo4j's EXPLAIN
// classifies it as read-only ("r"), it loads no CSV, and it calls only
// allowed procedures and APOC functions. The statement still runs in a read
// transaction with the timeout and row cap.
func (e *Engine) checkRaw(ctx context.Context, sess neo4j.SessionWithContext, query string) error {
	refuse := func(format string, args ...any) error {
		return &tools.CallError{Tool: tools.RunCypher, Problems: []tools.Problem{{Path: "/query", Message: fmt.Sprintf(format, args...)}}}
	}
	trimmed := strings.TrimSpace(query)
	upper := strings.ToUpper(trimmed)
	if strings.HasPrefix(upper, "EXPLAIN") || strings.HasPrefix(upper, "PROFILE") {
		return refuse("give the query without EXPLAIN or PROFILE")
	}
	var summary neo4j.ResultSummary
	_, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, "EXPLAIN "+trimmed, nil)
		if err != nil {
			return nil, err
		}
		summary, err = res.Consume(ctx)
		return nil, err
	}, neo4j.WithTxTimeout(e.opts.Timeout))
	if err != nil {
		var ne *neo4j.Neo4jError
		if as(err, &ne) {
			return refuse("Neo4j cannot plan the query: %s", ne.Msg)
		}
		return fmt.Errorf("engine: explaining run_cypher query: %w", err)
	}
	if summary.StatementType() != neo4j.StatementTypeReadOnly {
		return refuse("only read-only queries are allowed (Neo4j classifies this one as %s)", statementTypeName(summary.StatementType()))
	}
	var bad error
	var walk func(p neo4j.Plan)
	walk = func(p neo4j.Plan) {
		if p == nil || bad != nil {
			return
		}
		op := p.Operator()
		details, _ := p.Arguments()["Details"].(string)
		switch {
		case strings.Contains(op, "LoadCSV"):
			bad = refuse("LOAD CSV is not allowed")
		case strings.Contains(op, "ProcedureCall"):
			m := procName.FindStringSubmatch(details)
			if m == nil || !slices.Contains(e.opts.Procedures, m[1]) {
				name := details
				if m != nil {
					name = m[1]
				}
				bad = refuse("procedure %s is not allowed (allowed: %s)", name, strings.Join(e.opts.Procedures, ", "))
			}
		}
		for _, name := range apocName.FindAllString(details, -1) {
			if bad != nil {
				break
			}
			ok := false
			for _, pre := range allowedFunctionPrefixes {
				if strings.HasPrefix(strings.ToLower(name), strings.ToLower(pre)) {
					ok = true
				}
			}
			if !ok && !slices.Contains(e.opts.Procedures, name) {
				bad = refuse("%s is not allowed in run_cypher", name)
			}
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(summary.Plan())
	return bad
}

func statementTypeName(t neo4j.StatementType) string {
	switch t {
	case neo4j.StatementTypeReadWrite:
		return "read-write"
	case neo4j.StatementTypeWriteOnly:
		return "write"
	case neo4j.StatementTypeSchemaWrite:
		return "schema write"
	}
	return "unknown"
}

// Package readonly is ragforge's one answer to "is this Cypher a read?"
// (docs/design.md, invariant 4). It asks Neo4j to plan a statement without running
// it (EXPLAIN) and accepts it only when Neo4j classifies it as read-only
// (statement type "r"), it loads no CSV, and it calls no procedure and no
// APOC name outside an allowlist: APOC loaders and dbms/admin procedures
// read files or reach the network even inside a read transaction.
//
// The raw-Cypher tools (engine's run_cypher, traverse), the check of
// `cypher:` computed fields (`ragforge-plan vet --uri`) and materialize
// apply and refresh all classify through [Check], so a statement is a read
// in one of them exactly when it is in the others. For the agent-written
// statements, [Fault] is the one answer to "can the agent fix this
// failure?", before and while the statement runs. The package imports only
// the Neo4j driver and neo4jtx.
package readonly

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
)

// DefaultProcedures are the procedures a read may call when the caller
// names none: schema introspection and index queries, which read the graph
// only.
var DefaultProcedures = []string{
	"db.labels", "db.relationshipTypes", "db.propertyKeys",
	"db.schema.visualization", "db.schema.nodeTypeProperties", "db.schema.relTypeProperties",
	"db.index.fulltext.queryNodes", "db.index.fulltext.queryRelationships",
	"db.index.vector.queryNodes", "db.index.vector.queryRelationships",
}

// FunctionPrefixes are the APOC namespaces of pure value functions a read
// may use; any other apoc.* name in the plan is refused unless it is among
// the allowed procedures.
var FunctionPrefixes = []string{"apoc.text.", "apoc.coll.", "apoc.map.", "apoc.convert.", "apoc.date.", "apoc.number.", "apoc.math.", "apoc.agg.", "apoc.node.", "apoc.nodes.", "apoc.label.", "apoc.any.", "apoc.meta.cypher."}

// Options say where and how to explain.
type Options struct {
	// Database is the Neo4j database ("" for the server's default).
	Database string
	// Timeout bounds the EXPLAIN transaction (none if zero).
	Timeout time.Duration
	// Procedures are the procedures the statement may call
	// (DefaultProcedures if nil).
	Procedures []string
	// Params are the parameters the statement will run with; EXPLAIN gets
	// them too, so Neo4j plans (and caches) the statement for the same
	// parameter types as the run.
	Params map[string]any
}

// Refusal is a statement Neo4j could plan but that is not a read; Reason
// says what to change.
type Refusal struct {
	Reason string
}

func (r *Refusal) Error() string { return r.Reason }

// PlanError is a statement Neo4j cannot plan (a syntax or semantic error,
// or a call to a procedure the server does not have); Msg is Neo4j's
// message. Like a [*Refusal] it is the statement's fault: its author can
// correct it.
type PlanError struct {
	Msg string
	Err error
}

func (e *PlanError) Error() string { return "Neo4j cannot plan the statement: " + e.Msg }

// Unwrap returns the driver's error.
func (e *PlanError) Unwrap() error { return e.Err }

// Explained is what EXPLAIN said of a statement [Check] accepted.
type Explained struct {
	// Keys are the columns the statement returns.
	Keys []string
	// Plan is the plan Neo4j made, every branch read whole.
	Plan *Op
}

// procName reads a procedure name from a ProcedureCall operator's details,
// e.g. "db.labels() :: (label :: STRING)".
var procName = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(`)

// apocName finds APOC names anywhere in an operator's details.
var apocName = regexp.MustCompile(`(?i)\bapoc\.[A-Za-z0-9_.]+`)

// Check explains query in a read transaction and returns its columns when
// it is a read. A statement that is not one is a [*Refusal]; one Neo4j
// cannot plan is a [*PlanError]; any other error (the server unreachable,
// the timeout) is returned wrapped, and means "not known to be a read".
func Check(ctx context.Context, driver neo4j.DriverWithContext, query string, opts Options) (*Explained, error) {
	if driver == nil {
		return nil, neo4jtx.ErrNoDriver
	}
	procs := opts.Procedures
	if procs == nil {
		procs = DefaultProcedures
	}
	trimmed := strings.TrimSpace(query)
	upper := strings.ToUpper(trimmed)
	if strings.HasPrefix(upper, "EXPLAIN") || strings.HasPrefix(upper, "PROFILE") {
		return nil, &Refusal{Reason: "give the statement without EXPLAIN or PROFILE"}
	}
	var keys []string
	var summary neo4j.ResultSummary
	_, err := neo4jtx.Read(ctx, driver, opts.Database, opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, "EXPLAIN "+trimmed, opts.Params)
		if err != nil {
			return nil, err
		}
		if keys, err = res.Keys(); err != nil {
			return nil, err
		}
		summary, err = res.Consume(ctx)
		return nil, err
	})
	if err != nil {
		if msg, ok := neo4jtx.StatementFault(err); ok {
			return nil, &PlanError{Msg: msg, Err: err}
		}
		return nil, fmt.Errorf("readonly: explaining the statement: %w", err)
	}
	if t := summary.StatementType(); t != neo4j.StatementTypeReadOnly {
		return nil, &Refusal{Reason: fmt.Sprintf("only read-only statements are allowed (Neo4j classifies this one as %s)", TypeName(t))}
	}
	plan := PlanOf(summary.Plan())
	if err := walk(plan, procs); err != nil {
		return nil, err
	}
	return &Explained{Keys: keys, Plan: plan}, nil
}

// Fault says whether err, from [Check] or from running a statement Check
// accepted, is the statement's fault, and what its author must change:
//
//   - a [*Refusal]: its reason;
//   - a [*PlanError]: "Neo4j cannot plan the query: " and Neo4j's message;
//   - a statement Neo4j refused while running it
//     ([neo4jtx.StatementFault]; RETURN 1/0 is one): Neo4j's message;
//   - a statement that ran past the call's deadline
//     ([*neo4jtx.TimeoutError]): that it timed out, and how to narrow it.
//
// ok is false for every other error (the server, the connection, a
// deadline passed before the server answered), which the author cannot
// fix. run_cypher and traverse both answer with it, so one statement gets
// the same answer from either tool.
func Fault(err error) (msg string, ok bool) {
	var refusal *Refusal
	var plan *PlanError
	var to *neo4jtx.TimeoutError
	switch {
	case errors.As(err, &refusal):
		return refusal.Reason, true
	case errors.As(err, &plan):
		return "Neo4j cannot plan the query: " + plan.Msg, true
	case errors.As(err, &to):
		return "the query timed out: it ran longer than the call's timeout; narrow it (labels and selective conditions early, LIMIT, or aggregate instead of returning rows)", true
	}
	return neo4jtx.StatementFault(err)
}

// walk refuses LOAD CSV, procedures outside procs and APOC names outside
// FunctionPrefixes and procs anywhere in the plan.
func walk(p *Op, procs []string) error {
	if p == nil {
		return nil
	}
	op, details := p.Operator, p.Details
	switch {
	case strings.Contains(op, "LoadCSV"):
		return &Refusal{Reason: "LOAD CSV is not allowed"}
	case strings.Contains(op, "ProcedureCall"):
		m := procName.FindStringSubmatch(details)
		if m == nil || !slices.Contains(procs, m[1]) {
			name := details
			if m != nil {
				name = m[1]
			}
			return &Refusal{Reason: fmt.Sprintf("procedure %s is not allowed (allowed: %s)", name, strings.Join(procs, ", "))}
		}
	}
	for _, name := range apocName.FindAllString(details, -1) {
		lower := strings.ToLower(name)
		if !slices.ContainsFunc(FunctionPrefixes, func(pre string) bool { return strings.HasPrefix(lower, pre) }) && !slices.Contains(procs, name) {
			return &Refusal{Reason: fmt.Sprintf("%s is not allowed in a read (allowed APOC functions: %s*)", name, strings.Join(FunctionPrefixes, "*, "))}
		}
	}
	for _, c := range p.Children {
		if err := walk(c, procs); err != nil {
			return err
		}
	}
	return nil
}

// TypeName is a statement type in words, with Neo4j's letter.
func TypeName(t neo4j.StatementType) string {
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

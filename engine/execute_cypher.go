package engine

import (
	"context"
	"fmt"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
)

// DefaultProcedures are the procedures run_cypher may call: schema
// introspection and index queries, which read the graph only. Procedures
// that read files, reach the network or administer the server (APOC
// loaders, dbms.*) are refused. It is readonly's list, the one every
// EXPLAIN check of ragforge uses.
var DefaultProcedures = readonly.DefaultProcedures

// checkRaw accepts an agent-written statement only when readonly.Check
// does: Neo4j's EXPLAIN classifies it as read-only ("r"), it loads no CSV,
// and it calls only allowed procedures and APOC functions. The statement
// still runs in a read transaction with the timeout and row cap. A refusal
// or a statement Neo4j cannot plan becomes the agent's CallError in
// Execute (see [statementArg]).
func (e *Engine) checkRaw(ctx context.Context, query string) error {
	_, err := readonly.Check(ctx, e.opts.Driver, query, readonly.Options{Database: e.opts.Database, Timeout: e.opts.Timeout, Procedures: e.opts.Procedures})
	if err != nil {
		return fmt.Errorf("engine: explaining the run_cypher query: %w", err)
	}
	return nil
}

// statementArg is the argument holding the statement of a tool whose
// statement the agent writes (run_cypher's query, traverse's cypher, as
// each tool declares: tools.Tool.StatementArg), "" for every other tool.
// A failure readonly.Fault finds the statement's fault is a CallError on
// it, whichever tool ran it.
func (e *Engine) statementArg(tool string) string {
	if t := e.catalog.Tool(tool); t != nil {
		return t.StatementArg
	}
	return ""
}

package engine

import (
	"context"
	"fmt"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/tools"
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
// statement the agent writes (run_cypher's query, traverse's cypher), ""
// for every other tool. A failure readonly.Fault finds the statement's
// fault is a CallError on it, whichever of the two tools ran it.
func statementArg(tool string) string {
	switch tool {
	case tools.RunCypher:
		return "/query"
	case traverse.Name:
		return "/cypher"
	}
	return ""
}

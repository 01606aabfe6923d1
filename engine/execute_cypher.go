package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
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
// still runs in a read transaction with the timeout and row cap.
func (e *Engine) checkRaw(ctx context.Context, query string) error {
	_, err := readonly.Check(ctx, e.opts.Driver, query, readonly.Options{Database: e.opts.Database, Timeout: e.opts.Timeout, Procedures: e.opts.Procedures})
	var refusal *readonly.Refusal
	var plan *readonly.PlanError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &refusal):
		return tools.Fail(tools.RunCypher, "/query", nil, "%s", refusal.Reason)
	case errors.As(err, &plan):
		return tools.Fail(tools.RunCypher, "/query", nil, "Neo4j cannot plan the query: %s", plan.Msg)
	}
	return fmt.Errorf("engine: explaining run_cypher query: %w", err)
}

package planner

import (
	"github.com/ragforge/ragforge/tools"
)

// runCypher passes an agent-written statement through unchanged, marked
// Raw: it is the one tool whose text comes from the agent, so the engine
// classifies it with EXPLAIN (read-only, allowed procedures only) before it
// runs, in a read transaction with a row cap.
func (p *Planner) runCypher(a *tools.RunCypherArgs) (*Statement, error) {
	return &Statement{Cypher: a.Query, Params: map[string]any{}, Raw: true, Shape: Shape{Kind: ShapeRows, Limit: p.limits.MaxLimit}}, nil
}

package planner

import (
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// RunCypher runs a read-only Cypher statement the agent wrote.
const RunCypher = "run_cypher"

func init() {
	register(declaration[RunCypherArgs]{
		Kind: tools.Kind{
			Name: RunCypher, Category: tools.CategoryCypher, Rank: 130,
			Offered:  func(o tools.Options) bool { return o.RawCypher },
			Generate: generateRunCypher,
			// The agent's query decides what a result holds.
			TruncationNote: func(limit int) string {
				return fmt.Sprintf("more rows exist than the %d returned; aggregate or ORDER BY … LIMIT in the query", limit)
			},
			StatementArg: "/query",
		},
		plan: (*Planner).runCypher,
	})
}

// RunCypherArgs are run_cypher's arguments.
type RunCypherArgs struct {
	Query string `json:"query"`
}

// generateRunCypher writes the optional raw-Cypher tool; the engine
// enforces what its description promises.
func generateRunCypher(g *tools.Generator) *tools.Generated {
	var b strings.Builder
	b.WriteString("Run a read-only Cypher query when no other tool can express the question. DANGEROUS and limited: only statements that Neo4j classifies as read-only are accepted (no CREATE, MERGE, SET, DELETE, REMOVE, LOAD CSV, no procedures outside a small allowlist); the query runs in a read transaction with a timeout and a row cap. Prefer the other tools.\n\n")
	fmt.Fprintf(&b, "Labels: %s. Relationship types: %s.", strings.Join(g.Model().EntityNames(), ", "), strings.Join(g.RelationshipTypes(), ", "))
	in := tools.Object(
		tools.Prop{Name: "query", Schema: &tools.Schema{Type: "string", Description: "A read-only Cypher statement, with a LIMIT", MinLength: tools.Count(1), MaxLength: tools.Count(10000)}},
	).Require("query")
	return &tools.Generated{Description: b.String(), Input: in}
}

// runCypher passes an agent-written statement through unchanged, marked
// Raw: it is the one tool whose text comes from the agent, so the engine
// classifies it with EXPLAIN (read-only, allowed procedures only) before it
// runs, in a read transaction with a row cap.
func (p *Planner) runCypher(a *RunCypherArgs, _ model.State) (*Statement, error) {
	return &Statement{Cypher: a.Query, Params: map[string]any{}, Raw: true, Shape: Shape{Kind: ShapeRows, Limit: p.limits.MaxLimit}}, nil
}

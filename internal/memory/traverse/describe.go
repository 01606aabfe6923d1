package traverse

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
)

// describe tells the agent what the tool does and exactly how a query must
// keep to the tenant, with the graph's labels and relationship types.
func (t *tool) describe() string {
	f, p := t.m.Tenant.Field, tenant.Param
	var b strings.Builder
	fmt.Fprintf(&b, "Run your own read-only Cypher query over the graph, for questions the other tools cannot ask (multi-hop patterns, joins, custom aggregations). Only your user's data can be read: $%s is bound by the engine to your user (never pass it in params), and the query must keep every node it reads to it. The query is checked on Neo4j's plan before it runs, and refused with the reason when a node is not kept to the tenant.\n", p)
	fmt.Fprintf(&b, "\nHow to scope: give every node pattern a variable and the predicate x.%s = $%s — in WHERE or as {%s: $%s} —, for every node of every pattern: both ends of each relationship, nodes of OPTIONAL MATCH, and nodes inside EXISTS { … }, COUNT { … }, COLLECT { … } and pattern comprehensions (in their own WHERE), and nodes YIELDed by procedures. Example: MATCH (p:Person {%s: $%s})-[r]->(c:Concept) WHERE c.%s = $%s RETURN p.name, type(r), c.name\n", f, p, f, p, f, p, f, p)
	fmt.Fprintf(&b, "\nRules: the predicate must be AND-ed at the top of its WHERE (not under OR, XOR, NOT or CASE) and come before any LIMIT, SKIP, DISTINCT, ORDER BY … LIMIT or aggregation; a variable name may not be reused inside a subquery. variable-length patterns and shortestPath need a named path whose every node is scoped: MATCH p = (a)-[*1..3]->(b) WHERE all(x IN nodes(p) WHERE x.%[1]s = $%[2]s); without it they are refused. Refused: counting nodes without the predicate (MATCH (n:Label) RETURN count(n) — add it), subqueries inside CASE, writes, LOAD CSV. Procedures allowed: %[3]s (YIELD node and scope it).\n", f, p, strings.Join(t.opts.Procedures, ", "))
	fmt.Fprintf(&b, "\nResults: at most %d rows; nodes and relationships come back as their properties (embeddings left out).\n", t.opts.MaxRows)
	var labels, rels []string
	for _, e := range t.m.Entities {
		labels = append(labels, e.Name)
		for _, r := range e.Relationships {
			arrow := map[model.Direction]string{model.Incoming: "←", model.Both: "—"}[r.Direction]
			if arrow == "" {
				arrow = "→"
			}
			rels = append(rels, fmt.Sprintf("%s (%s%s%s)", r.Type, e.Name, arrow, strings.Join(r.Targets, "|")))
		}
	}
	fmt.Fprintf(&b, "\nLabels: %s", strings.Join(labels, ", "))
	if len(rels) > 0 {
		fmt.Fprintf(&b, "\nRelationship types: %s", strings.Join(rels, ", "))
	}
	return b.String()
}

// schema is the tool's JSON Schema.
func schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"cypher":{"type":"string","minLength":1,"maxLength":20000,"description":"A read-only Cypher query; every node it reads keeps to $` + tenant.Param + ` (see the tool description)"},` +
		`"params":{"type":"object","description":"Parameters the query uses as $name (never ` + tenant.Param + `, which the engine binds)"}` +
		`},"required":["cypher"],"additionalProperties":false}`)
}

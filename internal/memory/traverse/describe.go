package traverse

import (
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// describe tells the agent what the tool does and exactly how a query must
// keep to the tenant, with the graph's labels; the relationship types are
// the graph schema's (tools.Catalog.GraphSchema) when it describes every
// entity, else listed here.
func (t *tool) describe() string {
	f, p := t.m.Tenant.Field, tenant.Param
	var b strings.Builder
	fmt.Fprintf(&b, "Your own read-only Cypher, for what the other tools cannot ask. It reads only your user's data, $%s (never pass it in params): a query whose plan reads a node not kept to it is refused with the reason.\n", p)
	fmt.Fprintf(&b, "\nScope every node of every pattern with a variable and x.%s = $%s (in WHERE or as {%s: $%s}): both ends of each relationship, OPTIONAL MATCH nodes, nodes in EXISTS, COUNT and COLLECT { … } and pattern comprehensions (in their own WHERE), nodes YIELDed by procedures. Example: MATCH (p:Person {%s: $%s})-[r]->(c) WHERE c.%s = $%s RETURN type(r), c.name\n", f, p, f, p, f, p, f, p)
	fmt.Fprintf(&b, "\nThe predicate is AND-ed at the top of its WHERE (not under OR, XOR, NOT or CASE), before any LIMIT, SKIP, DISTINCT, ORDER BY … LIMIT or aggregation; subqueries do not reuse variable names. Variable-length patterns and shortestPath need a named path with every node scoped: MATCH p = (a)-[*1..3]->(b) WHERE all(x IN nodes(p) WHERE x.%[1]s = $%[2]s). Refused: counting unscoped nodes, subqueries in CASE, writes, LOAD CSV. Procedures allowed: %[3]s (YIELD node and scope it).\n", f, p, strings.Join(t.procedures, ", "))
	fmt.Fprintf(&b, "\nAt most %d rows; nodes and relationships as their properties (no embeddings)", t.env.MaxRows)
	if t.env.MaxString > 0 {
		fmt.Fprintf(&b, "; strings cut to %d characters (whole_text: %d)", t.env.MaxString, max(t.env.MaxString, WholeText))
	}
	b.WriteString(".\n")
	var labels, rels []string
	described := true
	for _, e := range t.m.Entities {
		labels = append(labels, e.Name)
		described = described && tools.InGraphSchema(t.m, e.Name, "")
		for _, r := range e.Relationships {
			arrow := map[model.Direction]string{model.Incoming: "←", model.Both: "—"}[r.Direction]
			if arrow == "" {
				arrow = "→"
			}
			rels = append(rels, fmt.Sprintf("%s (%s%s%s)", r.Type, e.Name, arrow, strings.Join(r.Targets, "|")))
		}
	}
	switch {
	case described:
		b.WriteString("\nLabels, relationship types, properties: see the graph schema")
	default:
		fmt.Fprintf(&b, "\nLabels: %s", strings.Join(labels, ", "))
		if len(rels) > 0 {
			fmt.Fprintf(&b, "\nRelationship types: %s", strings.Join(rels, ", "))
		}
	}
	return b.String()
}

// schema is the tool's input schema.
func (t *tool) schema() *tools.Schema {
	in := tools.Object(
		tools.Prop{Name: "cypher", Schema: &tools.Schema{Type: "string", MinLength: tools.Count(1), MaxLength: tools.Count(20000)}},
		tools.Prop{Name: "params", Schema: &tools.Schema{Type: "object", Description: "The query's $parameters (never " + tenant.Param + ")", Open: true}},
	).Require("cypher")
	if t.env.MaxString > 0 {
		in.Props = append(in.Props, tools.Prop{Name: "whole_text", Schema: &tools.Schema{Type: "boolean"}})
	}
	return in
}

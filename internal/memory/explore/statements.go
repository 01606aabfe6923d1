package explore

import (
	"strconv"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/tenant"
)

// neighbourScan is how many edges of each hit the context statement reads
// (the most relevant first when a relevance property is declared), from
// which NeighboursPerHit are kept after ranking by relevance then date.
const neighbourScan = 20

// cypher builds one statement: names from the model only, through
// ident.Quote (the first failure is kept), values as parameters.
type cypher struct {
	x      *explorer
	b      strings.Builder
	params map[string]any
	err    error
}

func (x *explorer) newCypher(tn any) *cypher {
	c := &cypher{x: x, params: map[string]any{}}
	if x.m.Tenant != nil {
		c.params[tenant.Param] = tn
	}
	return c
}

// q quotes a name from the model.
func (c *cypher) q(name string) string {
	s, err := ident.Quote(name)
	if err != nil && c.err == nil {
		c.err = err
	}
	return s
}

func (c *cypher) line(parts ...string) {
	for _, p := range parts {
		c.b.WriteString(p)
	}
	c.b.WriteByte('\n')
}

// scoped is the tenant predicate on node variable v ("" without a tenant).
func (c *cypher) scoped(v string) string {
	if t := c.x.m.Tenant; t != nil {
		return v + "." + c.q(t.Field) + " = $" + tenant.Param
	}
	return ""
}

// and joins the non-empty predicates ("true" when none is).
func and(preds ...string) string {
	var out []string
	for _, p := range preds {
		if p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return "true"
	}
	return strings.Join(out, " AND ")
}

// entityIndex is the position in x.ents of node v's entity (the first
// declared label it has).
func (c *cypher) entityIndex(v string) string {
	var b strings.Builder
	b.WriteString("CASE")
	for i, ei := range c.x.ents {
		b.WriteString(" WHEN " + v + ":" + c.q(ei.e.Name) + " THEN " + strconv.Itoa(i))
	}
	b.WriteString(" END")
	return b.String()
}

// projection is node v's unique field and display fields, by its entity:
// never the tenant field nor an embedding.
func (c *cypher) projection(v string) string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, ei := range c.x.ents {
		fields := []string{"." + c.q(ei.e.UniqueField)}
		for _, f := range ei.display {
			fields = append(fields, "."+c.q(f))
		}
		b.WriteString(" WHEN " + v + ":" + c.q(ei.e.Name) + " THEN " + v + "{" + strings.Join(fields, ", ") + "}")
	}
	b.WriteString(" END")
	return b.String()
}

// declared is the predicate that node v has one of the model's labels.
func (c *cypher) declared(v string) string {
	alts := make([]string, len(c.x.ents))
	for i, ei := range c.x.ents {
		alts[i] = v + ":" + c.q(ei.e.Name)
	}
	return "(" + strings.Join(alts, " OR ") + ")"
}

// candidateStatement finds every source's candidates in the tenant and
// returns each node once with its sources' raw scores (a name match's
// texts, scored in Go), its degree within the tenant and its raw recency
// value. With explain, vector candidates
// under the threshold come back too, to be counted.
func (x *explorer) candidateStatement(srcs []*source, tn any, explain bool) (string, map[string]any, error) {
	c := x.newCypher(tn)
	c.params["explain"] = explain
	branches := make([]string, len(srcs))
	for i, s := range srcs {
		label := "node:" + c.q(s.ent.e.Name)
		src := strconv.Itoa(i)
		switch s.kind {
		case kindVector:
			c.params[param(i, "index")], c.params[param(i, "k")], c.params[param(i, "vector")], c.params[param(i, "min")] = s.index, int64(s.limit), s.vector, s.minRaw
			branches[i] = "  CALL db.index.vector.queryNodes($" + param(i, "index") + ", $" + param(i, "k") + ", $" + param(i, "vector") + ") YIELD node, score\n" +
				"  WHERE " + and(label, c.scoped("node"), "(score >= $"+param(i, "min")+" OR $explain)") + "\n" +
				"  RETURN node, " + src + " AS source, score"
		case kindFullText:
			c.params[param(i, "index")], c.params[param(i, "query")], c.params[param(i, "limit")] = s.index, s.lucene, int64(s.limit)
			branches[i] = "  CALL db.index.fulltext.queryNodes($" + param(i, "index") + ", $" + param(i, "query") + ") YIELD node, score\n" +
				"  WHERE " + and(label, c.scoped("node")) + "\n" +
				"  RETURN node, " + src + " AS source, score\n  LIMIT $" + param(i, "limit")
		case kindMatch:
			// The candidates sharing the most letter pairs with the text
			// matches, their texts scored in Go (matchScore).
			c.params[param(i, "pairs")], c.params[param(i, "limit")], c.params["match_len"] = s.pairs, int64(s.limit), int64(matchTextLen)
			vals := make([]string, len(s.ent.textFields))
			for j, f := range s.ent.textFields {
				vals[j] = "toLower(toStringOrNull(node." + c.q(f) + "))"
			}
			branches[i] = "  MATCH (node:" + c.q(s.ent.e.Name) + ")\n" +
				"  WHERE " + and(c.scoped("node")) + "\n" +
				"  WITH node, [v IN [" + strings.Join(vals, ", ") + "] WHERE v IS NOT NULL | left(v, $match_len)] AS texts\n" +
				"  WITH node, texts, size([g IN $" + param(i, "pairs") + " WHERE any(v IN texts WHERE v CONTAINS g)]) AS shared\n" +
				"  WHERE shared > 0\n" +
				"  WITH node, texts ORDER BY shared DESC, reduce(m = $match_len, v IN texts | CASE WHEN size(v) < m THEN size(v) ELSE m END), elementId(node)\n" +
				"  LIMIT $" + param(i, "limit") + "\n" +
				"  RETURN node, " + src + " AS source, texts AS score"
		}
	}
	c.line("CALL () {")
	c.line(strings.Join(branches, "\n  UNION ALL\n"))
	c.line("}")
	c.line("WITH node, collect([source, score]) AS found")
	degree := "COUNT { (node)--() }"
	if w := c.scoped("m"); w != "" {
		degree = "COUNT { (node)--(m) WHERE " + w + " }"
	}
	recency := "null"
	if f := x.m.Explore.RecencyField; f != "" {
		recency = "node." + c.q(f)
	}
	c.line("RETURN elementId(node) AS id, found, " + degree + " AS degree, " + recency + " AS recency")
	return c.b.String(), c.params, c.err
}

// edgeList renders relationship variable r as [start id, end id, type,
// properties, id].
const edgeList = "[elementId(startNode(%[1]s)), elementId(endNode(%[1]s)), type(%[1]s), properties(%[1]s), elementId(%[1]s)]"

func edge(r string) string { return strings.ReplaceAll(edgeList, "%[1]s", r) }

// contextStatement reads the hits' context in the tenant: the hits'
// fields, the edges between them, the owner's node and its edges to them,
// and up to neighbourScan edges of each hit to a neighbour.
func (x *explorer) contextStatement(hits []string, tn any) (string, map[string]any, error) {
	c := x.newCypher(tn)
	c.params["hits"], c.params["types"], c.params["max_edges"], c.params["scan"] = hits, x.rels.types, int64(MaxEdges), int64(neighbourScan)
	c.line("MATCH (h) WHERE " + and("elementId(h) IN $hits", c.scoped("h")))
	c.line("WITH collect(h) AS hs")
	c.line("CALL (hs) {")
	c.line("  UNWIND hs AS a")
	c.line("  MATCH (a)-[r]->(b)")
	c.line("  WHERE " + and("b IN hs", c.scoped("b"), "type(r) IN $types"))
	c.line("  RETURN collect(" + edge("r") + ")[..$max_edges] AS between")
	c.line("}")
	owner := "null AS owner, [] AS owner_edges"
	if ex := x.m.Explore; ex.OwnerEntity != "" && ex.OwnerField != "" {
		c.line("CALL (hs) {")
		c.line("  OPTIONAL MATCH (o:" + c.q(ex.OwnerEntity) + ")")
		c.line("  WHERE " + and(c.scoped("o"), "o."+c.q(ex.OwnerField)+" = true"))
		c.line("  WITH o ORDER BY elementId(o) LIMIT 1")
		c.line("  OPTIONAL MATCH (o)-[or]-(oh)")
		c.line("  WHERE " + and("oh IN hs", c.scoped("oh"), "type(or) IN $types"))
		c.line("  WITH o, collect(or)[..$max_edges] AS rs")
		c.line("  RETURN CASE WHEN o IS NULL THEN null ELSE [elementId(o), " + c.entityIndex("o") + ", " + c.projection("o") + "] END AS owner,")
		c.line("    [x IN rs | " + edge("x") + "] AS owner_edges")
		c.line("}")
		owner = "owner, owner_edges"
	}
	c.line("CALL (hs) {")
	c.line("  UNWIND hs AS nh")
	c.line("  CALL (nh, hs) {")
	c.line("    MATCH (nh)-[nr]-(m)")
	c.line("    WHERE " + and(c.scoped("m"), "NOT m IN hs", "type(nr) IN $types", c.declared("m")))
	c.line("    RETURN nr, m")
	if x.rels.relevance != "" {
		c.line("    ORDER BY coalesce(nr." + c.q(x.rels.relevance) + ", -1) DESC")
	}
	c.line("    LIMIT $scan")
	c.line("  }")
	c.line("  RETURN collect([elementId(nh), elementId(m), " + edge("nr") + ", " + c.entityIndex("m") + ", " + c.projection("m") + "]) AS neighbours")
	c.line("}")
	c.line("RETURN [hx IN hs | [elementId(hx), " + c.entityIndex("hx") + ", " + c.projection("hx") + "]] AS hits, between, " + owner + ", neighbours")
	return c.b.String(), c.params, c.err
}

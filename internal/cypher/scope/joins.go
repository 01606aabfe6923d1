package scope

import (
	"maps"
	"slices"
)

// A node hash join (NodeHashJoin, NodeLeftOuterHashJoin,
// NodeRightOuterHashJoin) plans one pattern as two inputs that both bind
// its join nodes and keeps the rows whose join nodes are the same node:
// the two bindings are one variable, and a join node one input keeps in
// the tenant is kept there in the other input's rows too, as a Filter
// above it would. Neo4j chooses such plans from its statistics (a graph
// whose tenants are few and large makes them likely), so a scoped
// statement meets them whatever its text.

// join is the shape of a node hash join: its key variables and the input
// whose rows it keeps without a match (-1 for an inner join).
type join struct {
	keys      []string
	preserved int
}

// joinOf reads the join of op, if it is a node hash join.
func joinOf(n *node) (join, bool) {
	var j join
	switch n.op.Operator {
	case "NodeHashJoin":
		j.preserved = -1
	case "NodeLeftOuterHashJoin":
		j.preserved = 0
	case "NodeRightOuterHashJoin":
		j.preserved = 1
	default:
		return j, false
	}
	if len(n.children) != 2 {
		return j, false
	}
	j.keys = items(n.op.Details)
	return j, len(j.keys) > 0 && !slices.Contains(j.keys, "")
}

// joinsOn reports whether n is a node hash join on v.
func joinsOn(n *node, v string) bool {
	j, ok := joinOf(n)
	return ok && slices.Contains(j.keys, v)
}

// joined adds to scoped, for input i of n, the join nodes the other input
// proves in the tenant. An outer join keeps its preserved input's rows
// whatever the other holds, so only its optional input gains them.
func (c *checker) joined(n *node, i int, scoped set) set {
	j, ok := joinOf(n)
	if !ok || i == j.preserved {
		return scoped
	}
	other := c.proven(n.children[1-i])
	out := maps.Clone(scoped)
	for _, k := range j.keys {
		if other[k] {
			out[k] = true
		}
	}
	return out
}

// proven returns the node variables every row n outputs holds in the
// tenant (or null): those an index seek or a Filter inside n keeps there,
// not bound anew above it. It looks only down, so what one input of a
// join proves never rests on the other.
func (c *checker) proven(n *node) set {
	if p, ok := c.provenOf[n]; ok {
		return p
	}
	out := c.inherited(n)
	for _, v := range c.binds(n) {
		delete(out, v)
	}
	op := n.op
	switch kindOf(op.Operator) {
	case nodeLeaf:
		if v, ok := c.m.seekScoped(op.Details); ok && isSeek(op.Operator) {
			out[v] = true
		}
	case filter:
		for _, v := range c.m.scoped(op.Details) {
			out[v] = true
		}
	case expandAll, optionalExpandAll:
		if h, ok := parseHop(op.Details); ok {
			for _, v := range c.m.scoped(h.where) {
				out[v] = true
			}
		}
	}
	c.provenOf[n] = out
	return out
}

// inherited returns what the rows of n's inputs that reach its output
// prove: both inputs' of a row-combining operator, what every alternative
// of a UNION proves, the left input's of a semi-apply (the right only
// decides), the preserved input's of an outer join.
func (c *checker) inherited(n *node) set {
	out := set{}
	switch {
	case len(n.children) == 0:
	case kindOf(n.op.Operator) == semi:
		maps.Copy(out, c.proven(n.children[0]))
	case isUnion(n.op.Operator):
		maps.Copy(out, c.proven(n.children[0]))
		for _, ch := range n.children[1:] {
			p := c.proven(ch)
			maps.DeleteFunc(out, func(v string, _ bool) bool { return !p[v] })
		}
	default:
		if j, ok := joinOf(n); ok && j.preserved >= 0 {
			maps.Copy(out, c.proven(n.children[j.preserved]))
			break
		}
		for _, ch := range n.children {
			maps.Copy(out, c.proven(ch))
		}
	}
	return out
}

package planner

import (
	"strings"

	"github.com/ragforge/ragforge/tools"
)

// ColCapped is the column of a traversal's rows (explore_relationships,
// find_paths) saying that Limits.MaxExpanded stopped the traversal; it is
// the same on every row. When nothing else is returned, the statement
// returns one row with only this column set (Shape.Capped).
const ColCapped = "capped"

// A traversal writes a breadth-first search as Cypher without APOC and
// without variable-length patterns, which enumerate paths: on a graph with
// hubs, three hops from a hub are billions of paths but only as many
// nodes as the graph has. Each level is one CALL subquery that takes the
// entries a level reached, follows their relationships one hop and keeps
// the nodes not reached before, so every node is expanded at most once
// per start and the work of a level is bounded by the relationships it
// reads, which a LIMIT caps.
//
// An entry is a map {s: the start, x: the node reached, rels: the
// relationships of one shortest path from s to x, in order}. Which nodes
// were reached is a list of keys (seen); Neo4j checks `IN` against a list
// that stays the same from row to row through a hash set, so the check
// costs the same however long the list is.
//
// The last level builds no list for a next one: when the degrees of its
// frontier (the degree store, a few db hits) prove that it can read at
// most the level bound and reach at most Limits.MaxExpanded, so that no
// cap can cut it, it is streamed (stream): its rows are grouped once on
// (start, target), tested against the target filter once per target, and
// go into the page's Top; only the page's rows are tested against seen
// and given their path. Otherwise it is a level like the others, and the
// page is a Top of the lists. Depth 1 (the most common call) first tries
// the hand-written plan, one Expand into a Top of the rows as read, and
// groups only when parallel relationships repeat a target in that Top
// (explore_relationships.go).
//
// Neo4j 5 has a breadth-first expand of its own, VarLengthExpand(Pruning,
// BFS), planned for `min(length(p))` or DISTINCT endpoints of a
// var-length pattern: it visits each node once per start, keeps node
// predicates (the tenant) inside, and streams in depth order, so a page
// sorted nearest first stops it early. It is not used because it cannot
// keep three guarantees: it gives no path (one shortestPath per row of the
// page gets one: 36,066 db hits for 50 rows from the airline hub, where
// the levels here read 5,485 for the whole call); its order is per start,
// so a LIMIT that bounds it (Limits.MaxExpanded) would keep the first
// starts' far nodes rather than every start's nearest; and it reads all
// the relationships of each node it expands (no per-level bound). What it
// wins by streaming, explore_relationships gets by stopping at the level
// that fills its page (bench/handwritten/README.md).
type traversal struct {
	b   *builder
	rel string
	// types are the relationship types, quoted.
	types []string
	// key renders the seen entry of node x reached from start s.
	key func(s, x string) string
	// n numbers the levels written, which name their variables.
	n int
}

func (b *builder) traversal(types []string, key func(s, x string) string) *traversal {
	rels := make([]string, len(types))
	for i, t := range types {
		rels[i] = b.q(t)
	}
	return &traversal{b: b, rel: strings.Join(rels, "|"), types: rels, key: key}
}

// limits adds the traversal's bounds as parameters and returns them:
// $max_expanded, the most entities reached, and $max_followed, the most
// relationships one level reads (a level reads one more, to tell that
// there were more).
func (tr *traversal) limits() (expanded, followed string) {
	l := tr.b.p.limits
	return tr.b.named("max_expanded", int64(l.MaxExpanded)), tr.b.named("max_followed", int64(l.MaxExpanded*tools.FollowedPerExpanded))
}

// level writes one level: from the entries of the list expression
// frontier, it follows the traversal's relationships in the direction of
// arrow to the nodes inside the tenant whose key is not in the list seen,
// each once per start with one of the paths that reach it. imports are
// the variables frontier and seen use. It returns the names of the new
// entries' list and of the number of relationships read (at most
// $max_followed + 1).
func (tr *traversal) level(frontier, seen string, imports []string, arrow [2]string) (next, read string) {
	b := tr.b
	tr.n++
	i := itoa(tr.n)
	f, s, x, p, r, y, c := "f"+i, "s"+i, "x"+i, "p"+i, "e"+i, "y"+i, "c"+i
	next, read = "next"+i, "read"+i
	_, followed := tr.limits()
	b.line("CALL (%s) {", strings.Join(imports, ", "))
	b.line("  UNWIND %s AS %s\n  WITH %s.s AS %s, %s.x AS %s, %s.rels AS %s", frontier, f, f, s, f, x, f, p)
	b.line("  MATCH (%s)%s[%s:%s]%s(%s)", x, arrow[0], r, tr.rel, arrow[1], y)
	if w := b.tenantWhere(y); w != "" {
		b.line("  WHERE %s", w)
	}
	b.line("  WITH %s, %s, %s, %s\n  LIMIT %s + 1", s, p, r, y, followed)
	b.line("  WITH %s, %s, head(collect(%s + %s)) AS %s, count(*) AS %s", s, y, p, r, p, c)
	b.line("  RETURN sum(%s) AS %s, collect(CASE WHEN NOT %s IN %s THEN {s: %s, x: %s, rels: %s} END) AS %s\n}", c, read, tr.key(s, y), seen, s, y, p, next)
	return next, read
}

// degree writes the sum of the degrees of the nodes of the list
// expression frontier over the traversal's relationships, in the direction
// of arrow, and returns its variable: Neo4j reads each from the degree
// store without reading a relationship. It bounds what the next level can
// read and reach, counting relationships to any node (the tenant's or
// not), so a statement can tell before the level that the level cannot
// be cut.
func (tr *traversal) degree(frontier string, arrow [2]string) string {
	tr.b.line("CALL (%s) {\n  UNWIND %s AS f\n  WITH f.x AS x\n  RETURN sum(COUNT { (x)%s[:%s]%s() }) AS degree\n}", frontier, frontier, arrow[0], tr.rel, arrow[1])
	return "degree"
}

// stream writes a level, numbered d, as rows rather than a list: from the
// entries of frontier it follows the traversal's relationships to the
// nodes t inside the tenant, groups the rows on (start, t) and returns
// the targets that pass keep (a predicate on t): each one's start, t,
// rels and its depth (d). rels is the whole path only at depth 1; deeper,
// it is the last step alone, [the lowest relationship from a frontier
// entry to t], which path completes once the page is cut. A deeper
// stream does not test seen either: the caller tests the page's rows
// (a seen key matches at most one (start, t) group, so a Top of
// streamedLists more rows keeps the page). Grouping with min and no list
// per row, and testing seen and building paths per page row rather than
// per target, took a leaf's depth-3 call from 1.88× to about 1.5× the
// hand-written time (bench/handwritten). The first
// level's frontier must be the starts: it compares nodes instead of
// seen. With raw, it does not group either and returns one row per
// relationship read (rel: the relationship, no rels nor depth), a target
// once per relationship that reaches it, and it leaves the start's own
// loops in (x: the node the row left; a test per row costs a twelfth of
// a hub's call), for the caller to tell from the page. Nothing bounds
// what it reads: a statement streams a level only when degree proved it
// small.
func (tr *traversal) stream(frontier, keep string, arrow [2]string, d int, raw bool) {
	b := tr.b
	i := itoa(d)
	f, s, x, r := "f"+i, "s"+i, "x"+i, "e"+i
	var where []string
	if w := b.tenantWhere("t"); w != "" {
		where = append(where, w)
	}
	b.line("  UNWIND %s AS %s\n  WITH %s.s AS %s, %s.x AS %s", frontier, f, f, s, f, x)
	b.line("  MATCH (%s)%s[%s:%s]%s(t)", x, arrow[0], r, tr.rel, arrow[1])
	if raw {
		b.line("  WHERE %s\n  RETURN %s AS start, t, %s AS rel, %s AS x", joinAnd(append(where, keep)), s, r, x)
		return
	}
	if d == 1 {
		where = append(where, x+" <> t")
	}
	if len(where) > 0 {
		b.line("  WHERE %s", joinAnd(where))
	}
	b.line("  WITH %s, t, min(%s) AS %s\n  WHERE %s\n  RETURN %s AS start, t, [%s] AS rels, %d AS depth", s, r, r, keep, s, r, d)
}

// path is the path of a row a deeper stream returned (start, target t,
// rels: its last step) through the entry of frontier it came from: that
// entry's path, then the step.
func (tr *traversal) path(frontier, start, t, rels string, arrow [2]string) string {
	last := rels + "[0]"
	from := "startNode(" + last + ")"
	switch {
	case arrow[0] == "<-":
		from = "endNode(" + last + ")"
	case arrow[1] != "->":
		from = "CASE WHEN startNode(" + last + ") = " + t + " THEN endNode(" + last + ") ELSE startNode(" + last + ") END"
	}
	return "[f IN " + frontier + " WHERE f.s = " + start + " AND f.x = " + from + " | f.rels + " + rels + "][0]"
}

// sentinel is the list to UNWIND into a traversal's rows: rows, or one
// null row carrying capped when rows is empty and the cap stopped the
// traversal (the engine counts no entity for it).
func sentinel(rows, capped string) string {
	return "CASE WHEN " + rows + " = [] AND " + capped + " THEN [null] ELSE " + rows + " END"
}

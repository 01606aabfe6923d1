package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// arrows renders a relationship pattern per direction seen from the start.
var arrows = map[string][2]string{
	"outgoing": {"-", "->"},
	"incoming": {"<-", "-"},
	"both":     {"-", "-"},
}

// reversed is the direction seen from the other end.
var reversed = map[string]string{"outgoing": "incoming", "incoming": "outgoing", "both": "both"}

// exploreRelationships plans explore_relationships: the start entities
// (filtered like query_entities), then the entities connected to them by
// the relationship types within depth hops, each once per start at its
// shortest depth (parallel relationships never repeat a target), filtered
// by the target conditions; nearest first unless order_by sorts them by
// their fields. Rows carry the start's id (from_id), the depth, the path
// (type and properties of each relationship of one shortest path, from
// the start) and, at depth 1, the properties of that relationship.
//
// The search is breadth-first (see traversal): each level expands the
// nodes the previous one reached for the first time, so its work is the
// relationships of those nodes, never the paths to them. It reaches at
// most Limits.MaxExpanded entities from at most as many starts (the first
// by id); a level that would reach more, or read more relationships than
// its bound, is the last, and the rows say so (ColCapped).
func (p *Planner) exploreRelationships(a *tools.ExploreRelationshipsArgs, state State) (*Statement, error) {
	const tool = tools.ExploreRelationships
	e, err := p.entity(tool, a.StartEntityType, "/start_entity_type")
	if err != nil {
		return nil, err
	}
	dir := a.Direction
	arrow, ok := arrows[dir]
	if !ok {
		return nil, unplannable(tool, "direction", dir)
	}
	depth := clamp(a.Depth, tools.DefaultDepth, p.limits.MaxDepth)
	// Parse put every asked type in RelationshipTypes; each is still looked
	// up, since it becomes a relationship type in the statement.
	all := relationshipTypesOf(p.m)
	types := a.RelationshipTypes
	for i, t := range types {
		if !slices.Contains(all, t) {
			return nil, tools.Fail(tool, "/relationship_types/"+itoa(i), all, "%q is not a relationship type", t)
		}
	}
	reach := p.rels.Reachable(e.Name, types, dir, depth)
	if a.TargetEntityType != "" {
		if !slices.Contains(reach, a.TargetEntityType) {
			return nil, tools.Fail(tool, "/target_entity_type", reach, "%s --[%s]-- (%s) never reaches %q", e.Name, strings.Join(types, "|"), dir, a.TargetEntityType)
		}
		reach = []string{a.TargetEntityType}
	}
	b, err := p.newBuilder(tool, e, state)
	if err != nil {
		return nil, err
	}
	var ps preds
	if err := b.conditions(a.StartConditions, "start_conditions", &ps); err != nil {
		return nil, err
	}
	b.match(ps.stored)
	if err := b.ensure(ps.refs...); err != nil {
		return nil, err
	}
	b.filterScope(ps.computed)

	labels := make([]string, len(reach))
	ids := make([]string, len(reach))
	projs := make([]string, len(reach))
	for i, name := range reach {
		te := p.m.Entity(name)
		labels[i] = "t:" + b.q(name)
		ids[i] = "WHEN t:" + b.q(name) + " THEN " + b.prop("t", te.UniqueField)
		var fs []*model.Field
		for _, f := range te.Fields {
			if f.Name != te.UniqueField && !p.tenantField(f.Name) {
				fs = append(fs, f)
			}
		}
		projs[i] = "WHEN t:" + b.q(name) + " THEN " + b.projection("t", fs)
	}
	idExpr := "CASE " + strings.Join(ids, " ") + " END"
	if len(reach) == 1 {
		idExpr = b.prop("t", p.m.Entity(reach[0]).UniqueField)
	}
	// Target conditions and sort keys read stored fields of the one
	// target type.
	var tconds []string
	var sorts []order
	if len(reach) == 1 {
		ts := scope{v: "t", e: p.m.Entity(reach[0]), name: reach[0]}
		if tconds, _, err = b.tests(ts, a.TargetConditions, "/target_conditions", -1); err != nil {
			return nil, err
		}
		for i, k := range a.OrderBy {
			r, err := ts.field(b, k.Field, "/order_by/"+itoa(i)+"/field")
			if err != nil {
				return nil, err
			}
			x := b.expr(r)
			sorts = append(sorts, order{expr: x + " IS NULL"}, order{expr: x, desc: k.Direction == "DESC"})
		}
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	offset := min(max(a.Offset, 0), p.limits.MaxOffset)

	// The starts (at most max_expanded, first by id), then one level per
	// hop: found gathers the entries reached, each with its depth.
	key := func(s, x string) string { return "elementId(" + s + ") + '>' + elementId(" + x + ")" }
	tr := b.traversal(types, key)
	expanded, followed := tr.limits()
	b.line("WITH n\nORDER BY %s\nLIMIT %s + 1", b.idOrder(), expanded)
	b.line("WITH collect(n) AS starts\nWITH size(starts) > %s AS capped, [s IN starts[..%s] | {s: s, x: s, rels: []}] AS frontier", expanded, expanded)
	b.line("WITH capped, frontier, [f IN frontier | %s] AS seen, [] AS found", key("f.s", "f.x"))
	for d := 1; d <= depth; d++ {
		next, read := tr.level("frontier", "seen", []string{"frontier", "seen"}, arrow)
		// A level cut short ends the traversal: a node it left out could
		// be reached by the next level, at more than its shortest depth.
		b.line("WITH capped, seen, found, %s, %s > %s OR size(found) + size(%s) > %s AS cut", next, read, followed, next, expanded)
		found := "found + [f IN " + next + "[.." + expanded + " - size(found)] | f {.*, depth: " + itoa(d) + "}] AS found"
		if d < depth {
			b.line("WITH capped OR cut AS capped, CASE WHEN cut THEN [] ELSE %s END AS frontier, seen + [f IN %s | %s] AS seen, %s", next, next, key("f.s", "f.x"), found)
		} else {
			b.line("WITH capped OR cut AS capped, %s", found)
		}
	}

	// The targets: filtered, sorted, paged, then projected. Each (start,
	// target) pair is there once; grouping on it gives rows that no
	// longer hold the traversal's lists, which Neo4j would otherwise count
	// against the transaction's memory once per row the sort keeps. The
	// page is a slice of the sorted list, and one more entry, which every
	// filter keeps, carries capped through to the end even when no
	// target is left.
	b.line("UNWIND found + [{capped: capped}] AS f\nWITH f.s AS n, f.x AS t, f.rels AS rels, f.depth AS depth, f.capped AS flag")
	keep := "(" + strings.Join(labels, " OR ") + ")"
	if len(tconds) > 0 {
		keep = "(" + joinAnd(append([]string{keep}, tconds...)) + ")"
	}
	b.line("WHERE flag IS NOT NULL OR %s", keep)
	b.line("WITH n, t, head(collect(rels)) AS rels, min(depth) AS depth, max(flag) AS flag")
	b.line("WITH n, t, rels, depth, flag, %s AS tid", idExpr)
	orders := append(sorts, order{expr: "depth"}, b.idOrder(), order{expr: "tid"})
	b.line("ORDER BY %s\nWITH max(flag) AS capped, collect(CASE WHEN t IS NOT NULL THEN {n: n, t: t, rels: rels, depth: depth, tid: tid} END) AS sorted", orderList(orders))
	off, lim := b.named("offset", int64(offset)), b.named("limit", int64(limit))
	b.line("WITH capped, sorted[%s..%s + %s] AS page\nUNWIND %s AS row", off, off, lim, sentinel("page", "capped"))
	b.line("WITH capped, row, row.n AS n, row.t AS t, head(row.rels) AS r")
	step := "{type: type(x), properties: " + b.relProjection("x", types) + "}"
	b.line("RETURN %s AS from_id, row.tid AS %s, labels(t) AS %s, CASE %s END AS %s, CASE WHEN row IS NOT NULL THEN {} END AS %s, row.depth AS depth, CASE WHEN row.depth = 1 THEN %s END AS relationship, [x IN row.rels | %s] AS path, capped AS %s",
		b.prop("n", e.UniqueField), ColID, ColLabels, strings.Join(projs, " "), ColProperties, ColComputed, b.relProjection("r", types), step, ColCapped)
	return b.statement(Shape{Kind: ShapeEntities, Limit: limit, Extra: []string{"from_id", "depth", "relationship", "path"}, Capped: ColCapped})
}

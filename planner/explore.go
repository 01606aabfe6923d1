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

// varLength is the variable-length part of a pattern per depth. Depth is
// not a parameter in Cypher; the planner picks one of these fixed strings
// (depth is an integer the caller clamped to [1, MaxDepth]), so no argument
// text reaches the statement.
func varLength(depth int) string {
	return "*1.." + itoa(depth)
}

// exploreRelationships plans explore_relationships: the start entities
// (filtered like query_entities), then the entities connected to them by
// the relationship types within depth hops, each once per start at its
// shortest depth (parallel relationships never repeat a target), filtered
// by the target conditions; nearest first unless order_by sorts them by
// their fields. Rows carry the start's id (from_id), the depth, the path
// (type and properties of each relationship of one shortest path, from
// the start) and, at depth 1, the properties of that relationship.
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
	reach := tools.Reachable(p.m, e.Name, types, dir, depth)
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
	rels := make([]string, len(types))
	for i, t := range types {
		rels[i] = b.q(t)
	}
	rel := strings.Join(rels, "|")
	relMap := func(v string) string { return b.relProjection(v, types) }
	step := func(v string) string { return "{type: type(" + v + "), properties: " + relMap(v) + "}" }
	if depth == 1 {
		b.line("MATCH (n)%s[r:%s]%s(t)\nWHERE %s", arrow[0], rel, arrow[1], joinAnd(append([]string{b.scopedOr("t", labels)}, tconds...)))
		// Grouping on (n, t) returns a target once however many parallel
		// relationships lead to it, with the properties of one of them.
		b.line("WITH n, t, head(collect(r)) AS r\nWITH n, t, %s AS relationship, [%s] AS path, 1 AS depth, %s AS tid", relMap("r"), step("r"), idExpr)
	} else {
		where := append([]string{"t <> n", "(" + strings.Join(labels, " OR ") + ")"}, b.pathScoped("path")...)
		b.line("MATCH path = (n)%s[:%s%s]%s(t)\nWHERE %s", arrow[0], rel, varLength(depth), arrow[1], joinAnd(append(where, tconds...)))
		b.line("WITH n, t, path\nORDER BY length(path)\nWITH n, t, head(collect(path)) AS path")
		b.line("WITH n, t, null AS relationship, [r IN relationships(path) | %s] AS path, length(path) AS depth, %s AS tid", step("r"), idExpr)
	}
	orders := append(sorts, order{expr: "depth"}, b.idOrder(), order{expr: "tid"})
	b.line("ORDER BY %s\nSKIP %s LIMIT %s", orderList(orders), b.named("offset", int64(offset)), b.named("limit", int64(limit)))
	b.line("RETURN %s AS from_id, tid AS %s, labels(t) AS %s, CASE %s END AS %s, {} AS %s, depth, relationship, path\nORDER BY %s",
		b.prop("n", e.UniqueField), ColID, ColLabels, strings.Join(projs, " "), ColProperties, ColComputed, orderList(append(sorts, order{expr: "depth"}, order{expr: "from_id"}, order{expr: ColID})))
	return b.statement(Shape{Kind: ShapeEntities, Limit: limit, Extra: []string{"from_id", "depth", "relationship", "path"}})
}

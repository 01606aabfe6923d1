package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// findPaths plans find_paths: the two entities by their unique ids, then
// shortestPath (or allShortestPaths) between them over the chosen
// relationship types, at most max_length long, every node of the path
// inside the tenant, once a bounded breadth-first search from both ends
// has found that they meet (see traversal). Each row is one path: its
// nodes in order (entity type, id, stored properties), its relationships
// in order (type, the ids of their stored start and end, declared
// properties) and its length. The start and end are different entities;
// the same entity twice gives no path. When the search stopped at
// Limits.MaxExpanded before the ends met, the rows say so (ColCapped).
func (p *Planner) findPaths(a *tools.FindPathsArgs, state State) (*Statement, error) {
	const tool = tools.FindPaths
	from, err := p.entity(tool, a.FromEntityType, "/from_entity_type")
	if err != nil {
		return nil, err
	}
	to, err := p.entity(tool, a.ToEntityType, "/to_entity_type")
	if err != nil {
		return nil, err
	}
	dir := a.Direction
	arrow, ok := arrows[dir]
	if !ok {
		return nil, unplannable(tool, "direction", dir)
	}
	// Parse filled every relationship type when the call named none; each
	// is still looked up, since it becomes a relationship type here.
	all := relationshipTypesOf(p.m)
	types := a.RelationshipTypes
	for i, t := range types {
		if !slices.Contains(all, t) {
			return nil, tools.Fail(tool, "/relationship_types/"+itoa(i), all, "%q is not a relationship type", t)
		}
	}
	length := clamp(a.MaxLength, min(tools.DefaultPathLength, p.limits.MaxPathLength), p.limits.MaxPathLength)
	b, err := p.newBuilder(tool, from, state)
	if err != nil {
		return nil, err
	}
	end := func(v, param string, e *model.Entity, id any, at string) (string, error) {
		f := e.Field(e.UniqueField)
		if f == nil {
			return "", tools.Fail(tool, at, nil, "%s has no unique field %s", e.Name, e.UniqueField)
		}
		val, err := b.value(fieldRef{f: f}, id, at)
		if err != nil {
			return "", err
		}
		preds := []string{b.prop(v, e.UniqueField) + " = " + b.named(param, val)}
		if w := b.tenantWhere(v); w != "" {
			preds = append([]string{w}, preds...)
		}
		return "MATCH (" + v + ":" + b.q(e.Name) + ")\nWHERE " + joinAnd(preds), nil
	}
	m1, err := end("src", "from_id", from, a.FromID, "/from_id")
	if err != nil {
		return nil, err
	}
	m2, err := end("dst", "to_id", to, a.ToID, "/to_id")
	if err != nil {
		return nil, err
	}
	b.line("%s", m1)
	b.line("%s AND dst <> src", m2)

	// Breadth-first from both ends, one level of the side with the
	// smaller frontier per step, until the two meet: a path within length
	// exists and the search stayed within Limits.MaxExpanded. Only then
	// does Neo4j's shortest-path search run, which is breadth-first from
	// both ends as well, so it does about the same work; paths come from
	// it lazily, so all=true stops at max_paths however many shortest paths
	// there are.
	tr := b.traversal(types, func(_, x string) string { return x })
	expanded, followed := tr.limits()
	b.line("WITH src, dst, [{s: src, x: src, rels: []}] AS front_a, [{s: dst, x: dst, rels: []}] AS front_b, [src] AS seen_a, [dst] AS seen_b, false AS met, false AS capped")
	for range length {
		b.line("WITH src, dst, met, capped, front_a, front_b, seen_a, seen_b, size(front_a) <= size(front_b) AS on_a")
		na, ra := tr.level("CASE WHEN on_a THEN front_a ELSE [] END", "seen_a", []string{"front_a", "seen_a", "on_a"}, arrow)
		nb, rb := tr.level("CASE WHEN on_a THEN [] ELSE front_b END", "seen_b", []string{"front_b", "seen_b", "on_a"}, arrows[reversed[dir]])
		b.line("WITH src, dst, met, capped, front_a, front_b, seen_a, seen_b, on_a, %s, %s, %s + %s > %s OR size(seen_a) + size(seen_b) + size(%s) + size(%s) > %s AS cut, any(f IN %s WHERE f.x IN seen_b) OR any(f IN %s WHERE f.x IN seen_a) AS meet",
			na, nb, ra, rb, followed, na, nb, expanded, na, nb)
		b.line("WITH src, dst, met OR meet AS met, capped OR cut AS capped, CASE WHEN meet OR cut THEN [] WHEN on_a THEN %s ELSE front_a END AS front_a, CASE WHEN meet OR cut THEN [] WHEN on_a THEN front_b ELSE %s END AS front_b, seen_a + [f IN %s | f.x] AS seen_a, seen_b + [f IN %s | f.x] AS seen_b",
			na, nb, na, nb)
	}
	fn := "shortestPath"
	if a.All {
		fn = "allShortestPaths"
	}
	b.line("CALL (src, dst, met) {\n  WITH src, dst\n  WHERE met")
	b.line("  MATCH path = %s((src)%s[:%s*1..%s]%s(dst))", fn, arrow[0], tr.rel, itoa(length), arrow[1])
	if w := b.pathScoped("path"); len(w) > 0 {
		b.line("  WHERE %s", joinAnd(w))
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	b.line("  WITH path\n  LIMIT %s", b.named("max_paths", int64(limit)))

	var ids, kinds, projs []string
	for _, e := range p.m.Entities {
		lbl := "x:" + b.q(e.Name)
		ids = append(ids, "WHEN "+lbl+" THEN "+b.prop("x", e.UniqueField))
		kinds = append(kinds, "WHEN "+lbl+" THEN "+b.named("entity_"+itoa(len(kinds)), e.Name))
		var fs []*model.Field
		for _, f := range e.Fields {
			if f.Name != e.UniqueField && !p.tenantField(f.Name) {
				fs = append(fs, f)
			}
		}
		projs = append(projs, "WHEN "+lbl+" THEN "+b.projection("x", fs))
	}
	b.line("  WITH path, [x IN nodes(path) | {eid: elementId(x), entity_type: CASE %s END, id: CASE %s END, properties: CASE %s END}] AS ns",
		strings.Join(kinds, " "), strings.Join(ids, " "), strings.Join(projs, " "))
	endID := func(f string) string {
		return "head([x IN ns WHERE x.eid = elementId(" + f + "(r)) | x.id])"
	}
	b.line("  RETURN collect({nodes: [x IN ns | x {.entity_type, .id, .properties}], relationships: [r IN relationships(path) | {type: type(r), from: %s, to: %s, properties: %s}], length: length(path)}) AS paths\n}",
		endID("startNode"), endID("endNode"), b.relProjection("r", types))
	b.line("WITH paths, capped AND NOT met AS capped\nUNWIND %s AS p", sentinel("paths", "capped"))
	b.line("RETURN p.nodes AS nodes, p.relationships AS relationships, p.length AS length, capped AS %s", ColCapped)
	return b.statement(Shape{Kind: ShapeRows, Capped: ColCapped})
}

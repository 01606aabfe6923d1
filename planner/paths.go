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
// inside the tenant. Each row is one path: its nodes in order (entity
// type, id, stored properties), its relationships in order (type, the ids
// of their stored start and end, declared properties) and its length. The
// start and end are different entities; the same entity twice gives no
// path.
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
	rels := make([]string, len(types))
	for i, t := range types {
		rels[i] = b.q(t)
	}
	fn := "shortestPath"
	if a.All {
		fn = "allShortestPaths"
	}
	b.line("MATCH path = %s((src)%s[:%s%s]%s(dst))", fn, arrow[0], strings.Join(rels, "|"), varLength(length), arrow[1])
	if w := b.pathScoped("path"); len(w) > 0 {
		b.line("WHERE %s", joinAnd(w))
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	b.line("WITH path\nLIMIT %s", b.named("max_paths", int64(limit)))

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
	b.line("WITH path, [x IN nodes(path) | {eid: elementId(x), entity_type: CASE %s END, id: CASE %s END, properties: CASE %s END}] AS ns",
		strings.Join(kinds, " "), strings.Join(ids, " "), strings.Join(projs, " "))
	endID := func(f string) string {
		return "head([x IN ns WHERE x.eid = elementId(" + f + "(r)) | x.id])"
	}
	b.line("RETURN [x IN ns | x {.entity_type, .id, .properties}] AS nodes, [r IN relationships(path) | {type: type(r), from: %s, to: %s, properties: %s}] AS relationships, length(path) AS length",
		endID("startNode"), endID("endNode"), b.relProjection("r", types))
	b.line("ORDER BY length")
	return b.statement(Shape{Kind: ShapeRows})
}

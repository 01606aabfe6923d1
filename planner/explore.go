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

// targets lists the entities reachable from start over relationship type
// typ in direction dir within depth hops, by the relationships the model
// declares (either end may declare them).
func targets(m *model.Model, start, typ, dir string, depth int) []string {
	type edge struct{ from, to string }
	var edges []edge
	undirected := map[[2]string]bool{}
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			if r.Type != typ {
				continue
			}
			for _, t := range r.Targets {
				switch r.Direction {
				case model.Incoming:
					edges = append(edges, edge{t, e.Name})
				case model.Both:
					undirected[[2]string{e.Name, t}] = true
					undirected[[2]string{t, e.Name}] = true
				default:
					edges = append(edges, edge{e.Name, t})
				}
			}
		}
	}
	next := func(x string) []string {
		var out []string
		for _, ed := range edges {
			if (dir == "outgoing" || dir == "both") && ed.from == x {
				out = append(out, ed.to)
			}
			if (dir == "incoming" || dir == "both") && ed.to == x {
				out = append(out, ed.from)
			}
		}
		for k := range undirected {
			if k[0] == x {
				out = append(out, k[1])
			}
		}
		return out
	}
	var seen []string
	frontier := []string{start}
	for d := 0; d < depth; d++ {
		var nf []string
		for _, x := range frontier {
			for _, y := range next(x) {
				if !slices.Contains(seen, y) {
					seen = append(seen, y)
					nf = append(nf, y)
				}
			}
		}
		frontier = nf
	}
	// model order, for stable statements
	var out []string
	for _, e := range m.Entities {
		if slices.Contains(seen, e.Name) {
			out = append(out, e.Name)
		}
	}
	return out
}

// relProps lists the declared properties of relationship type typ.
func relProps(m *model.Model, typ string) []string {
	var out []string
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			if r.Type != typ {
				continue
			}
			for _, p := range r.Properties {
				if !slices.Contains(out, p.Name) {
					out = append(out, p.Name)
				}
			}
		}
	}
	return out
}

// exploreRelationships plans explore_relationships: the start entities
// (filtered like query_entities), then the entities connected to them by
// the relationship type within depth hops, each once per start with its
// shortest depth, nearest first (parallel relationships never repeat a
// target). Rows carry the start's id (from_id), the depth and, at depth 1,
// the properties of one relationship that leads to the target.
func (p *Planner) exploreRelationships(a *tools.ExploreRelationshipsArgs, state State) (*Statement, error) {
	const tool = tools.ExploreRelationships
	e, err := p.entity(tool, a.StartEntityType, "/start_entity_type")
	if err != nil {
		return nil, err
	}
	dir := a.Direction
	if dir == "" {
		dir = "outgoing"
	}
	arrow, ok := arrows[dir]
	if !ok {
		return nil, callError(tool, "/direction", []string{"outgoing", "incoming", "both"}, "unknown direction %q", dir)
	}
	depth := a.Depth
	if depth <= 0 {
		depth = 1
	}
	if depth > p.limits.MaxDepth {
		depth = p.limits.MaxDepth
	}
	var typ string
	var types []string
	for _, x := range p.m.Entities {
		for _, r := range x.Relationships {
			if !slices.Contains(types, r.Type) {
				types = append(types, r.Type)
			}
			if r.Type == a.RelationshipType {
				typ = r.Type
			}
		}
	}
	if typ == "" {
		return nil, callError(tool, "/relationship_type", types, "%q is not a relationship type", a.RelationshipType)
	}
	reach := targets(p.m, e.Name, typ, dir, depth)
	if a.TargetEntityType != "" {
		if !slices.Contains(reach, a.TargetEntityType) {
			return nil, callError(tool, "/target_entity_type", reach, "%s --[%s]-- (%s) never reaches %q", e.Name, typ, dir, a.TargetEntityType)
		}
		reach = []string{a.TargetEntityType}
	}
	if len(reach) == 0 {
		return nil, callError(tool, "/relationship_type", nil, "%s has no %s %s relationship", e.Name, dir, typ)
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
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	rel := b.q(typ)
	if depth == 1 {
		b.line("MATCH (n)%s[r:%s]%s(t)\nWHERE %s", arrow[0], rel, arrow[1], b.scopedOr("t", labels))
		rp := relProps(p.m, typ)
		items := make([]string, len(rp))
		for i, x := range rp {
			items[i] = "." + b.q(x)
		}
		// Grouping on (n, t) returns a target once however many parallel
		// relationships lead to it, with the properties of one of them.
		b.line("WITH n, t, head(collect(r {%s})) AS relationship\nWITH n, t, relationship, 1 AS depth, %s AS tid", strings.Join(items, ", "), idExpr)
	} else {
		b.line("MATCH path = (n)%s[:%s%s]%s(t)\nWHERE %s", arrow[0], rel, varLength(depth), arrow[1], joinAnd(append([]string{"t <> n", "(" + strings.Join(labels, " OR ") + ")"}, b.pathScoped("path")...)))
		b.line("WITH n, t, min(length(path)) AS depth\nWITH n, t, depth, null AS relationship, %s AS tid", idExpr)
	}
	b.line("ORDER BY depth, %s, tid\nLIMIT %s", b.prop("n", e.UniqueField), b.named("limit", int64(limit)))
	b.line("RETURN %s AS from_id, tid AS %s, labels(t) AS %s, CASE %s END AS %s, {} AS %s, depth, relationship\nORDER BY depth, from_id, %s",
		b.prop("n", e.UniqueField), ColID, ColLabels, strings.Join(projs, " "), ColProperties, ColComputed, ColID)
	return b.statement(Shape{Kind: ShapeEntities, Limit: limit, Extra: []string{"from_id", "depth", "relationship"}})
}

package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/tools"
)

// hopKeys are the keys of one hop (tools.Related), which over held
// itself before over.path.
var hopKeys = []string{"via", "direction", "entity", "conditions", "relationship_conditions"}

// overHopIntoPath turns over's older one-hop form, the hop's keys in over
// itself, into the path of that hop the schema shows (tools.Over.Steps
// reads both). Beside a path, they are dropped here and refused by
// checkOver, which names both forms.
func overHopIntoPath(args map[string]any) {
	over, ok := args["over"].(map[string]any)
	if !ok {
		return
	}
	hop := map[string]any{}
	for _, k := range hopKeys {
		if v, ok := over[k]; ok {
			hop[k] = v
			delete(over, k)
		}
	}
	if _, ok := over["path"]; !ok && len(hop) > 0 {
		over["path"] = []any{hop}
	}
}

// overPath resolves the hops of an aggregate's over (its own hop, or
// over.path), each from the previous hop's entity. The number of hops is
// bounded by Limits.MaxDepth, the depth bound of every traversal.
func (p *Planner) overPath(b *builder, o *tools.Over) ([]*hop, error) {
	steps := o.Steps()
	if max := p.limits.MaxDepth; len(steps) > max {
		return nil, tools.Fail(b.tool, "/over/path", nil, "over.path has %d hops; at most %d (the traversal depth bound)", len(steps), max)
	}
	hops := make([]tools.Related, len(steps))
	for i, st := range steps {
		hops[i] = *st
	}
	return b.path(b.mainScope(), hops, func(i int) string {
		if len(o.Path) == 0 {
			return "/over"
		}
		return tools.Pointer("over", "path", i)
	}, 0)
}

// distinctOver matches over's hops and keeps each related entity (or,
// with each: relationship, each relationship of the last hop) once per
// group, however many of the matching entities, paths or parallel
// relationships lead to it. Between two hops only the start and the
// entities reached so far are kept, each once per start (breadth-first,
// as every traversal: a path is never enumerated), and a path's far end
// is never its start (co-actors are other people). A path of several hops
// keeps at most Limits.MaxExpanded rows a level (capLevel), and its rows
// say when a level had more (capped). The group is g (a field of the
// start), or a property of the last hop's relationship (over.group_by),
// or a field of its entity (over.group_by_related), which when it is that
// entity's unique field shows its display fields.
//
// open says the statement so far is the start's MATCH alone (builder.open).
// Then a path a later hop of which pins its entity (pinnedPath) is matched
// whole instead, from the pinned node back to the start (pinnedPath).
func (p *Planner) distinctOver(b *builder, a *AggregateEntitiesArgs, path []*hop, g grouping, bucket *bucketing, open bool) (grouping, error) {
	o := a.Over
	over := path[len(path)-1]
	pinned := open && pinnedPath(path)
	carry := []string{"n"}
	if len(path) > 1 && g.ref != nil && !pinned {
		// The start's group is read before the hops, whose WITHs keep
		// only the start and it.
		b.line("WITH n, %s AS `group`", g.expr)
		g.expr, carry = "`group`", []string{"n", "`group`"}
	}
	if pinned {
		preds := b.walkHops("n", path)
		if over.entity == b.e {
			preds = append(preds, over.m+" <> n")
		}
		b.line("WHERE %s", joinAnd(preds))
	}
	for i, h := range path {
		if pinned {
			break
		}
		preds := append(slices.Clone(h.base), h.conds...)
		if i > 0 {
			p.capLevel(b, append(slices.Clone(carry), path[i-1].m))
			if !slices.Contains(carry, colCapped) {
				carry = append(carry, colCapped)
			}
			if i == len(path)-1 && (h.entity == nil || h.entity == b.e) {
				preds = append(preds, h.m+" <> n")
			}
		}
		b.line("MATCH %s\nWHERE %s", h.pattern, joinAnd(preds))
	}
	each := []string{over.m}
	if o.Each == tools.EachRelationship {
		// The relationship names its entity: keeping both splits nothing.
		each = []string{over.r}
		if a.Field != "" {
			each = append(each, over.m)
		}
	}
	var gs scope
	at := ""
	switch {
	case o.GroupBy != "":
		gs, at = p.relScope(over.r, over.rel.Via), "/over/group_by"
	case o.GroupByRelated != "":
		if over.entity == nil {
			return g, unplannable(b.tool, "over.group_by_related of several entity types", o.GroupByRelated)
		}
		gs, at = scope{v: over.m, e: over.entity, name: over.entity.Name}, "/over/group_by_related"
	}
	if at != "" {
		if g.ref != nil {
			return g, unplannable(AggregateEntities, "group_by with "+at[1:], o.GroupBy+o.GroupByRelated)
		}
		r, err := gs.field(b, o.GroupBy+o.GroupByRelated, at)
		if err != nil {
			return g, err
		}
		g.ref, g.expr = &r, b.expr(r)
		switch {
		case bucket != nil:
			vars := over.m + ", " + over.r
			if len(path) > 1 && !pinned {
				vars += ", " + colCapped
			}
			if g.expr, err = b.instant(vars, r, at, bucket); err != nil {
				return g, err
			}
		case gs.e != nil && r.f.Name == gs.e.UniqueField && r.inline == "":
			if g.display, err = b.displayOf(gs, a.GroupFields); err != nil {
				return g, err
			}
			g.node = over.m
		}
	}
	keep := each
	if g.display != "" && !slices.Contains(each, g.node) {
		// The node, not its display map, rides through DISTINCT: a node
		// is one id per row, a map a copy of its fields.
		keep = append([]string{g.node}, each...)
	}
	if g.ref != nil {
		keep = append([]string{g.expr + " AS `group`"}, keep...)
		g.expr = "`group`"
	}
	if len(path) == 1 {
		b.line("WITH DISTINCT %s", strings.Join(keep, ", "))
		return g, nil
	}
	g.capped = true
	if !pinned {
		keep = append(keep, colCapped)
	}
	p.capLevel(b, keep)
	return g, nil
}

// pinnedPath reports whether a path of several hops is matched whole,
// from a later hop whose conditions pin its entity through an index (the
// rule of query_entities' nested pins, pins), as consecutive MATCH
// clauses Neo4j plans together: it seeks the pinned node and walks back
// to the start, where the breadth-first levels (capLevel) would read the
// start's every entity up to the bound. The distinct rows of the last
// level are the same, since every level's rows are a projection of the
// path's; only the last level is bounded, and noted when cut. Each hop
// names one entity, whose label the walk writes.
func pinnedPath(path []*hop) bool {
	if len(path) < 2 || slices.ContainsFunc(path, func(h *hop) bool { return h.entity == nil }) {
		return false
	}
	return slices.ContainsFunc(path[1:], func(h *hop) bool { return pins(h.entity, h.rel.Conditions) })
}

// open reports whether the statement's clauses from line mark on are
// MATCH clauses and their WHERE only, which Neo4j plans together with the
// MATCH clauses that follow: no WITH yet fixes where the rows start.
func (b *builder) open(mark int) bool {
	return !slices.ContainsFunc(b.lines[mark:], func(l string) bool {
		return !strings.HasPrefix(l, "MATCH ") && !strings.HasPrefix(l, "WHERE ")
	})
}

// pathCapNote is the note of an aggregate whose path kept n rows of a
// level, naming the arguments that make it smaller.
func pathCapNote(n int) string {
	return fmt.Sprintf("over.path kept %d (start, entity) pairs of a hop and dropped the rest, so the aggregate covers only part of the path's ends; add conditions (on the start or the hops) or start from the other end", n)
}

// colCapped is the variable of a bounded path's rows that says a level
// had more than Limits.MaxExpanded rows (returned as ColCapped).
const colCapped = "`capped`"

// capLevel ends one level of a path of several hops: the distinct rows of
// items, at most Limits.MaxExpanded of them (a level's rows are the
// start, or group, and one entity reached: breadth-first, bounded as
// explore_relationships' levels), and colCapped true when the level had
// more, or an earlier level did (colCapped among items). The rows are
// gathered into one list of at most the bound and one more, which says
// whether the bound cut, and unwound again. An item may be
// "expr AS `name`".
func (p *Planner) capLevel(b *builder, items []string) {
	var names []string
	earlier, by := "", ""
	for _, it := range items {
		if it == colCapped {
			earlier, by = colCapped+" OR ", colCapped+", "
			continue
		}
		if i := strings.LastIndex(it, " AS "); i >= 0 {
			it = it[i+len(" AS "):]
		}
		names = append(names, it)
	}
	bound := p.limits.MaxExpanded
	b.line("WITH DISTINCT %s\nLIMIT %s", strings.Join(items, ", "), b.named("expanded_more", int64(bound+1)))
	b.line("WITH %scollect([%s]) AS `level`", by, strings.Join(names, ", "))
	b.line("UNWIND `level`[..%s] AS `row`", b.named("expanded", int64(bound)))
	cols := make([]string, len(names))
	for i, v := range names {
		cols[i] = "`row`[" + itoa(i) + "] AS " + v
	}
	b.line("WITH %s, %ssize(`level`) > $expanded AS %s", strings.Join(cols, ", "), earlier, colCapped)
}

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
// relationships lead to it. Between two hops only the entities reached so
// far are kept, each once per group (breadth-first, as every traversal: a
// path is never enumerated), with the start only when a later step needs
// it, and a path's far end is never its start (co-actors are other
// people). A path of several hops keeps at most Limits.MaxExpanded rows a
// level, and its answer says when a level had more (bound). The group is
// g (a field of the start), or a property of the last hop's relationship
// (over.group_by), or a field of its entity (over.group_by_related),
// which when it is that entity's unique field shows its display fields
// and groups by the entity itself (its key read once per group).
//
// open says the statement so far is the start's MATCH alone (builder.open).
// Then a path a later hop of which pins its entity (pinnedPath) is matched
// whole instead, from the pinned node back to the start (pinnedPath).
func (p *Planner) distinctOver(b *builder, a *AggregateEntitiesArgs, path []*hop, g grouping, bucket *bucketing, open bool) (grouping, error) {
	o := a.Over
	over := path[len(path)-1]
	pinned := open && pinnedPath(path)
	// The far end of a path of several hops may be its start when it may
	// be of the start's type: it is compared with n.
	notStart := len(path) > 1 && (over.entity == nil || over.entity == b.e)
	var carry []string
	if len(path) > 1 && !pinned {
		if notStart || g.node == "n" {
			carry = append(carry, "n")
		}
		if g.ref != nil && g.node != "n" {
			// The start's group is read before the hops, whose WITHs keep
			// only it and the entities reached.
			b.line("WITH n, %s AS `group`", g.expr)
			g.expr = "`group`"
			carry = append(carry, "`group`")
		}
	}
	if pinned {
		preds := b.walkHops("n", path)
		if notStart {
			preds = append(preds, over.m+" <> n")
		}
		b.line("WHERE %s", joinAnd(preds))
	}
	// starts is the statement up to the path, restated by the first
	// level's check (firstLevel).
	starts := slices.Clone(b.lines)
	for i, h := range path {
		if pinned {
			break
		}
		preds := append(slices.Clone(h.base), h.conds...)
		if i > 0 {
			level := append(slices.Clone(carry), path[i-1].m)
			if i == 1 && pins(b.e, a.Conditions) {
				g.first = p.firstLevel(b, starts, path[0], level)
			} else {
				p.capLevel(b, level, g.capped)
				g.capped = true
			}
			carry = level
			if i == len(path)-1 && notStart {
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
			if g.capped {
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
	switch {
	case g.node != "" && !slices.Contains(each, g.node):
		// A group that is one entity keeps the entity, whose key groups()
		// reads once per group: one node is a cheaper key than the node
		// and its field.
		keep = append([]string{g.node}, each...)
	case g.node == "" && g.ref != nil:
		keep = append([]string{g.expr + " AS `group`"}, keep...)
		g.expr = "`group`"
	}
	if len(path) == 1 {
		b.line("WITH DISTINCT %s", strings.Join(keep, ", "))
		return g, nil
	}
	if g.capped {
		keep = append(keep, colCapped)
	}
	// The last level: each row once per group, at most the bound of them
	// (bound tells whether there were more). A relationship of a hop that
	// has a direction is read from one end only, its near entity, which
	// the level before holds once per group: each is then once per group
	// as read, and needs no DISTINCT, unless the far end is compared with
	// the start, which the level before keeps.
	distinct := "DISTINCT "
	if !pinned && o.Each == tools.EachRelationship && !notStart && directed(over) {
		distinct = ""
	}
	g.last = len(b.lines)
	b.line("WITH %s%s", distinct, strings.Join(keep, ", "))
	b.line("LIMIT %s", b.named("expanded", int64(p.limits.MaxExpanded)))
	return g, nil
}

// directed reports whether a hop follows its relationships one way, so
// that each is read from one of its ends only.
func directed(h *hop) bool {
	return !strings.HasPrefix(h.step, "-[") || !strings.HasSuffix(h.step, "]-")
}

// firstLevel writes the first level of a path from starts pinned through
// an index: the distinct rows of level (the carried start or group, and
// the entity reached by hop, the path's first), at most Limits.MaxExpanded
// of them, streamed to the next hop. Gathering them into a list to count
// them, as capLevel does, took a third of a hub's call (bench/handwritten,
// pinagg_airlines); instead, bound restates the level from starts, the
// statement's lines up to the path, once the aggregate is computed: the
// degree store proves it within the bound in a few db hits (the starts'
// relationships of the hop's type bound its rows), and only when it
// cannot is the level read again up to one row past the bound.
func (p *Planner) firstLevel(b *builder, starts []string, hop *hop, level []string) *firstCheck {
	b.line("WITH DISTINCT %s", strings.Join(level, ", "))
	c := &firstCheck{starts: starts, lines: slices.Clone(b.lines), degree: "COUNT { (n)" + strings.Replace(hop.step, "["+hop.r+":", "[:", 1) + "() }"}
	b.line("LIMIT %s", b.named("expanded", int64(p.limits.MaxExpanded)))
	return c
}

// A firstCheck restates a path's first level (firstLevel).
type firstCheck struct {
	// starts are the statement's lines up to the path; lines the first
	// level's, up to its DISTINCT; degree counts a start's relationships
	// of the first hop.
	starts, lines []string
	degree        string
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
	return fmt.Sprintf("over.path kept %d rows of a hop (a start or group and an entity or relationship reached) and dropped the rest, so the aggregate covers only part of the path's ends; add conditions (on the start or the hops) or start from the other end", n)
}

// colCapped is the variable of a bounded path's rows that says a level
// had more than Limits.MaxExpanded rows (returned as ColCapped).
const colCapped = "`capped`"

// capLevel ends one level of a path of several hops: the distinct rows of
// items, at most Limits.MaxExpanded of them (a level's rows are the
// start, or group, and one entity reached: breadth-first, bounded as
// explore_relationships' levels), and colCapped true when the level had
// more, or an earlier level did (earlier: the rows carry colCapped). The
// rows are gathered into one list of at most the bound and one more,
// which says whether the bound cut, and unwound again.
func (p *Planner) capLevel(b *builder, items []string, earlier bool) {
	or, by := "", ""
	if earlier {
		or, by = colCapped+" OR ", colCapped+", "
	}
	bound := p.limits.MaxExpanded
	b.line("WITH DISTINCT %s%s\nLIMIT %s", by, strings.Join(items, ", "), b.named("expanded_more", int64(bound+1)))
	b.line("WITH %scollect([%s]) AS `level`", by, strings.Join(items, ", "))
	b.line("UNWIND `level`[..%s] AS `row`", b.named("expanded", int64(bound)))
	cols := make([]string, len(items))
	for i, v := range items {
		cols[i] = "`row`[" + itoa(i) + "] AS " + v
	}
	b.line("WITH %s, %ssize(`level`) > $expanded AS %s", strings.Join(cols, ", "), or, colCapped)
}

// bound ends the aggregate of a path of several hops, on one row (the
// groups gathered, or the aggregate without groups), and returns the
// expression that is true when a level was cut: the levels' colCapped
// (capLevel), and rows, the last level's rows the aggregate read, equal
// to the bound when the statement up to the last level, read again,
// finds a row past it, and the first level's check (firstLevel). Each
// read again runs only when the bound may have cut, so an uncut path
// pays a comparison and, from pinned starts, a few db hits.
func (p *Planner) bound(b *builder, g grouping, rows string) string {
	var cut []string
	if g.capped {
		cut = append(cut, colCapped)
	}
	expanded := b.named("expanded", int64(p.limits.MaxExpanded))
	last := slices.Clone(b.lines[:g.last+1])
	b.line("CALL (%s) {", rows)
	b.guard(rows, rows+" = "+expanded)
	b.lines = append(b.lines, last...)
	b.line("SKIP %s LIMIT 1\nRETURN count(*) > 0 AS `more`\n}", expanded)
	cut = append(cut, "`more`")
	if c := g.first; c != nil {
		b.line("CALL () {")
		b.lines = append(b.lines, c.starts...)
		b.line("RETURN sum(%s) > %s AS `deep`\n}", c.degree, expanded)
		b.line("CALL (`deep`) {")
		b.guard("`deep`", "`deep`")
		b.lines = append(b.lines, c.lines...)
		b.line("SKIP %s LIMIT 1\nRETURN count(*) > 0 AS `first_more`\n}", expanded)
		cut = append(cut, "`first_more`")
	}
	return strings.Join(cut, " OR ")
}

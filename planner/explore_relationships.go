package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// ExploreRelationships follows relationship types from start entities.
const ExploreRelationships = "explore_relationships"

// defaultDepth is depth's default.
const defaultDepth = 1

func init() {
	register(declaration[ExploreRelationshipsArgs]{
		Kind: tools.Kind{Name: ExploreRelationships, Category: tools.CategoryGraph, Rank: 30, Offered: withRelationships, Generate: generateExploreRelationships,
			Rewrite: relationshipTypeFirst, CapNote: exploreCapNote},
		check: checkExplore,
		plan:  (*Planner).exploreRelationships,
	})
}

// relationshipTypeFirst adds relationship_type, the older form of one
// type, first to relationship_types, so the schema checks the list
// (checkExplore does the same on the decoded arguments).
func relationshipTypeFirst(args map[string]any) {
	typ, ok := args["relationship_type"]
	if !ok {
		return
	}
	types, _ := args["relationship_types"].([]any)
	if !slices.Contains(types, typ) {
		args["relationship_types"] = append([]any{typ}, types...)
	}
	delete(args, "relationship_type")
}

// exploreCapNote is the note of a traversal stopped at n entities, naming
// the arguments that make it smaller.
func exploreCapNote(n int) string {
	return fmt.Sprintf("the traversal stopped after reaching %d entities, nearest first, so entities farther away are missing; add start_conditions, lower depth or follow fewer relationship_types", n)
}

// ExploreRelationshipsArgs are explore_relationships' arguments.
type ExploreRelationshipsArgs struct {
	StartEntityType  string            `json:"start_entity_type"`
	StartConditions  []tools.Condition `json:"start_conditions"`
	RelationshipType string            `json:"relationship_type"`
	// RelationshipTypes are followed together with RelationshipType; after
	// Parse RelationshipTypes holds them all and RelationshipType the first.
	RelationshipTypes []string `json:"relationship_types"`
	// Direction is outgoing, incoming or both, seen from the start entity.
	Direction string `json:"direction"`
	// TargetEntityType is "" for any target.
	TargetEntityType string `json:"target_entity_type"`
	// TargetConditions and OrderBy apply to the targets; they need
	// TargetEntityType (or a single reachable target type).
	TargetConditions []tools.Condition `json:"target_conditions"`
	OrderBy          tools.OrderByList `json:"order_by"`
	Depth            int               `json:"depth"`
	Limit            int               `json:"limit"`
	Offset           int               `json:"offset"`
}

// generateExploreRelationships writes the tool that follows relationship
// types from start entities.
func generateExploreRelationships(g *tools.Generator) *tools.Generated {
	if len(g.RelationshipTypes()) == 0 {
		return nil
	}
	var starts []*tools.EntityOffer
	for _, o := range g.QueryOffers() {
		if !tools.Enabled(o.Entity, ExploreRelationships) {
			continue
		}
		if len(g.TypesOf(o.Entity.Name)) > 0 {
			starts = append(starts, o)
		}
	}
	if len(starts) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Entities within depth hops of the start entities (start_conditions, e.g. its id) over relationship_types; direction from the start (outgoing: along the stored arrow). Each once per start, at its shortest depth, with from_id, depth, path and relationship (the last hop's properties). target_conditions and order_by field read target_entity_type's fields; relationship_field: a last-hop property; default order nearest first. Conditions as in query_entities.\n")
	b.WriteString(g.RelationshipsRef())

	targets := g.Connected()
	l := g.Limits()
	in := tools.Object(
		tools.Prop{Name: "start_entity_type", Schema: &tools.Schema{Type: "string", Enum: tools.OfferEntities(starts)}},
		tools.ConditionsProp("start_conditions", tools.TestDef),
		tools.Prop{Name: "relationship_types", Schema: &tools.Schema{Type: "array", Items: &tools.Schema{Type: "string", Enum: g.RelationshipTypes()}, MinItems: tools.Count(1), UniqueItems: true}},
		tools.Prop{Name: "direction", Schema: &tools.Schema{Type: "string", Enum: tools.Directions, Default: tools.Directions[0]}},
		tools.Prop{Name: "target_entity_type", Schema: &tools.Schema{Type: "string", Enum: targets}},
		tools.ConditionsProp("target_conditions", tools.TestDef),
		tools.RelationshipOrderByProp(),
		tools.Prop{Name: "depth", Schema: &tools.Schema{Type: "integer", Default: defaultDepth, Maximum: tools.Num(float64(l.MaxDepth)), Least: tools.Least(1)}},
		g.LimitProp(),
		g.OffsetProp(),
	).Require("start_entity_type")
	in.Defs = tools.TestDefs()
	return &tools.Generated{Description: strings.TrimSpace(b.String()), Input: in, Offers: starts}
}

// checkExplore checks decoded arguments and fills their defaults.
func checkExplore(ck *tools.Checker, a *ExploreRelationshipsArgs) {
	a.Limit = ck.Limit(a.Limit)
	if a.Depth == 0 {
		a.Depth = defaultDepth
	}
	if a.Direction == "" {
		a.Direction = string(model.Outgoing)
	}
	o := ck.Entity(a.StartEntityType, "/start_entity_type")
	if o == nil {
		return
	}
	ck.Conditions(o, a.StartConditions, "start_conditions")
	types := a.RelationshipTypes
	if a.RelationshipType != "" && !slices.Contains(types, a.RelationshipType) {
		types = append([]string{a.RelationshipType}, types...)
	}
	if len(types) == 0 {
		ck.Choose("/relationship_types", ck.TypesOf(o.Entity.Name), "give relationship_type or relationship_types")
		return
	}
	all := ck.RelationshipTypes()
	for i, t := range a.RelationshipTypes {
		if !slices.Contains(all, t) {
			ck.Choose(tools.Pointer("relationship_types", i), all, "%q is not a relationship type", t)
			return
		}
	}
	a.RelationshipTypes, a.RelationshipType = types, types[0]
	var dirs, targets []string
	for _, t := range types {
		for _, h := range ck.Hops(o.Entity.Name, t) {
			if !slices.Contains(dirs, string(h.Direction)) {
				dirs = append(dirs, string(h.Direction))
			}
			if string(h.Direction) == a.Direction && !slices.Contains(targets, h.Target) {
				targets = append(targets, h.Target)
			}
		}
	}
	if len(dirs) == 0 {
		ck.Choose("/relationship_type", ck.TypesOf(o.Entity.Name), "%s has no %s relationship", o.Entity.Name, strings.Join(types, " or "))
		return
	}
	if len(targets) == 0 {
		ck.Choose("/direction", dirs, "%s has no %s %s relationship", o.Entity.Name, a.Direction, strings.Join(types, " or "))
		return
	}
	targets = ck.Reachable(targets, types, a.Direction, a.Depth)
	if a.TargetEntityType != "" && !slices.Contains(targets, a.TargetEntityType) {
		ck.Choose("/target_entity_type", targets, "%s --[%s]-- (%s) never reaches %s", o.Entity.Name, strings.Join(types, "|"), a.Direction, a.TargetEntityType)
		return
	}
	rel := ck.PropertiesOf(types...)
	// The sort reads the last relationship of each path, over several
	// types at once, which a relationship's computed field (an
	// expression over one type's relationship variable) cannot.
	for i, k := range a.OrderBy {
		if f := rel.Field(k.RelationshipField); f != nil && f.Computed != nil {
			ck.Add("/order_by/"+itoa(i)+"/relationship_field", "%s is a computed field of %s: explore_relationships sorts by stored properties (query_relationships sorts by computed ones)", k.RelationshipField, rel.Entity.Name)
			return
		}
	}
	if len(a.TargetConditions) == 0 && !slices.ContainsFunc(a.OrderBy, func(k tools.OrderBy) bool { return k.Field != "" }) {
		ck.OrderByEither(nil, rel, a.OrderBy)
		return
	}
	target := a.TargetEntityType
	if target == "" && len(targets) == 1 {
		target = targets[0]
	}
	if target == "" {
		ck.Choose("/target_entity_type", targets, "target_conditions and order_by field keys need target_entity_type")
		return
	}
	a.TargetEntityType = target
	to := ck.RelatedOffer(target, "/target_entity_type")
	if to == nil {
		return
	}
	ck.Conditions(to, a.TargetConditions, "target_conditions")
	ck.OrderByEither(to, rel, a.OrderBy)
}

// exploreRelationships plans explore_relationships: the start entities
// (filtered like query_entities), then the entities connected to them by
// the relationship types within depth hops, each once per start at its
// shortest depth (parallel relationships never repeat a target), filtered
// by the target conditions; nearest first unless order_by sorts them by
// their fields or by a property of the relationship that reached them.
// Rows carry the start's id (from_id), the depth, the path (type and
// properties of each relationship of one shortest path, from the start)
// and the properties of the path's last relationship (relationship).
//
// The search is breadth-first (see traversal): each level expands the
// nodes the previous one reached for the first time, so its work is the
// relationships of those nodes, never the paths to them. It reaches at
// most Limits.MaxExpanded entities from at most as many starts (the first
// by id); a level that would reach more, or read more relationships than
// its bound, is the last, and the rows say so (ColCapped). Sorted nearest
// first (no order_by), it also stops at the level that fills the page:
// the targets beyond cannot enter it. The last level is streamed into the
// page when its frontier's degrees prove it uncapped (see traversal).
func (p *Planner) exploreRelationships(a *ExploreRelationshipsArgs, state model.State) (*Statement, error) {
	const tool = ExploreRelationships
	e, err := p.entity(tool, a.StartEntityType, "/start_entity_type")
	if err != nil {
		return nil, err
	}
	arrow, ok := arrows[a.Direction]
	if !ok {
		return nil, unplannable(tool, "direction", a.Direction)
	}
	depth := clamp(a.Depth, defaultDepth, p.limits.MaxDepth)
	reach, err := p.exploreReach(e, a, depth)
	if err != nil {
		return nil, err
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

	x := &exploration{b: b, tn: b.anyEntity("t", reach), types: a.RelationshipTypes, arrow: arrow, depth: depth}
	tconds, err := x.targets(p, a, reach)
	if err != nil {
		return nil, err
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	offset := min(max(a.Offset, 0), p.limits.MaxOffset)

	// The starts (at most max_expanded, first by id), then one level per
	// hop: found gathers the entries reached that pass the target filter
	// (keep), each with its depth, and reached counts every entry reached.
	// An entry's start is its position in starts, which is in id order:
	// rows sort on it instead of reading the start's id once per target.
	x.key = func(s, x string) string { return "toString(" + s + ") + '>' + elementId(" + x + ")" }
	x.tr = b.traversal(x.types, x.key)
	x.expanded, x.followed = x.tr.limits()
	x.off, x.lim = b.named("offset", int64(offset)), b.pageSize(limit)
	x.keep = x.tn.label
	if len(tconds) > 0 {
		x.keep = joinAnd(append([]string{x.keep}, tconds...))
	}
	x.levels()
	x.lastLevel(a.OrderBy)
	x.page()
	return b.statement(Shape{Kind: ShapeEntities, Limit: limit, Extra: []string{"from_id", "depth", "relationship", "path"}, Capped: ColCapped,
		Missing: colMissing, NotFound: noStart(e, a.StartConditions), Pins: startPin(e, a.StartConditions)})
}

// exploreReach checks the call's relationship types and returns the
// entities they reach from e within depth hops (the target type alone
// when the call names one it reaches).
func (p *Planner) exploreReach(e *model.Entity, a *ExploreRelationshipsArgs, depth int) ([]string, error) {
	const tool = ExploreRelationships
	// Parse put every asked type in RelationshipTypes; each is still looked
	// up, since it becomes a relationship type in the statement.
	all := relationshipTypesOf(p.m)
	types := a.RelationshipTypes
	for i, t := range types {
		if !slices.Contains(all, t) {
			return nil, tools.Fail(tool, "/relationship_types/"+itoa(i), all, "%q is not a relationship type", t)
		}
	}
	reach := p.rels.Reachable(e.Name, types, a.Direction, depth)
	if a.TargetEntityType != "" {
		if !slices.Contains(reach, a.TargetEntityType) {
			return nil, tools.Fail(tool, "/target_entity_type", reach, "%s --[%s]-- (%s) never reaches %q", e.Name, strings.Join(types, "|"), a.Direction, a.TargetEntityType)
		}
		reach = []string{a.TargetEntityType}
	}
	return reach, nil
}

// exploration is an explore_relationships statement being written, in
// steps: the target filter and sort keys, the levels before the last,
// the last level, the page.
type exploration struct {
	b     *builder
	tr    *traversal
	tn    anyNode
	types []string
	arrow [2]string
	depth int
	// key names an entry (its start and its entity) in seen.
	key func(s, x string) string
	// expanded and followed are the traversal's bounds; off and lim the
	// page's parameters.
	expanded, followed, off, lim string
	// keep is the target filter; sorts the order_by keys.
	keep  string
	sorts []order
}

// targets reads the target conditions and the order_by keys: they read
// fields of the one target type (computed expression fields inline over
// t); a relationship_field key reads
// the last relationship of the target's path (rels, at the sort). It
// returns the target conditions.
func (x *exploration) targets(p *Planner, a *ExploreRelationshipsArgs, reach []string) ([]string, error) {
	b := x.b
	var tconds []string
	var ts *scope
	var err error
	if len(reach) == 1 {
		ts = &scope{v: "t", e: p.m.Entity(reach[0]), name: reach[0]}
		if tconds, _, err = b.tests(*ts, a.TargetConditions, "/target_conditions", -1); err != nil {
			return nil, err
		}
	}
	last := scope{v: "last(rels)", rel: relFieldsOf(p.m, x.types), name: strings.Join(x.types, "|")}
	for i, k := range a.OrderBy {
		at := "/order_by/" + itoa(i)
		var r fieldRef
		switch {
		case k.RelationshipField != "":
			r, err = last.field(b, k.RelationshipField, at+"/relationship_field")
		case ts != nil:
			r, err = ts.field(b, k.Field, at+"/field")
		default:
			err = tools.Fail(ExploreRelationships, "/target_entity_type", reach, "order_by field keys need target_entity_type")
		}
		if err != nil {
			return nil, err
		}
		e := b.expr(r)
		x.sorts = append(x.sorts, order{expr: e + " IS NULL"}, order{expr: e, desc: k.Direction == "DESC"})
	}
	return tconds, nil
}

// orders are the rows' sort keys: order_by's, then nearest first, by
// start, by target.
func (x *exploration) orders() []order {
	return append(slices.Clip(x.sorts), order{expr: "depth"}, order{expr: "start"}, order{expr: "tid"})
}

// stop is the condition that ends the traversal after a level.
// Rows sort nearest first unless order_by sorts them otherwise: then
// once the levels done hold the page (offset + limit kept entries; the
// engine asks one more than the call's limit, to tell a cut page), no
// deeper entity can enter it and the traversal stops there, without a
// cap: the page is the one a complete traversal gives.
func (x *exploration) stop() string {
	if len(x.sorts) == 0 {
		return "cut OR size(found) >= " + x.off + " + " + x.lim
	}
	return "cut"
}

// level writes level d as lists: found gathers the entries it reached
// that pass the target filter, and cut says that it was the last.
// carry names what else the rows keep.
func (x *exploration) level(d int, carry string) string {
	next, read := x.tr.level("frontier", "seen", []string{"frontier", "seen"}, x.arrow)
	x.b.line("WITH sids, capped, missing%s, seen, %s, reached + size(%s) AS reached, found + [f IN %s[..%s - reached] WHERE %s | f {.*, depth: %d}] AS found, %s > %s OR reached + size(%s) > %s AS cut",
		carry, next, next, next, x.expanded, kept("f.x", "t", x.keep), d, read, x.followed, next, x.expanded)
	return next
}

// levels writes the starts and every level before the last.
func (x *exploration) levels() {
	b := x.b
	// The starts' ids (sids), read once for their order, are the rows'
	// from_id.
	b.line("WITH n, %s AS sid\nORDER BY sid\nLIMIT %s + 1", b.idOrder().expr, x.expanded)
	b.line("WITH collect(n) AS starts, collect(sid) AS sids\nWITH sids, size(starts) > %s AS capped, starts = [] AS missing, [i IN range(0, size(starts[..%s]) - 1) | {s: i, x: starts[i], rels: []}] AS frontier", x.expanded, x.expanded)
	b.line("WITH sids, capped, missing, frontier, [f IN frontier | %s] AS seen, 0 AS reached, [] AS found", x.key("f.s", "f.x"))
	for d := 1; d < x.depth; d++ {
		// A level cut short ends the traversal: a node it left out could
		// be reached by the next level, at more than its shortest depth.
		next := x.level(d, "")
		// A stopped traversal's seen grows no more: no level reads after it.
		front := "CASE WHEN " + x.stop() + " THEN [] ELSE " + next + " END"
		b.line("WITH sids, capped OR cut AS capped, missing, %s AS frontier, seen + [f IN %s | %s] AS seen, reached, found", front, front, x.key("f.s", "f.x"))
	}
}

// lastLevel writes the last level, streamed into the page when it can
// cut nothing, else as one more level of lists.
func (x *exploration) lastLevel(orderBy []tools.OrderBy) {
	b, tr, tn, arrow, depth, sorts := x.b, x.tr, x.tn, x.arrow, x.depth, x.sorts
	expanded, followed, off, lim, keep := x.expanded, x.followed, x.off, x.lim, x.keep
	// The last level: when the degrees of its frontier prove that it can
	// cut nothing (it reads at most $max_followed relationships and
	// reaches at most $max_expanded entities in all), it is streamed into
	// the page with the entries found before (fast: the page, listed);
	// otherwise it is one more level of lists, and the lists are sorted
	// and paged. Streaming also needs the traversal's lists short: Neo4j
	// charges what a subquery imports to its grouping once per group, so
	// thousands of entries found before (a hub's first level, when it
	// fills the page) would exhaust the transaction's memory; the lists'
	// side runs outside any subquery for the same reason.
	degree := tr.degree("frontier", arrow)
	b.line("WITH sids, capped, missing, frontier, seen, reached, found, NOT (capped OR missing) AND size(seen) + size(found) <= %d AND %s <= %s AND reached + %s <= %s AS streamed",
		streamedLists, degree, followed, degree, expanded)
	orders := x.orders()
	// A first level sorted on its targets (not on a relationship) first
	// tries its page from the rows as read, as by hand: a Top of offset +
	// limit rows, without grouping each target's relationships (about a
	// sixth of the time at a hub). When those rows hold each target once
	// and no start's own loop (exact), no target can be missing from them,
	// since a target's rows share its sort key; parallel relationships or
	// a loop among them make it group as below. Its depth, 1 on every row,
	// is no sort key.
	guard, fast := "streamed", "fast"
	if depth == 1 && !slices.ContainsFunc(orderBy, func(k tools.OrderBy) bool { return k.RelationshipField != "" }) {
		b.line("CALL (sids, frontier, streamed) {")
		b.guard("sids, frontier, streamed", "streamed")
		b.line("CALL (frontier) {")
		tr.stream("frontier", keep, arrow, depth, true)
		b.line("}\nWITH sids, start, t, rel, x, %s AS tid\nORDER BY %s\nLIMIT %s + %s", tn.id, orderList(append(sorts, order{expr: "start"}, order{expr: "tid"})), off, lim)
		b.line("RETURN collect({sid: sids[start], t: t, rels: [rel], depth: 1, tid: tid}) AS top, count(DISTINCT [start, t]) = count(*) AND count(CASE WHEN x = t THEN 1 END) = 0 AS exact\n}")
		guard, fast = "streamed AND NOT exact", "CASE WHEN exact THEN top["+off+"..] ELSE fast END"
	}
	imports := "sids, frontier, seen, found, streamed"
	if guard != "streamed" {
		imports += ", exact"
	}
	b.line("CALL (%s) {", imports)
	b.guard(imports, guard)
	// The target filter runs once per target the last level reached (the
	// entries found before passed it); those entries and the last level's
	// are distinct (start, target) pairs. At depth 1 nothing was found
	// before, and nothing needs seen.
	b.line("CALL (frontier, found) {")
	if depth > 1 {
		b.line("  UNWIND found AS f\n  RETURN f.s AS start, f.x AS t, f.rels AS rels, f.depth AS depth\n  UNION ALL")
	}
	tr.stream("frontier", keep, arrow, depth, false)
	b.line("}\nWITH sids, frontier, seen, start, t, rels, depth, %s AS tid", tn.id)
	if depth > 1 {
		// The last level's targets reached before are dropped from a Top
		// that holds as many more rows as seen can drop (streamed bounds
		// it), and only the page's rows get their whole path.
		b.line("ORDER BY %s\nLIMIT %s + %s + %d", orderList(orders), off, lim, streamedLists)
		b.line("WITH sids, frontier, start, t, rels, depth, tid\nWHERE depth < %d OR NOT %s IN seen", depth, x.key("start", "t"))
		b.line("WITH sids, frontier, start, t, rels, depth, tid")
	}
	b.line("ORDER BY %s\nSKIP %s\nLIMIT %s", orderList(orders), off, lim)
	if depth > 1 {
		b.line("WITH sids, start, t, CASE WHEN depth < %d THEN rels ELSE %s END AS rels, depth, tid", depth, tr.path("frontier", "start", "t", "rels", arrow))
	}
	b.line("RETURN collect({sid: sids[start], t: t, rels: rels, depth: depth, tid: tid}) AS fast\n}")
	b.line("WITH sids, capped, missing, CASE WHEN streamed THEN [] ELSE frontier END AS frontier, seen, reached, CASE WHEN streamed THEN [] ELSE found END AS found, %s AS fast", fast)
	x.level(depth, ", fast")
	b.line("WITH sids, capped OR cut AS capped, missing, found, fast")
}

// page writes the targets: sorted, paged, then projected.
func (x *exploration) page() {
	b, tn, off, lim := x.b, x.tn, x.off, x.lim
	orders := x.orders()
	// Each (start, target) pair is there once; grouping on it gives rows
	// that no longer hold the traversal's lists, which Neo4j would
	// otherwise count against the transaction's memory once per row the
	// sort keeps. The page is a slice of the sorted list (or the streamed
	// page), and one more entry carries capped through to the end even
	// when no target is left; missing (no start) goes along as a grouping
	// key.
	b.line("UNWIND found + [{capped: capped}] AS f\nWITH missing, fast, sids[f.s] AS sid, f.s AS start, f.x AS t, f.rels AS rels, f.depth AS depth, f.capped AS flag")
	b.line("WITH missing, fast, sid, start, t, head(collect(rels)) AS rels, min(depth) AS depth, max(flag) AS flag")
	b.line("WITH missing, fast, sid, start, t, rels, depth, flag, %s AS tid", tn.id)
	// The entry carrying capped sorts first, so a Top keeps it and the
	// page's entries: the sort holds offset + limit + 1 rows, not all.
	b.line("ORDER BY %s\nLIMIT %s + %s + 1", orderList(append([]order{{expr: "t IS NOT NULL"}}, orders...)), off, lim)
	b.line("WITH missing, fast, max(flag) AS capped, collect(CASE WHEN t IS NOT NULL THEN {sid: sid, t: t, rels: rels, depth: depth, tid: tid} END) AS sorted")
	b.line("WITH capped, missing, fast + sorted[%s..%s + %s] AS page\nUNWIND %s AS row", off, off, lim, sentinel("page", "(capped OR missing)"))
	// relationship is the path's last step: its properties are read once.
	b.line("WITH capped, missing, row, row.t AS t, [x IN row.rels | {type: type(x), properties: %s}] AS path", b.relProjection("x", x.types))
	b.line("RETURN row.sid AS from_id, row.tid AS %s, labels(t) AS %s, %s AS %s, CASE WHEN row IS NOT NULL THEN {} END AS %s, row.depth AS depth, last(path).properties AS relationship, path, capped AS %s, missing AS %s",
		ColID, ColLabels, tn.props, ColProperties, ColComputed, ColCapped, colMissing)
}

// streamedLists is the most entries the lists of the levels before the
// last (seen and found) may hold for the last level to be streamed: a
// start's own (depth 1 from a few starts) or a leaf's first levels.
const streamedLists = 32

// kept is the test of the entity x (an expression) against keep, a
// predicate on the variable v: Cypher binds a variable to an expression
// only in a list, so the test binds v to the list of x alone.
func kept(x, v, keep string) string {
	return "all(" + v + " IN [" + x + "] WHERE " + keep + ")"
}

// noStart is the note of an exploration without a start entity: which e
// the start_conditions named when one of them pins its unique field
// (`no Airport has code "SEA"`), else that none passes them.
// startPin is the Pin of start_conditions that are one equality on the
// unique field (noStart's note without a suffix), else nil.
func startPin(e *model.Entity, conds []tools.Condition) []Pin {
	if len(conds) != 1 || conds[0].Field != e.UniqueField || conds[0].Operator != "=" {
		return nil
	}
	return pin(e, e.UniqueField, conds[0].Value)
}

func noStart(e *model.Entity, conds []tools.Condition) string {
	if len(conds) == 0 {
		return "there is no " + e.Name
	}
	for _, c := range conds {
		if c.Field == e.UniqueField && c.Operator == "=" {
			if len(conds) > 1 {
				return notFound(e, c.Value) + " that passes the other start_conditions"
			}
			return notFound(e, c.Value)
		}
	}
	return "no " + e.Name + " passes start_conditions"
}

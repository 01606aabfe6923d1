package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// FindPaths finds the shortest paths between two entities.
const FindPaths = "find_paths"

// defaultPathLength is max_length's default (at most
// Limits.MaxPathLength).
const defaultPathLength = 4

func init() {
	register(declaration[FindPathsArgs]{
		Kind: tools.Kind{Name: FindPaths, Category: tools.CategoryGraph, Rank: 40, Offered: withRelationships, Generate: generateFindPaths,
			CapNote: func(n int) string {
				return fmt.Sprintf("the search stopped after reaching %d entities out of the two ends without finding a path, so they may still be connected; follow fewer relationship_types or set direction to outgoing or incoming", n)
			}},
		check: checkFindPaths,
		plan:  (*Planner).findPaths,
	})
}

// FindPathsArgs are find_paths' arguments: the shortest paths between two
// entities given by their unique ids.
type FindPathsArgs struct {
	FromEntityType string `json:"from_entity_type"`
	FromID         any    `json:"from_id"`
	ToEntityType   string `json:"to_entity_type"`
	ToID           any    `json:"to_id"`
	// RelationshipTypes are the types a path may use (all when empty).
	RelationshipTypes []string `json:"relationship_types"`
	// Direction is both (default), outgoing or incoming, seen from the
	// first entity.
	Direction string `json:"direction"`
	// MaxLength bounds the number of relationships of a path.
	MaxLength int `json:"max_length"`
	// All returns every shortest path, not just one.
	All   bool `json:"all"`
	Limit int  `json:"limit"`
}

// generateFindPaths writes find_paths when the model has relationships.
func generateFindPaths(g *tools.Generator) *tools.Generated {
	if len(g.RelationshipTypes()) == 0 {
		return nil
	}
	var offers []*tools.EntityOffer
	for _, e := range g.Model().Entities {
		if len(g.TypesOf(e.Name)) == 0 || e.Field(e.UniqueField) == nil {
			continue
		}
		offers = append(offers, &tools.EntityOffer{Entity: e, Fields: []*tools.FieldOffer{{Field: e.Field(e.UniqueField)}}})
	}
	if len(offers) == 0 {
		return nil
	}
	l := g.Limits()
	var b strings.Builder
	b.WriteString("Shortest path (all: every one, up to limit) between two entities by unique id, over relationship_types (default all), at most max_length hops; direction both ignores stored arrows, outgoing follows them from from_id, incoming against them. Rows: nodes (entity_type, id, properties), relationships (type, from/to ids, properties); none if unconnected.\n")
	b.WriteString(g.RelationshipsRef())
	in := tools.Object(
		tools.Prop{Name: "from_entity_type", Schema: &tools.Schema{Type: "string", Enum: tools.OfferEntities(offers)}},
		tools.Prop{Name: "from_id", Schema: &tools.Schema{Types: []string{"string", "number"}}},
		tools.Prop{Name: "to_entity_type", Schema: &tools.Schema{Type: "string", Enum: tools.OfferEntities(offers)}},
		tools.Prop{Name: "to_id", Schema: &tools.Schema{Types: []string{"string", "number"}}},
		tools.Prop{Name: "relationship_types", Schema: &tools.Schema{Type: "array", Items: &tools.Schema{Type: "string"}, MinItems: tools.Count(1), UniqueItems: true}},
		tools.Prop{Name: "direction", Schema: &tools.Schema{Type: "string", Enum: []string{string(model.Both), string(model.Outgoing), string(model.Incoming)}, Default: string(model.Both)}},
		tools.Prop{Name: "max_length", Schema: &tools.Schema{Type: "integer", Default: min(defaultPathLength, l.MaxPathLength), Maximum: tools.Num(float64(l.MaxPathLength)), Least: tools.Least(1)}},
		tools.Prop{Name: "all", Schema: &tools.Schema{Type: "boolean"}},
		g.LimitProp(),
	).Require("from_entity_type", "from_id", "to_entity_type", "to_id")
	return &tools.Generated{Description: strings.TrimSpace(b.String()), Input: in, Offers: offers}
}

// checkFindPaths checks find_paths' arguments, filling the defaults.
func checkFindPaths(ck *tools.Checker, a *FindPathsArgs) {
	a.Limit = ck.Limit(a.Limit)
	if a.Direction == "" {
		a.Direction = string(model.Both)
	}
	if a.MaxLength == 0 {
		a.MaxLength = min(defaultPathLength, ck.Limits().MaxPathLength)
	}
	all := ck.RelationshipTypes()
	if len(a.RelationshipTypes) == 0 {
		a.RelationshipTypes = all
	}
	for i, t := range a.RelationshipTypes {
		if !slices.Contains(all, t) {
			ck.Choose(tools.Pointer("relationship_types", i), all, "%q is not a relationship type", t)
		}
	}
	for _, end := range []struct {
		entity, at string
		id         *any
	}{{a.FromEntityType, "/from", &a.FromID}, {a.ToEntityType, "/to", &a.ToID}} {
		o := ck.Entity(end.entity, end.at+"_entity_type")
		if o == nil {
			continue
		}
		f := o.Fields[0].Field
		if f.Type.Kind() != model.Number {
			if _, ok := (*end.id).(string); !ok {
				ck.Add(end.at+"_id", "%s.%s is a %s; give it as a string", o.Entity.Name, f.Name, f.Type)
				continue
			}
		}
		if v, ok := ck.Value(f, *end.id, end.at+"_id"); ok {
			*end.id = v
		}
	}
}

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
func (p *Planner) findPaths(a *FindPathsArgs, state model.State) (*Statement, error) {
	const tool = FindPaths
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
	length := clamp(a.MaxLength, min(defaultPathLength, p.limits.MaxPathLength), p.limits.MaxPathLength)
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
	// both ends as well, so it does about the same work again; paths come
	// from it lazily, so all=true stops at max_paths however many shortest
	// paths there are. When the count store proves that no search can
	// reach the bounds (pathsUnbounded), met is true at once and the
	// search is the other branch of a UNION ALL, which then gets no row:
	// its levels cost nothing (run on empty fronts, they took about 0.1 ms
	// on the airline graph). With a tenant the count store counts other tenants'
	// relationships and nodes too, and shortestPath's tenant predicate may
	// make it search exhaustively, so the search always runs.
	tr := b.traversal(types, func(_, x string) string { return x })
	expanded, followed := tr.limits()
	guarded := p.m.Tenant == nil
	if guarded {
		b.line("%s", p.pathsUnbounded(tr, types, "src, dst"))
		b.line("CALL (src, dst, unbounded) {\n  WITH src, dst\n  WHERE unbounded\n  RETURN true AS met, false AS capped\n  UNION ALL\n  WITH src, dst\n  WHERE NOT unbounded")
	}
	b.line("WITH src, dst, [{s: src, x: src, rels: []}] AS front_a, [{s: dst, x: dst, rels: []}] AS front_b, [src] AS seen_a, [dst] AS seen_b, false AS met, false AS capped")
	for range length {
		// A step expands the side with the smaller frontier (front, with
		// its seen) in one level, or in two when the direction tells the
		// sides apart (the other side follows the arrows backwards), of
		// which one gets no entry. Neo4j plans each level's subquery the
		// first time it sees the statement's text, which is what the
		// first call of a shape waits for (docs/serving.md), so a search
		// in both directions, whose sides follow the same pattern, writes
		// half the levels it wrote with one level per side.
		b.line("WITH src, dst, met, capped, front_a, front_b, seen_a, seen_b, size(front_a) <= size(front_b) AS on_a")
		b.line("WITH src, dst, met, capped, front_a, front_b, seen_a, seen_b, on_a, CASE WHEN on_a THEN front_a ELSE front_b END AS front, CASE WHEN on_a THEN seen_a ELSE seen_b END AS seen, CASE WHEN on_a THEN seen_b ELSE seen_a END AS other")
		var next, read string
		if back := arrows[reversed[dir]]; back == arrow {
			next, read = tr.level("front", "seen", []string{"front", "seen"}, arrow)
		} else {
			na, ra := tr.level("CASE WHEN on_a THEN front ELSE [] END", "seen", []string{"front", "seen", "on_a"}, arrow)
			nb, rb := tr.level("CASE WHEN on_a THEN [] ELSE front END", "seen", []string{"front", "seen", "on_a"}, back)
			next, read = na+" + "+nb, ra+" + "+rb
		}
		b.line("WITH src, dst, met, capped, front_a, front_b, seen_a, seen_b, on_a, %s AS next, %s > %s OR size(seen_a) + size(seen_b) + size(%s) > %s AS cut, any(f IN %s WHERE f.x IN other) AS meet",
			next, read, followed, next, expanded, next)
		b.line("WITH src, dst, met OR meet AS met, capped OR cut AS capped, CASE WHEN meet OR cut THEN [] WHEN on_a THEN next ELSE front_a END AS front_a, CASE WHEN meet OR cut THEN [] WHEN on_a THEN front_b ELSE next END AS front_b, CASE WHEN on_a THEN seen_a + [f IN next | f.x] ELSE seen_a END AS seen_a, CASE WHEN on_a THEN seen_b ELSE seen_b + [f IN next | f.x] END AS seen_b")
	}
	if guarded {
		b.line("  RETURN met, capped\n}")
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

	// One CASE per node, so each node's labels are tested once (PROFILE
	// counts every label test as a db hit).
	var nodes []string
	for i, e := range p.m.Entities {
		var fs []*model.Field
		for _, f := range e.Fields {
			if f.Name != e.UniqueField && !p.tenantField(f.Name) {
				fs = append(fs, f)
			}
		}
		nodes = append(nodes, fmt.Sprintf("WHEN x:%s THEN {eid: elementId(x), entity_type: %s, id: %s, properties: %s}",
			b.q(e.Name), b.named("entity_"+itoa(i), e.Name), b.prop("x", e.UniqueField), b.projection("x", fs)))
	}
	b.line("  WITH path, [x IN nodes(path) | CASE %s END] AS ns", strings.Join(nodes, " "))
	endID := func(f string) string {
		return "head([x IN ns WHERE x.eid = elementId(" + f + "(r)) | x.id])"
	}
	b.line("  RETURN collect({nodes: [x IN ns | x {.entity_type, .id, .properties}], relationships: [r IN relationships(path) | {type: type(r), from: %s, to: %s, properties: %s}], length: length(path)}) AS paths\n}",
		endID("startNode"), endID("endNode"), b.relProjection("r", types))
	b.line("WITH paths, capped AND NOT met AS capped\nUNWIND %s AS p", sentinel("paths", "capped"))
	b.line("RETURN p.nodes AS nodes, p.relationships AS relationships, p.length AS length, capped AS %s", ColCapped)
	return b.statement(Shape{Kind: ShapeRows, Capped: ColCapped})
}

// pathsUnbounded returns the clauses that keep the variables carried and
// add unbounded, true when the count store (one db hit per count) proves
// that no search over the types can reach find_paths' bounds: neither its
// own nor Neo4j's shortest-path search, whose reach the same counts bound.
// Any of three bounds proves it:
//
//   - relationships: the types have R relationships; a level reads at most
//     2R of them (each followed both ways) and each side reaches at most
//     R + 1 nodes, so 2R + 2 <= $max_expanded (which implies the level
//     bound, $max_followed being FollowedPerExpanded times it);
//   - nodes: the database holds N nodes, so each side reaches at most N
//     of them and 2N + 2 <= $max_expanded, while 2R <= $max_followed
//     still bounds a level;
//   - one entity's nodes: every relationship of the types starts and ends
//     on an entity the model declares at both ends of each type (its
//     counts from and to that label equal R), whose N nodes bound each
//     side to N + 1, with 2N + 2 <= $max_expanded and 2R <= $max_followed
//     as above. A graph with few entities and many relationships between
//     them (the airline graph's 3,000 airports and 44,068 routes) in a
//     database that holds more passes this one only.
//
// The counts are few whatever the model: R for all the types at once, N,
// and three per entity at both ends of every type (none for the code
// graph's five types together, one for the airline graph's routes).
// Counting, for each type, its relationships from and to each label at
// its ends instead took 34 count subqueries on the code graph, a large
// part of the time Neo4j takes to plan the statement the first time it
// sees its text (docs/serving.md, "The first call of a shape").
func (p *Planner) pathsUnbounded(tr *traversal, types []string, carried string) string {
	expanded, followed := tr.limits()
	nodes := []string{"2 * nodes + 2 <= " + expanded}
	for _, e := range coveringEntities(p.m, types) {
		l := tr.b.q(e)
		nodes = append(nodes, "COUNT { (:"+l+")-[:"+tr.rel+"]->() } = rels AND COUNT { ()-[:"+tr.rel+"]->(:"+l+") } = rels AND 2 * COUNT { (:"+l+") } + 2 <= "+expanded)
	}
	return "WITH " + carried + ", COUNT { ()-[:" + tr.rel + "]->() } AS rels, COUNT { () } AS nodes" +
		"\nWITH " + carried + ", 2 * rels + 2 <= " + expanded +
		" OR 2 * rels <= " + followed + " AND (" + strings.Join(nodes, " OR ") + ") AS unbounded"
}

// coveringEntities lists the entities the model declares both at the
// start and at the end of every one of the types, in the model's order:
// the only labels all the relationships of the types can start and end
// on in a graph the model describes.
func coveringEntities(m *model.Model, types []string) []string {
	var out []string
	for _, e := range m.Entities {
		covers := func(t string) bool {
			starts, ends := relationshipEnds(m, t)
			return slices.Contains(starts, e.Name) && slices.Contains(ends, e.Name)
		}
		if !slices.ContainsFunc(types, func(t string) bool { return !covers(t) }) {
			out = append(out, e.Name)
		}
	}
	return out
}

// relationshipEnds lists the entities the model declares at the start and
// at the end of relationship type t: an outgoing declaration starts at its
// entity and ends at its targets, an incoming one the other way round,
// and one in both directions puts them all at both ends.
func relationshipEnds(m *model.Model, t string) (starts, ends []string) {
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			if r.Type != t {
				continue
			}
			own, other := []string{e.Name}, r.Targets
			switch r.Direction {
			case model.Incoming:
				own, other = other, own
			case model.Both:
				own = append(own, other...)
				other = own
			}
			starts, ends = append(starts, own...), append(ends, other...)
		}
	}
	return starts, ends
}

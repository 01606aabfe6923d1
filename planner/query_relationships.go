package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// QueryRelationships lists the relationships of one type, filtered by
// their declared properties and their ends' fields, ranked by
// their properties ("the 10 busiest routes" in one call).
const QueryRelationships = "query_relationships"

// withAnalytics offers query_relationships with the other analytics tool
// (Options.Aggregations): a ranking reads every relationship of its type,
// as an aggregate reads every entity of its label.
func withAnalytics(o tools.Options) bool { return o.Aggregations && !o.NoRelationships }

func init() {
	register(declaration[QueryRelationshipsArgs]{
		Kind:  tools.Kind{Name: QueryRelationships, Category: tools.CategoryAnalytics, Rank: 125, Offered: withAnalytics, Generate: generateQueryRelationships},
		check: checkQueryRelationships,
		plan:  (*Planner).queryRelationships,
	})
}

// QueryRelationshipsArgs are query_relationships' arguments. From and to
// are the ends of the stored arrow.
type QueryRelationshipsArgs struct {
	RelationshipType string `json:"relationship_type"`
	// Conditions test the relationship's declared properties.
	Conditions []tools.Condition `json:"conditions"`
	// FromEntityType and ToEntityType are "" for any end the type has;
	// Parse fills them when the type has one.
	FromEntityType string            `json:"from_entity_type"`
	FromConditions []tools.Condition `json:"from_conditions"`
	ToEntityType   string            `json:"to_entity_type"`
	ToConditions   []tools.Condition `json:"to_conditions"`
	// OrderBy sorts by the relationship's properties.
	OrderBy tools.OrderByList `json:"order_by"`
	Limit   int               `json:"limit"`
	Offset  int               `json:"offset"`
	// Total asks for the count of every matching relationship
	// (Statement.Total).
	Total bool `json:"total"`
}

// generateQueryRelationships writes the tool over the relationship types
// that declare properties: ranking and filtering by them is what the tool
// adds to explore_relationships, which lists any type's relationships
// from their ends.
func generateQueryRelationships(g *tools.Generator) *tools.Generated {
	types := g.PropertiedTypes()
	if len(types) == 0 {
		return nil
	}
	desc := "Relationships of relationship_type with their properties and from and to entities (the stored arrow's ends). conditions: field tests on the properties; from_/to_conditions: on the ends' fields (from_/to_entity_type if several). order_by properties, missing last; ties: from, to id."
	in := tools.Object(
		tools.Prop{Name: "relationship_type", Schema: &tools.Schema{Type: "string", Enum: types}},
		tools.ConditionsProp("conditions", tools.TestDef),
		tools.Prop{Name: "from_entity_type", Schema: &tools.Schema{Type: "string"}},
		tools.ConditionsProp("from_conditions", tools.TestDef),
		tools.Prop{Name: "to_entity_type", Schema: &tools.Schema{Type: "string"}},
		tools.ConditionsProp("to_conditions", tools.TestDef),
		tools.OrderByProp(),
		g.LimitProp(),
		g.OffsetProp(),
		tools.TotalProp(),
	).Require("relationship_type")
	in.Defs = tools.TestDefs()
	return &tools.Generated{Description: desc, Input: in}
}

// checkQueryRelationships checks decoded arguments and fills their
// defaults: the ends when the type has one, the sort directions.
func checkQueryRelationships(ck *tools.Checker, a *QueryRelationshipsArgs) {
	a.Limit = ck.Limit(a.Limit)
	all := ck.PropertiedTypes()
	if !slices.Contains(all, a.RelationshipType) {
		ck.Choose("/relationship_type", all, "%q is not a relationship type", a.RelationshipType)
		return
	}
	rel := ck.PropertiesOf(a.RelationshipType)
	ck.Conditions(rel, a.Conditions, "conditions")
	ck.OrderBy(rel, a.OrderBy)
	from, to := ck.Ends(a.RelationshipType)
	checkEnd(ck, a.RelationshipType, "from", from, &a.FromEntityType, a.FromConditions)
	checkEnd(ck, a.RelationshipType, "to", to, &a.ToEntityType, a.ToConditions)
}

// checkEnd checks one end (side from or to) of relationship type typ:
// its entity type among ends (filled when there is one) and its
// conditions, which need it.
func checkEnd(ck *tools.Checker, typ, side string, ends []string, entity *string, conds []tools.Condition) {
	if *entity == "" && len(ends) == 1 {
		*entity = ends[0]
	}
	if *entity == "" {
		if len(conds) > 0 {
			ck.Choose("/"+side+"_entity_type", ends, "%s_conditions need %s_entity_type", side, side)
		}
		return
	}
	if !slices.Contains(ends, *entity) {
		ck.Choose("/"+side+"_entity_type", ends, "%s is never stored %s %s", typ, side, *entity)
		return
	}
	if o := ck.RelatedOffer(*entity, "/"+side+"_entity_type"); o != nil {
		ck.Conditions(o, conds, side+"_conditions")
	}
}

// queryRelationships plans query_relationships:
//
//	MATCH (a:From)-[r:TYPE]->(z:To)
//	WHERE <tenant of a> AND <tenant of z> AND <conditions on r, a, z>
//	WITH a, r, z ORDER BY <key IS NULL>, <key>, …, <a's id>, <z's id>, elementId(r)
//	SKIP $offset LIMIT $limit
//	RETURN type, properties, from_*, to_*, sort keys ORDER BY …
//
// Relationships without a sort value come last in both directions; the
// ends' ids, then the relationship's element id, break ties, so paging
// neither repeats nor skips one. Only declared properties are read or
// returned.
func (p *Planner) queryRelationships(a *QueryRelationshipsArgs, state model.State) (*Statement, error) {
	const tool = QueryRelationships
	typ := a.RelationshipType
	if all := relationshipTypesOf(p.m); !slices.Contains(all, typ) {
		return nil, tools.Fail(tool, "/relationship_type", all, "%q is not a relationship type", typ)
	}
	from, to := p.rels.Ends(typ)
	b, err := p.newBuilder(tool, nil, state)
	if err != nil {
		return nil, err
	}
	var preds []string
	end := func(v, side, entity string, ends []string, conds []tools.Condition) (anyNode, error) {
		if entity != "" {
			if !slices.Contains(ends, entity) {
				return anyNode{}, tools.Fail(tool, "/"+side+"_entity_type", ends, "%s is never stored %s %q", typ, side, entity)
			}
			ends = []string{entity}
		}
		n := b.anyEntity(v, ends)
		preds = append(preds, b.scoped(v, []string{n.label})...)
		if len(conds) == 0 {
			return n, nil
		}
		if len(ends) != 1 {
			return n, tools.Fail(tool, "/"+side+"_entity_type", ends, "%s_conditions need %s_entity_type", side, side)
		}
		s := scope{v: v, e: p.m.Entity(ends[0]), name: ends[0]}
		ps, _, err := b.tests(s, conds, "/"+side+"_conditions", -1)
		preds = append(preds, ps...)
		return n, err
	}
	an, err := end("a", "from", a.FromEntityType, from, a.FromConditions)
	if err != nil {
		return nil, err
	}
	zn, err := end("z", "to", a.ToEntityType, to, a.ToConditions)
	if err != nil {
		return nil, err
	}
	rs := p.relScope("r", typ)
	rps, _, err := b.tests(rs, a.Conditions, "/conditions", -1)
	if err != nil {
		return nil, err
	}
	preds = append(preds, rps...)

	var orders []order
	// A computed sort key is computed once per relationship, into a
	// variable the sort, the page and the sort key column read.
	vars, binds := "a, r, z", ""
	for i, k := range a.OrderBy {
		r, err := rs.field(b, k.Field, "/order_by/"+itoa(i)+"/field")
		if err != nil {
			return nil, err
		}
		x, key := b.sortExpr(r)
		if r.inline != "" {
			v := b.q(VarName(k.Field))
			binds += ", " + x + " AS " + v
			vars += ", " + v
			x = v
		}
		orders = append(orders, order{expr: x + " IS NULL"}, order{expr: x, desc: k.Direction == "DESC", key: key})
	}
	orders = append(orders, order{expr: an.id}, order{expr: zn.id}, order{expr: "elementId(r)"})
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	offset := min(max(a.Offset, 0), p.limits.MaxOffset)

	b.line("MATCH (a)-[r:%s]->(z)\nWHERE %s", b.q(typ), joinAnd(preds))
	var total *Statement
	if a.Total {
		total = b.counted("r", slices.Clone(b.lines))
	}
	if binds != "" {
		b.line("WITH a, r, z%s", binds)
	}
	b.line("WITH %s\nORDER BY %s\nSKIP %s LIMIT %s", vars, orderList(orders), b.named("offset", int64(offset)), b.pageSize(limit))
	cols := []string{
		"type(r) AS " + ColType,
		b.relProjection("r", []string{typ}) + " AS " + ColProperties,
		an.id + " AS " + ColFrom + ColID, "labels(a) AS " + ColFrom + ColLabels, an.props + " AS " + ColFrom + ColProperties,
		zn.id + " AS " + ColTo + ColID, "labels(z) AS " + ColTo + ColLabels, zn.props + " AS " + ColTo + ColProperties,
	}
	cols = append(cols, b.sortKeyColumns(orders)...)
	b.line("RETURN %s\nORDER BY %s", strings.Join(cols, ", "), orderList(orders))
	st, err := b.statement(Shape{Kind: ShapeRelationships, Limit: limit})
	if st != nil {
		st.Total = total
	}
	return st, err
}

package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// QueryEntities finds entities by conditions on their fields and
// relationships, sorted and paged; its description carries the graph
// schema. Its exposed_tools entry narrows what every tool's conditions
// offer, so its name is tools.ConditionsControl.
const QueryEntities = tools.ConditionsControl

// maxFieldsInProjection bounds query_entities' fields.
const maxFieldsInProjection = 100

func init() {
	register(declaration[QueryEntitiesArgs]{
		Kind:  tools.Kind{Name: QueryEntities, Category: tools.CategoryQuery, Rank: 10, Generate: generateQueryEntities},
		check: checkQuery,
		plan:  (*Planner).queryEntities,
	})
}

// QueryEntitiesArgs are query_entities' arguments.
type QueryEntitiesArgs struct {
	EntityType string            `json:"entity_type"`
	Conditions []tools.Condition `json:"conditions"`
	// OrderBy is the sort, most significant key first.
	OrderBy tools.OrderByList `json:"order_by"`
	Limit   int               `json:"limit"`
	Offset  int               `json:"offset"`
	// Fields projects the result; empty means all.
	Fields []string `json:"fields"`
	// Include lists the related entities to return with each entity.
	Include []tools.Include `json:"include"`
	// Total asks for the count of every matching entity (Statement.Total).
	Total bool `json:"total"`
}

// generateQueryEntities writes the general tool: every entity, every field. Its
// description is the graph's overview, which the other tools refer to.
func generateQueryEntities(g *tools.Generator) *tools.Generated {
	offers := g.QueryOffers()
	if len(offers) == 0 {
		return nil
	}
	graph := g.Overview(offers)
	var b strings.Builder
	b.WriteString("Entities meeting conditions on fields and relationships; sorted, paged.\n\n")
	b.WriteString(graph)
	b.WriteString("\n" + g.ConditionHelp(offers))
	b.WriteString("order_by: most significant first; missing values last.")

	in := tools.Object(
		tools.EntityTypeProp(tools.OfferEntities(offers)),
		tools.Prop{Name: "conditions", Schema: tools.Ref(tools.ConditionsDef)},
		tools.OrderByProp(),
		g.LimitProp(),
		g.OffsetProp(),
		tools.Prop{Name: "fields", Schema: &tools.Schema{
			Type:        "array",
			Description: "Default: stored ones",
			Items:       &tools.Schema{Type: "string"},
		}},
	).Require("entity_type")
	if p := g.IncludeProp(); p != nil {
		in.Props = append(in.Props, *p)
	}
	in.Props = append(in.Props, tools.TotalProp())
	in.Defs = g.ConditionDefs()
	if len(g.RelationshipTypes()) > 0 {
		tools.WithAggregateTest(in.Defs)
	}
	return &tools.Generated{Description: b.String(), Input: in, Offers: offers, GraphSchema: graph}
}

// checkQuery checks decoded arguments and fills their defaults.
func checkQuery(ck *tools.Checker, a *QueryEntitiesArgs) {
	a.Limit = ck.Limit(a.Limit)
	o := ck.Entity(a.EntityType, "/entity_type")
	if o == nil {
		return
	}
	ck.Conditions(o, a.Conditions, "conditions")
	ck.OrderByAggregate(o, a.OrderBy, a.Conditions)
	if len(a.Fields) > maxFieldsInProjection {
		ck.Add("/fields", "at most %d fields", maxFieldsInProjection)
	}
	for i, f := range a.Fields {
		switch {
		case o.Field(f) == nil:
			ck.Choose(tools.Pointer("fields", i), o.FieldNames(), "%q is not a field of %s", f, o.Entity.Name)
		case slices.Index(a.Fields, f) < i:
			ck.Add(tools.Pointer("fields", i), "%s is listed twice", f)
		}
	}
	ck.Include(o.Entity.Name, a.Include)
}

// queryEntities plans query_entities:
//
//	MATCH (n:L) WHERE <stored predicates>
//	<computed fields the filter or sort needs>
//	WITH … WHERE <computed predicates>
//	WITH … ORDER BY <sort IS NULL>, <sort>, <unique field> SKIP $offset LIMIT $limit
//	<computed fields only returned>
//	RETURN id, properties, computed ORDER BY …
//
// Entities without a sort value come last in both directions. A sort on a
// stored property (or a ready materialized one) is paged by
// nullsLastFromIndex instead, so a range index on it still gives the order.
func (p *Planner) queryEntities(a *QueryEntitiesArgs, state model.State) (*Statement, error) {
	e, err := p.entity(QueryEntities, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	b, err := p.newBuilder(QueryEntities, e, state)
	if err != nil {
		return nil, err
	}
	var ps preds
	if err := b.conditions(a.Conditions, "conditions", &ps); err != nil {
		return nil, err
	}
	var total *Statement
	if a.Total {
		if total, err = b.totalOfEntities(ps); err != nil {
			return nil, err
		}
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	offset := a.Offset
	if offset < 0 {
		offset = 0
	}
	if offset > p.limits.MaxOffset {
		offset = p.limits.MaxOffset
	}
	orders, sortRefs, err := b.orderBy(a.OrderBy, &ps)
	if err != nil {
		return nil, err
	}
	pOffset, pLimit := b.named("offset", int64(offset)), b.pageSize(limit)
	if len(sortRefs) == 1 && !b.runtime(sortRefs[0]) {
		if err := b.nullsLastFromIndex(ps, b.expr(sortRefs[0]), orders[1:], pOffset, pLimit); err != nil {
			return nil, err
		}
	} else {
		b.match(ps.stored)
		if err := b.ensure(ps.refs...); err != nil {
			return nil, err
		}
		b.filterScope(ps.computed)
		b.line("WITH %s\nORDER BY %s\nSKIP %s LIMIT %s", b.carried(), orderList(orders), pOffset, pLimit)
	}

	stored, computed := b.defaultStored(), []fieldRef(nil)
	if len(a.Fields) > 0 {
		stored = nil
		for i, name := range a.Fields {
			r, err := b.field(name, "/fields/"+itoa(i))
			if err != nil {
				return nil, err
			}
			if r.c != nil {
				computed = append(computed, r)
			} else if r.f.Name != e.UniqueField {
				stored = append(stored, r)
			}
		}
	}
	// Computed fields the call filtered or sorted on answer "why was this
	// entity chosen": return them, computed or read from their property.
	for _, r := range ps.chosen {
		if !containsRef(computed, r) {
			computed = append(computed, r)
		}
	}
	related, lists, err := b.include(a.Include)
	if err != nil {
		return nil, err
	}
	b.ensureAggregates()
	var extra []string
	if col, ok := b.aggregatesColumn(); ok {
		related, extra = append(related, col), []string{ColAggregates}
	}
	if err := b.returnEntities(stored, computed, related, orders); err != nil {
		return nil, err
	}
	st, err := b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: limit, Related: lists, Extra: extra, Notes: b.nullAggregateNotes(a.OrderBy)})
	if st != nil {
		st.Total = total
	}
	return st, err
}

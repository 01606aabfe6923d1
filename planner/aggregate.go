package planner

import (
	"slices"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// aggregates maps operations to Cypher aggregating functions.
var aggregates = map[string]string{"COUNT": "count", "AVG": "avg", "SUM": "sum", "MIN": "min", "MAX": "max"}

// aggregateEntities plans aggregate_entities: the conditions as in
// query_entities, then one aggregate, per group_by value when given (groups
// with the largest value first, null groups included, at most limit). The
// aggregated field's nulls are skipped, as Cypher's aggregates do; COUNT
// without a field counts entities.
func (p *Planner) aggregateEntities(a *tools.AggregateEntitiesArgs, state State) (*Statement, error) {
	const tool = tools.AggregateEntities
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	fn, ok := aggregates[a.Operation]
	if !ok {
		return nil, callError(tool, "/operation", []string{"COUNT", "AVG", "SUM", "MIN", "MAX"}, "unknown operation %q", a.Operation)
	}
	b, err := p.newBuilder(tool, e, state)
	if err != nil {
		return nil, err
	}
	var ps preds
	if err := b.conditions(a.Conditions, "conditions", &ps); err != nil {
		return nil, err
	}
	var need []fieldRef
	arg := "n"
	var over *hop
	fieldScope := b.mainScope()
	if a.Over != nil {
		if over, err = b.related(b.mainScope(), *a.Over, "/over", 0); err != nil {
			return nil, err
		}
		arg = over.m
		if over.entity != nil {
			fieldScope = scope{v: over.m, e: over.entity, name: over.entity.Name}
		} else if a.Field != "" {
			return nil, callError(tool, "/over/entity", nil, "aggregating a field of related entities needs their entity type")
		}
	}
	if a.Field != "" {
		r, err := fieldScope.field(b, a.Field, "/field")
		if err != nil {
			return nil, err
		}
		k := r.f.Type.Kind()
		if fn != "count" && k != model.Number && !(k == model.Datetime && (fn == "min" || fn == "max")) {
			return nil, callError(tool, "/field", nil, "%s cannot aggregate %s field %s", a.Operation, r.f.Type, r.f.Name)
		}
		if r.node == "" {
			b.use(r, UseAggregate)
			need = append(need, r)
		}
		arg = b.expr(r)
		if k == model.Datetime && r.f.StoredAs == model.ISOString {
			arg = "CASE WHEN " + arg + " =~ '" + isoPattern + "' THEN datetime(" + arg + ") END"
		}
	} else if fn != "count" {
		return nil, callError(tool, "/field", nil, "%s needs a field", a.Operation)
	}
	var group *fieldRef
	if a.GroupBy != "" {
		r, err := b.field(a.GroupBy, "/group_by")
		if err != nil {
			return nil, err
		}
		b.use(r, UseGroup)
		need = append(need, r)
		group = &r
	}
	b.match(ps.stored)
	if err := b.ensure(ps.refs...); err != nil {
		return nil, err
	}
	b.filterScope(ps.computed)
	if err := b.ensure(need...); err != nil {
		return nil, err
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	shape := Shape{Kind: ShapeAggregate, Entity: e.Name, Limit: limit, Grouped: group != nil}
	groupExpr := ""
	if group != nil {
		groupExpr = b.expr(*group)
	}
	if over != nil {
		// Each related entity counts once per group, however many of the
		// matching entities (or parallel relationships) lead to it.
		b.line("MATCH %s\nWHERE %s", over.pattern, joinAnd(append(slices.Clone(over.base), over.conds...)))
		if group != nil {
			b.line("WITH DISTINCT %s AS `group`, %s", groupExpr, over.m)
			groupExpr = "`group`"
		} else {
			b.line("WITH DISTINCT %s", over.m)
		}
	}
	if group == nil {
		b.line("RETURN %s(%s) AS `value`", fn, arg)
		shape.Limit = 1
		return b.statement(shape)
	}
	if groupExpr != "`group`" {
		groupExpr += " AS `group`"
	}
	b.line("WITH %s, %s(%s) AS `value`", groupExpr, fn, arg)
	// group is a string, number or bool: ordering by it breaks ties stably.
	b.line("RETURN `group`, `value`\nORDER BY `value` DESC, `group`\nLIMIT %s", b.named("limit", int64(limit)))
	return b.statement(shape)
}

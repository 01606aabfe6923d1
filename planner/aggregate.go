package planner

import (
	"fmt"
	"slices"
	"time"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// aggregates maps operations to Cypher aggregating functions.
var aggregates = map[string]string{"COUNT": "count", "AVG": "avg", "SUM": "sum", "MIN": "min", "MAX": "max"}

// aggregateEntities plans aggregate_entities: the conditions as in
// query_entities, then one aggregate, per group when the call groups
// (groups with the largest value first, null groups included, paged by
// offset and limit). The aggregated field's nulls are skipped, as
// Cypher's aggregates do; COUNT without a field counts entities.
//
//	MATCH (n:L) WHERE <conditions>
//	[WITH n, …, <instant of the group field> AS instant]       bucket
//	[MATCH (n)-[r0:T]->(m0) WHERE <over's conditions>           over
//	 [WITH m0, <instant of r0's property> AS instant]           bucket of over.group_by
//	 WITH DISTINCT <group> AS `group`, m0]
//	WITH <group> AS `group`, fn(arg) AS `value`
//	[WHERE `value` <op> $having]
//	RETURN `group`, `value` ORDER BY `value` DESC, `group` SKIP $offset LIMIT $limit
//
// The group is a field of the entity (group_by), a property of over's
// relationship (over.group_by), or either cut into a datetime bucket.
func (p *Planner) aggregateEntities(a *tools.AggregateEntitiesArgs, state State) (*Statement, error) {
	const tool = tools.AggregateEntities
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	fn, ok := aggregates[a.Operation]
	if !ok {
		return nil, unplannable(tool, "operation", a.Operation)
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
		if over, err = b.related(b.mainScope(), a.Over.Related, "/over", 0); err != nil {
			return nil, err
		}
		arg = over.m
		if over.entity != nil {
			fieldScope = scope{v: over.m, e: over.entity, name: over.entity.Name}
		}
	}
	if a.Field != "" {
		r, err := fieldScope.field(b, a.Field, "/field")
		if err != nil {
			return nil, err
		}
		k := r.f.Type.Kind()
		if r.node == "" {
			b.use(r, UseAggregate)
			need = append(need, r)
		}
		arg = b.expr(r)
		if k == model.Datetime && r.f.StoredAs == model.ISOString {
			arg = "CASE WHEN " + arg + " =~ '" + isoPattern + "' THEN datetime(" + arg + ") END"
		}
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
	var bucket func(instant, unit string) string
	if a.Bucket != "" {
		if bucket, err = p.bucket(b, a.Bucket); err != nil {
			return nil, err
		}
	}
	b.match(ps.stored)
	if err := b.ensure(ps.refs...); err != nil {
		return nil, err
	}
	b.filterScope(ps.computed)
	if err := b.ensure(need...); err != nil {
		return nil, err
	}
	groupExpr := ""
	if group != nil {
		groupExpr = b.expr(*group)
		if bucket != nil {
			if groupExpr, err = b.instant(b.carried(), *group, "/group_by", bucket); err != nil {
				return nil, err
			}
		}
	}
	if over != nil {
		// Each related entity counts once per group, however many of the
		// matching entities (or parallel relationships) lead to it.
		b.line("MATCH %s\nWHERE %s", over.pattern, joinAnd(append(slices.Clone(over.base), over.conds...)))
		if a.Over.GroupBy != "" {
			if group != nil {
				return nil, unplannable(tool, "group_by with over.group_by", a.Over.GroupBy)
			}
			rs := scope{v: over.r, rel: relFields(p.m, a.Over.Via), name: a.Over.Via}
			r, err := rs.field(b, a.Over.GroupBy, "/over/group_by")
			if err != nil {
				return nil, err
			}
			group = &r
			groupExpr = b.expr(r)
			if bucket != nil {
				if groupExpr, err = b.instant(over.m, r, "/over/group_by", bucket); err != nil {
					return nil, err
				}
			}
		}
		if group != nil {
			b.line("WITH DISTINCT %s AS `group`, %s", groupExpr, over.m)
			groupExpr = "`group`"
		} else {
			b.line("WITH DISTINCT %s", over.m)
		}
	}
	if group == nil {
		if a.Bucket != "" || a.Having != nil {
			return nil, unplannable(tool, "bucket or having without a group", a.Bucket)
		}
		b.line("RETURN %s(%s) AS `value`", fn, arg)
		return b.statement(Shape{Kind: ShapeAggregate, Entity: e.Name, Limit: 1})
	}
	if groupExpr != "`group`" {
		groupExpr += " AS `group`"
	}
	b.line("WITH %s, %s(%s) AS `value`", groupExpr, fn, arg)
	if h := a.Having; h != nil {
		op, ok := condOps[h.Operator]
		if !ok || !slices.Contains(tools.HavingOperators, h.Operator) {
			return nil, unplannable(tool, "having operator", h.Operator)
		}
		b.line("WHERE `value` %s %s", op, b.named("having", h.Value))
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxGroups)
	offset := min(max(a.Offset, 0), p.limits.MaxOffset)
	// group is a string, number or bool: ordering by it breaks ties stably.
	b.line("RETURN `group`, `value`\nORDER BY `value` DESC, `group`\nSKIP %s LIMIT %s", b.named("offset", int64(offset)), b.named("limit", int64(limit)))
	shape := Shape{Kind: ShapeAggregate, Entity: e.Name, Limit: limit, Grouped: true, SortKeys: []SortKey{{Name: "value", Column: "value"}}}
	if z := zoneName(p.loc); bucket != nil && z != "+00:00" {
		shape.Notes = []string{"datetime buckets are in zone " + zoneLabel(p.loc)}
	}
	return b.statement(shape)
}

// instant emits the clause that reads datetime field r as an instant,
// carrying vars, and returns the bucket label of that instant, which is
// the instant timeSide compares. The value gets a variable of its own, so
// the property is read once and the label's null guard does not repeat
// it. An epoch number or an ISO string becomes epoch units (toInteger
// makes a fractional epoch number, seconds written by a script, a valid
// datetime() argument); a temporal value is zoned as timeSide reads it
// (a DATETIME as it is, a LOCAL DATETIME in UTC, a DATE at its midnight
// UTC) and converted to the bucket's zone directly, with no
// epoch round trip, which costs a bucket on every entity twice the time.
func (b *builder) instant(vars string, r fieldRef, at string, bucket func(instant, unit string) string) (string, error) {
	if r.f.Type.Kind() != model.Datetime {
		return "", unplannable(b.tool, "a bucket on the "+string(r.f.Type)+" field", r.f.Name)
	}
	const v = "`instant`"
	if epoch(r.f) || r.f.StoredAs == model.ISOString {
		b.line("WITH %s, toInteger(%s) AS %s", vars, b.timeSide(r), v)
		unit := "epochMillis"
		if r.f.StoredAs == model.EpochSeconds {
			unit = "epochSeconds"
		}
		return "CASE WHEN " + v + " IS NOT NULL THEN " + bucket(v, unit) + " END", nil
	}
	b.line("WITH %s, %s AS %s", vars, b.expr(r), v)
	zoned := "CASE WHEN " + v + " IS :: ZONED DATETIME THEN " + v + " WHEN " + v + " IS :: DATE THEN datetime({date: " + v + ", timezone: 'Z'}) ELSE datetime({datetime: " + v + ", timezone: 'Z'}) END"
	return "CASE WHEN " + v + " IS NOT NULL THEN " + bucket(zoned, "datetime") + " END", nil
}

// bucketLabels render a bucket's label from a zoned DATETIME t: readable
// strings that sort in time order (the weekday's name aside), in the form
// of ISO-8601 truncated to the bucket (toString of a DATE is YYYY-MM-DD,
// of a LOCAL DATETIME YYYY-MM-DDTHH:MM…). Weekdays are named, Monday
// first, as dayOfWeek counts them (ISO: Monday is 1). A day is the part
// of t's ISO form before its T, which is toString(date(t)) without
// building a DATE per entity (each temporal value built is a db hit and
// most of a bucket's time).
var bucketLabels = map[string]func(t string) string{
	tools.BucketHour:    func(t string) string { return "left(toString(localdatetime.truncate('hour', " + t + ")), 13)" },
	tools.BucketDay:     func(t string) string { return "split(toString(" + t + "), 'T')[0]" },
	tools.BucketWeekday: func(t string) string { return weekdays + "[" + t + ".dayOfWeek - 1]" },
	tools.BucketMonth:   func(t string) string { return "left(split(toString(" + t + "), 'T')[0], 7)" },
	tools.BucketYear:    func(t string) string { return "toString(" + t + ".year)" },
}

const weekdays = "['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']"

// bucket returns the renderer of a bucket's label from an instant (unit
// is the datetime() key that reads it: epochMillis, epochSeconds, or
// datetime for a zoned DATETIME), read in the planner's zone, or an error when that zone cannot be named to Neo4j.
func (p *Planner) bucket(b *builder, name string) (func(instant, unit string) string, error) {
	label, ok := bucketLabels[name]
	if !ok {
		return nil, unplannable(b.tool, "bucket", name)
	}
	zone := zoneName(p.loc)
	if zone == "" {
		return nil, fmt.Errorf("planner: %s: datetime buckets need a zone Neo4j knows; Options.Location %q has no IANA name and a varying offset (load it with time.LoadLocation)", b.tool, p.loc)
	}
	return func(instant, unit string) string {
		return label("datetime({" + unit + ": " + instant + ", timezone: " + b.named("zone", zone) + "})")
	}, nil
}

// zoneName is loc as Neo4j's timezone argument takes it: a fixed offset
// (+HH:MM) when loc's offset never changed since 1970 — which also covers
// time.FixedZone, whose name means nothing to Neo4j — else loc's IANA
// name, or "" when loc has none (time.Local without a named zone).
func zoneName(loc *time.Location) string {
	_, off := time.Date(1970, 1, 1, 0, 0, 0, 0, loc).Zone()
	fixed := true
	for y := 1970; y <= 2040 && fixed; y++ {
		for _, m := range []time.Month{time.January, time.July} {
			if _, o := time.Date(y, m, 1, 0, 0, 0, 0, loc).Zone(); o != off {
				fixed = false
			}
		}
	}
	if fixed {
		sign := '+'
		if off < 0 {
			sign, off = '-', -off
		}
		return fmt.Sprintf("%c%02d:%02d", sign, off/3600, off/60%60)
	}
	if name := loc.String(); name != "Local" {
		if _, err := time.LoadLocation(name); err == nil {
			return name
		}
	}
	return ""
}

// zoneLabel names the zone for a note: its name, and the Neo4j zone when
// that differs (a fixed offset).
func zoneLabel(loc *time.Location) string {
	z := zoneName(loc)
	if n := loc.String(); n != "" && n != z {
		return n + " (" + z + ")"
	}
	return z
}

package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// AggregateEntities computes COUNT, AVG, SUM, MIN or MAX, optionally per group.
const AggregateEntities = "aggregate_entities"

// operations are the operations.
var operations = []string{"COUNT", "AVG", "SUM", "MIN", "MAX"}

func init() {
	register(declaration[AggregateEntitiesArgs]{
		Kind:  tools.Kind{Name: AggregateEntities, Category: tools.CategoryAnalytics, Rank: 120, Offered: func(o tools.Options) bool { return o.Aggregations }, Generate: generateAggregateEntities},
		check: checkAggregate,
		plan:  (*Planner).aggregateEntities,
	})
}

// AggregateEntitiesArgs are aggregate_entities' arguments. The groups come
// from GroupBy (a field of the entity) or tools.Over.GroupBy (a property of
// the relationship), at most one of them; a datetime one may be cut into
// Bucket. tools.Having keeps the groups whose value passes it; Offset and
// Limit page the groups, largest value first.
type AggregateEntitiesArgs struct {
	EntityType string `json:"entity_type"`
	Operation  string `json:"operation"`
	Field      string `json:"field"`
	GroupBy    string `json:"group_by"`
	// GroupFields names the fields that show each group when group_by is
	// the unique field (one entity a group); default: its display fields.
	GroupFields []string `json:"group_fields"`
	// Total asks a grouped aggregate for the count over every group
	// (Statement.Total).
	Total      bool              `json:"total"`
	Bucket     string            `json:"bucket"`
	Conditions []tools.Condition `json:"conditions"`
	// Over, when set, aggregates Field of the related entities it names
	// (each counted once per group) instead of the entities themselves.
	Over *tools.Over `json:"over"`
	// Size aggregates the size of a list field (the number of its
	// elements: "the actors with the most roles") instead of its value.
	Size   bool          `json:"size"`
	Having *tools.Having `json:"having"`
	Limit  int           `json:"limit"`
	Offset int           `json:"offset"`
}

// generateAggregateEntities writes the tool that computes COUNT, AVG, SUM,
// MIN, MAX, optionally per group: a field's values, a datetime field's
// buckets, or a property of the relationship over follows.
func generateAggregateEntities(g *tools.Generator) *tools.Generated {
	var offers []*tools.EntityOffer
	for _, o := range g.QueryOffers() {
		if !tools.Enabled(o.Entity, AggregateEntities) {
			continue
		}
		offers = append(offers, o)
	}
	if len(offers) == 0 {
		return nil
	}
	l := g.Limits()
	var b strings.Builder
	b.WriteString("Compute COUNT, AVG, SUM, MIN or MAX of field (a number field, or with size: true a list field's size; MIN and MAX also datetime; none for COUNT) over the entities meeting conditions (query_entities'), optionally per value of the group_by field (groups largest first; page with offset). bucket groups a datetime group_by by hour (2024-05-01T13), day (2024-05-01), weekday (Monday), month (2024-05) or year (2024), in UTC unless noted. having {operator, value} keeps the groups whose result passes it. Each group has count (values aggregated: entities, or field's non-null values).")
	props := []tools.Prop{
		tools.EntityTypeProp(tools.OfferEntities(offers)),
		{Name: "operation", Schema: &tools.Schema{Type: "string", Enum: operations}},
		tools.FieldProp("field"),
		{Name: "size", Schema: &tools.Schema{Type: "boolean"}},
		tools.FieldProp("group_by"),
		{Name: "group_fields", Schema: &tools.Schema{Type: "array", Items: &tools.Schema{Type: "string"}, Description: "With group_by the unique field: fields shown per group (display)"}},
		{Name: "bucket", Schema: &tools.Schema{Type: "string", Enum: tools.Buckets}},
		tools.Prop{Name: "conditions", Schema: tools.Ref(tools.ConditionsDef)},
	}
	if len(g.RelationshipTypes()) > 0 {
		b.WriteString(" over {via, direction, entity, conditions, relationship_conditions}, as in a relationship test, aggregates the entities related to the matching ones instead, each counted once per group (field is then a stored field of over.entity; e.g. AVG of Movie.released over the movies a Person acted in); over.group_by groups by a property of that relationship instead of group_by; over.field aggregates a property of it (stored or computed, each relationship once) instead of field.")
		over := tools.Object(append(g.RelatedProps(), tools.FieldProp("group_by"), tools.FieldProp("field"))...).Require("via")
		props = append(props, tools.Prop{Name: "over", Schema: over})
	}
	having := tools.Object(
		tools.Prop{Name: "operator", Schema: &tools.Schema{Type: "string", Enum: tools.HavingOperators}},
		tools.Prop{Name: "value", Schema: &tools.Schema{Type: "number"}},
	).Require("operator", "value")
	props = append(props, tools.Prop{Name: "having", Schema: having}, g.LimitUpTo(l.MaxGroups), g.OffsetProp(), tools.TotalProp())
	in := tools.Object(props...).Require("entity_type", "operation")
	in.Defs = g.ConditionDefs()
	return &tools.Generated{Description: b.String(), Input: in, Offers: offers}
}

// checkAggregate checks decoded arguments and fills their defaults.
func checkAggregate(ck *tools.Checker, a *AggregateEntitiesArgs) {
	a.Limit = ck.Limit(a.Limit)
	o := ck.Entity(a.EntityType, "/entity_type")
	if o == nil {
		return
	}
	ck.Conditions(o, a.Conditions, "conditions")
	// group is the field whose values form the groups, and at its path.
	var group *tools.FieldOffer
	var groups *tools.EntityOffer
	at := "/group_by"
	if a.GroupBy != "" {
		if group = o.Field(a.GroupBy); group == nil {
			ck.Choose(at, o.FieldNames(), "%q is not a field of %s", a.GroupBy, o.Entity.Name)
		}
		groups = o
	}
	if a.Over != nil {
		if !ck.Related(o.Entity.Name, &a.Over.Related, "/over") {
			return
		}
		if g := a.Over.GroupBy; g != "" {
			ro := ck.RelationshipOffer(o.Entity.Name, a.Over.Via)
			switch {
			case a.GroupBy != "":
				ck.Add("/over/group_by", "give group_by (a field of %s) or over.group_by (a property of %s), not both", o.Entity.Name, a.Over.Via)
				return
			case ro.Field(g) == nil:
				ck.Choose("/over/group_by", ro.FieldNames(), "%q is not a property of %s", g, a.Over.Via)
				return
			}
			group, groups, at = ro.Field(g), ro, "/over/group_by"
		}
	}
	checkGroups(ck, a, group, groups, at)
	checkGroupFields(ck, a, o)
	if a.Over != nil && a.Over.Field != "" {
		checkOverField(ck, a, ck.RelationshipOffer(o.Entity.Name, a.Over.Via))
		return
	}
	if a.Over != nil {
		if a.Over.Entity == "" {
			if a.Field != "" || a.Operation != "COUNT" {
				ck.Add("/over/entity", "aggregating a field of related entities needs their entity type")
			}
			return
		}
		if o = ck.RelatedOffer(a.Over.Entity, "/over/entity"); o == nil {
			return
		}
	}
	checkField(ck, a, o, a.Field, "/field")
}

// checkGroupFields checks group_fields: fields of the entity, shown beside
// groups that are entities, so group_by must be its unique field.
func checkGroupFields(ck *tools.Checker, a *AggregateEntitiesArgs, o *tools.EntityOffer) {
	if len(a.GroupFields) == 0 {
		return
	}
	if u := o.Entity.UniqueField; a.GroupBy != u || a.Bucket != "" {
		ck.Add("/group_fields", "group_fields shows the entity of each group: give group_by %q (%s's unique field), without bucket", u, o.Entity.Name)
		return
	}
	var stored []string
	for _, f := range o.Fields {
		if f.Computed == nil {
			stored = append(stored, f.Field.Name)
		}
	}
	for i, f := range a.GroupFields {
		if !slices.Contains(stored, f) {
			ck.Choose(tools.Pointer("group_fields", i), stored, "%q is not a stored field of %s", f, o.Entity.Name)
		}
	}
}

// checkOverField checks over.field, a property of the relationship ro
// over follows, which takes the place of field.
func checkOverField(ck *tools.Checker, a *AggregateEntitiesArgs, ro *tools.EntityOffer) {
	if a.Field != "" {
		ck.Add("/over/field", "give field (of the entities) or over.field (a property of %s), not both", a.Over.Via)
		return
	}
	checkField(ck, a, ro, a.Over.Field, "/over/field")
}

// checkField checks the aggregated field name of offer o, at pointer at:
// any field for COUNT, a number for the others, or for MIN and MAX a
// datetime; with size, a list (whose size is aggregated). A list is never
// aggregated without size: SUM of an integer list could mean its elements.
func checkField(ck *tools.Checker, a *AggregateEntitiesArgs, o *tools.EntityOffer, name, at string) {
	f := o.Field(name)
	isList := f != nil && f.Field.Type.Kind() == model.List
	switch {
	case a.Size && a.Operation == "COUNT":
		ck.Add("/size", "size applies to SUM, AVG, MIN and MAX (COUNT counts the entities or values)")
		return
	case a.Size && f != nil && !isList:
		ck.Add("/size", "size aggregates a list field's size; %s is declared %s", name, f.Field.Type)
		return
	case !a.Size && isList && a.Operation != "COUNT":
		ck.Add(at, "%s is declared %s: give size: true to aggregate its size (the number of elements)", name, f.Field.Type)
		return
	}
	if a.Operation == "COUNT" {
		if name != "" && f == nil {
			ck.Choose(at, o.FieldNames(), "%q is not a field of %s", name, o.Entity.Name)
		}
		return
	}
	kinds := []model.Type{model.Number}
	if a.Size {
		kinds = []model.Type{model.List}
	}
	if (a.Operation == "MIN" || a.Operation == "MAX") && !a.Size {
		kinds = append(kinds, model.Datetime)
	}
	var valid []string
	for _, f := range o.Fields {
		if slices.Contains(kinds, f.Field.Type.Kind()) {
			valid = append(valid, f.Field.Name)
		}
	}
	if name == "" {
		ck.Choose(at, valid, "%s needs a field", a.Operation)
		return
	}
	if !slices.Contains(valid, name) {
		ck.Choose(at, valid, "%s cannot aggregate %q of %s", a.Operation, name, o.Entity.Name)
		return
	}
	if f := o.Field(name); a.Having != nil && f != nil && f.Field.Type.Kind() == model.Datetime {
		ck.Add("/having", "having compares a number; %s of datetime field %s is a datetime", a.Operation, name)
	}
}

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
//	WITH <group> AS `group`, fn(arg) AS `value`, count(arg) AS `count`
//	[WHERE `value` <op> $having]
//	RETURN `group`, `value`, `count` ORDER BY `value` DESC, `group` SKIP $offset LIMIT $limit
//
// The group is a field of the entity (group_by), a property of over's
// relationship (over.group_by), or either cut into a datetime bucket.
func (p *Planner) aggregateEntities(a *AggregateEntitiesArgs, state model.State) (*Statement, error) {
	const tool = AggregateEntities
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
	var over *hop
	fieldScope := b.mainScope()
	field, fieldAt := a.Field, "/field"
	if a.Over != nil {
		if over, err = b.related(b.mainScope(), a.Over.Related, "/over", 0, false); err != nil {
			return nil, err
		}
		if over.entity != nil {
			fieldScope = scope{v: over.m, e: over.entity, name: over.entity.Name}
		}
		if a.Over.Field != "" {
			if a.Field != "" {
				return nil, unplannable(tool, "field with over.field", a.Over.Field)
			}
			fieldScope = p.relScope(over.r, a.Over.Via)
			field, fieldAt = a.Over.Field, "/over/field"
		}
	}
	arg, need, err := aggregated(b, field, fieldAt, a.Size, fieldScope, over)
	if err != nil {
		return nil, err
	}
	var group *fieldRef
	if a.GroupBy != "" {
		r, err := b.field(a.GroupBy, "/group_by")
		if err != nil {
			return nil, err
		}
		b.use(r, model.UseGroup)
		need = append(need, r)
		group = &r
	}
	var bucket *bucketing
	if a.Bucket != "" {
		if bucket, err = p.bucket(b, a.Bucket); err != nil {
			return nil, err
		}
	}
	// A group that is one entity (group_by its unique field) is named by
	// the entity's display fields, not only its id.
	display := ""
	if group != nil && group.c == nil && group.f.Name == e.UniqueField && bucket == nil {
		if display, err = b.displayOf(e, a.GroupFields); err != nil {
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
		if group, groupExpr, display, err = p.distinctOver(b, a.Over, over, group, groupExpr, display, bucket); err != nil {
			return nil, err
		}
	}
	if group == nil {
		if a.Bucket != "" || a.Having != nil {
			return nil, unplannable(tool, "bucket or having without a group", a.Bucket)
		}
		b.line("RETURN %s(%s) AS `value`, count(%s) AS `count`", fn, arg, arg)
		return b.statement(Shape{Kind: ShapeAggregate, Entity: e.Name, Limit: 1})
	}
	return p.groups(b, a, e, aggregation{fn + "(" + arg + ")", "count(" + arg + ")", display}, groupExpr, bucket)
}

// aggregated is what the operation applies to: the entity itself (n),
// or the related one of over, or the field of either (a datetime stored
// as text read as a datetime), with the stored fields it needs.
func aggregated(b *builder, field, at string, size bool, fieldScope scope, over *hop) (arg string, need []fieldRef, err error) {
	arg = "n"
	if over != nil {
		arg = over.m
	}
	if field == "" {
		return arg, nil, nil
	}
	r, err := fieldScope.field(b, field, at)
	if err != nil {
		return "", nil, err
	}
	k := r.f.Type.Kind()
	if r.node == "" {
		b.use(r, model.UseAggregate)
		need = append(need, r)
	}
	arg = b.expr(r)
	if k == model.Datetime && r.f.StoredAs == model.ISOString {
		arg = "CASE WHEN " + arg + " =~ '" + isoPattern + "' THEN datetime(" + arg + ") END"
	}
	if r.f.DatetimeText() {
		arg = textDatetime(r.f, arg)
	}
	if size {
		if k != model.List {
			return "", nil, unplannable(AggregateEntities, "size of a field that is not a list", field)
		}
		// A value that is not a list (a string's size would be its
		// length) counts as missing.
		arg = "CASE WHEN " + arg + " IS :: LIST<ANY> THEN size(" + arg + ") END"
	}
	return arg, need, nil
}

// distinctOver matches the related entities of over and keeps each once
// per group, however many of the matching entities (or parallel
// relationships) lead to it; over.group_by groups by a property of the
// relationship instead of group_by. It returns the group, its expression
// and that of its display fields (display, over n, which it keeps).
func (p *Planner) distinctOver(b *builder, o *tools.Over, over *hop, group *fieldRef, groupExpr, display string, bucket *bucketing) (*fieldRef, string, string, error) {
	b.line("MATCH %s\nWHERE %s", over.pattern, joinAnd(append(slices.Clone(over.base), over.conds...)))
	if o.GroupBy != "" {
		if group != nil {
			return nil, "", "", unplannable(AggregateEntities, "group_by with over.group_by", o.GroupBy)
		}
		rs := p.relScope(over.r, o.Via)
		r, err := rs.field(b, o.GroupBy, "/over/group_by")
		if err != nil {
			return nil, "", "", err
		}
		group = &r
		groupExpr = b.expr(r)
		if bucket != nil {
			if groupExpr, err = b.instant(over.m, r, "/over/group_by", bucket); err != nil {
				return nil, "", "", err
			}
		}
	}
	// Each related entity counts once per group, however many of the
	// matching entities (or parallel relationships) lead to it; each
	// relationship once when over.field aggregates its property.
	each := over.m
	if o.Field != "" {
		each = over.r
	}
	if group == nil {
		b.line("WITH DISTINCT %s", each)
		return nil, groupExpr, "", nil
	}
	if display != "" {
		// n, not its display map, rides through DISTINCT: a node is
		// one id per row, a map a copy of its fields.
		b.line("WITH DISTINCT %s AS `group`, n, %s", groupExpr, each)
		return group, "`group`", display, nil
	}
	b.line("WITH DISTINCT %s AS `group`, %s", groupExpr, each)
	return group, "`group`", "", nil
}

// aggregation is what a grouped aggregate computes per group: the value,
// the count of values aggregated, and the expression of the group's
// display fields ("" when the group is no entity).
type aggregation struct{ value, count, display string }

// displayOf projects from n the stored fields names (group_fields), or
// by default e's display fields (model.DisplayFields); "" when there are
// none.
func (b *builder) displayOf(e *model.Entity, names []string) (string, error) {
	if len(names) == 0 {
		names = b.p.m.DisplayFields(e)
	}
	var fields []string
	for i, name := range names {
		r, err := b.field(name, tools.Pointer("group_fields", i))
		if err != nil {
			return "", err
		}
		if r.c != nil {
			return "", unplannable(AggregateEntities, "computed group_fields", name)
		}
		b.use(r, model.UseProject)
		fields = append(fields, b.q(name)+": "+b.expr(r))
	}
	if len(fields) == 0 {
		return "", nil
	}
	return "n {" + strings.Join(fields, ", ") + "}", nil
}

// groups writes the grouped aggregate: the value and count per group, the
// groups having kept, bucket labels, and the page of groups by value,
// largest first; with total, the statement of the count over every group
// (before having and paging, so the page says what share of the whole it
// shows). count is count(arg): the entities (or relationships) of the
// group, or the non-null values of the aggregated field, the ones AVG,
// SUM, MIN and MAX read.
func (p *Planner) groups(b *builder, a *AggregateEntitiesArgs, e *model.Entity, ag aggregation, groupExpr string, bucket *bucketing) (*Statement, error) {
	if groupExpr != "`group`" {
		groupExpr += " AS `group`"
	}
	// The total is the rows so far counted as the groups count them, in
	// a statement of its own: counting them in this one would hold every
	// group at once, where ranking them keeps only the page.
	var total *Statement
	if a.Total {
		total = &Statement{Cypher: strings.Join(append(slices.Clone(b.lines), "RETURN "+ag.count+" AS "+ColTotal), "\n"), Params: b.params}
	}
	// A group that is one entity keeps its node n as a second key (the
	// same for each row of the group, it splits none), and projects its
	// display fields for the page's groups only.
	keep := ""
	if ag.display != "" {
		keep = ", n"
	}
	b.line("WITH %s%s, %s AS `value`, %s AS `count`", groupExpr, keep, ag.value, ag.count)
	if h := a.Having; h != nil {
		op, ok := condOps[h.Operator]
		if !ok || !slices.Contains(tools.HavingOperators, h.Operator) {
			return nil, unplannable(AggregateEntities, "having operator", h.Operator)
		}
		b.line("WHERE `value` %s %s", op, b.named("having", h.Value))
	}
	if bucket != nil && bucket.label != nil {
		b.line("WITH %s AS `group`, `value`, `count`", bucket.label("`group`"))
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxGroups)
	offset := min(max(a.Offset, 0), p.limits.MaxOffset)
	// group is a string, number or bool: ordering by it breaks ties stably.
	ret := "`group`, `value`, `count`"
	if ag.display != "" {
		ret += ", " + ag.display + " AS " + ColDisplay
	}
	b.line("RETURN %s\nORDER BY `value` DESC, `group`\nSKIP %s LIMIT %s", ret, b.named("offset", int64(offset)), b.pageSize(limit))
	shape := Shape{Kind: ShapeAggregate, Entity: e.Name, Limit: limit, Grouped: true, SortKeys: []SortKey{{Name: "value", Column: "value"}}}
	if z := zoneName(p.loc); bucket != nil && z != "+00:00" {
		shape.Notes = []string{"datetime buckets are in zone " + zoneLabel(p.loc)}
	}
	st, err := b.statement(shape)
	if st != nil {
		st.Total = total
	}
	return st, err
}

// checkGroups checks what shapes the groups of an aggregate: bucket (a
// datetime group field, at pointer at, of offer groups), having and
// offset, which all need groups. group is nil when the call has none (or
// names an unknown field, already reported).
func checkGroups(ck *tools.Checker, a *AggregateEntitiesArgs, group *tools.FieldOffer, groups *tools.EntityOffer, at string) {
	grouped := a.GroupBy != "" || a.Over != nil && a.Over.GroupBy != ""
	if group != nil && group.Field.Type.Kind() == model.List {
		// A group per whole list ([a, b] apart from [b, a]) is not the
		// group per element an agent means.
		ck.Add(at, "%s is a %s field: groups would be whole lists, not elements; count the entities whose %s CONTAINS each value instead", group.Field.Name, group.Field.Type, group.Field.Name)
	}
	if a.Bucket != "" {
		var datetimes []string
		if groups != nil {
			for _, f := range groups.Fields {
				if f.Field.Type.Kind() == model.Datetime {
					datetimes = append(datetimes, f.Field.Name)
				}
			}
		}
		switch {
		case !slices.Contains(tools.Buckets, a.Bucket):
			ck.Choose("/bucket", tools.Buckets, "%q is not a bucket", a.Bucket)
		case !grouped:
			ck.Add("/bucket", "bucket cuts the datetime values of group_by (or over.group_by) into %s; give one", strings.Join(tools.Buckets, ", "))
		case group != nil && group.Field.Type.Kind() != model.Datetime:
			ck.Choose(at, datetimes, "bucket applies to a datetime field; %s is a %s field", group.Field.Name, group.Field.Type)
		}
	}
	if a.Having != nil {
		switch {
		case !slices.Contains(tools.HavingOperators, a.Having.Operator):
			ck.Choose("/having/operator", tools.HavingOperators, "unknown having operator %q", a.Having.Operator)
		case !grouped:
			ck.Add("/having", "having keeps the groups whose value passes it; give group_by (without groups there is one value)")
		}
	}
	if a.Offset > 0 && !grouped {
		ck.Add("/offset", "offset pages groups; give group_by (without groups there is one value)")
	}
}

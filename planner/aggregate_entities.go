package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// AggregateEntities computes COUNT, AVG, SUM, MIN or MAX, optionally per group.
const AggregateEntities = "aggregate_entities"

// operations are the operations. COUNT_DISTINCT counts the distinct
// non-null values of field.
var operations = []string{"COUNT", countDistinct, "AVG", "SUM", "MIN", "MAX"}

const countDistinct = "COUNT_DISTINCT"

func init() {
	register(declaration[AggregateEntitiesArgs]{
		Kind: tools.Kind{Name: AggregateEntities, Category: tools.CategoryAnalytics, Rank: 120, Offered: func(o tools.Options) bool { return o.Aggregations },
			Generate: generateAggregateEntities, Rewrite: overHopIntoPath, CapNote: pathCapNote},
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
	b.WriteString("Compute COUNT, COUNT_DISTINCT (field's distinct values), AVG, SUM, MIN or MAX of field (a number field, or with size: true a list field's size; MIN and MAX also datetime; none for COUNT) over the entities meeting conditions (query_entities'), optionally per value of the group_by field (groups largest first; page with offset). bucket groups a datetime group_by by hour (2024-05-01T13), day (2024-05-01), weekday (Monday), month (2024-05) or year (2024), in UTC unless noted. having {operator, value} keeps the groups whose result passes it. Each group has count (values aggregated: entities, or field's non-null values).")
	props := []tools.Prop{
		tools.EntityTypeProp(tools.OfferEntities(offers)),
		{Name: "operation", Schema: &tools.Schema{Type: "string", Enum: operations}},
		tools.FieldProp("field"),
		{Name: "size", Schema: &tools.Schema{Type: "boolean"}},
		tools.FieldProp("group_by"),
		{Name: "group_fields", Schema: &tools.Schema{Type: "array", Items: &tools.Schema{Type: "string"}, Description: "With a group by a unique field (group_by or over.group_by_related): its fields shown per group (display)"}},
		{Name: "bucket", Schema: &tools.Schema{Type: "string", Enum: tools.Buckets}},
		tools.Prop{Name: "conditions", Schema: tools.Ref(tools.ConditionsDef)},
	}
	if len(g.RelationshipTypes()) > 0 {
		b.WriteString(fmt.Sprintf(" over.path: up to %d hops {via, direction, entity, conditions, relationship_conditions}, each from the previous hop's entity (Supplier-SUPPLIES->Product<-ORDERS-Order<-PURCHASED-Customer), aggregates the far-end entities instead, each once per group; field is then theirs (AVG of Movie.released over the movies a Person acted in). over.each: relationship counts the last hop's relationships (lines) instead; over.field aggregates a property of it, over.group_by groups by one, over.group_by_related by a far-end field (its unique field shows the entity).", l.MaxDepth))
		hop := tools.Object(g.RelatedProps()...).Require("via")
		over := tools.Object(
			tools.Prop{Name: "path", Schema: &tools.Schema{Type: "array", Items: hop}},
			tools.FieldProp("group_by"), tools.FieldProp("group_by_related"), tools.FieldProp("field"),
			tools.Prop{Name: "each", Schema: &tools.Schema{Type: "string", Enum: tools.Eaches}}).Require("path")
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
	// group is the field whose values form the groups, of offer groups,
	// at its path.
	var group *tools.FieldOffer
	var groups *tools.EntityOffer
	at := "/group_by"
	if a.GroupBy != "" {
		if group = o.Field(a.GroupBy); group == nil {
			ck.Choose(at, o.FieldNames(), "%q is not a field of %s", a.GroupBy, o.Entity.Name)
		}
		groups = o
	}
	// far is the entity type over's last hop reaches ("" when it may be
	// several), rel the properties of its relationship.
	far := ""
	var rel *tools.EntityOffer
	if a.Over != nil {
		var ok bool
		if far, rel, ok = checkOver(ck, o, a.Over); !ok {
			return
		}
		if n := len(slices.DeleteFunc([]string{a.GroupBy, a.Over.GroupBy, a.Over.GroupByRelated}, func(s string) bool { return s == "" })); n > 1 {
			at := "/over/group_by_related"
			if a.Over.GroupBy != "" {
				at = "/over/group_by"
			}
			ck.Add(at, "give one of group_by (a field of %s), over.group_by (a property of %s) and over.group_by_related (a field of the related entities)", o.Entity.Name, rel.Entity.Name)
			return
		}
		switch g := a.Over.GroupBy; {
		case g != "" && rel.Field(g) == nil:
			ck.Choose("/over/group_by", rel.FieldNames(), "%q is not a property of %s", g, rel.Entity.Name)
			return
		case g != "":
			group, groups, at = rel.Field(g), rel, "/over/group_by"
		}
		if g := a.Over.GroupByRelated; g != "" {
			at = "/over/group_by_related"
			if groups = relatedOffer(ck, far, at); groups == nil {
				return
			}
			if group = groups.Field(g); group == nil {
				ck.Choose(at, groups.FieldNames(), "%q is not a field of %s", g, far)
				return
			}
		}
	}
	checkGroups(ck, a, group, groups, at)
	if groups == nil || groups == rel {
		groups = o
	}
	checkGroupFields(ck, a, groups, group)
	if a.Over != nil && a.Over.Field != "" {
		checkOverField(ck, a, rel)
		return
	}
	if a.Over != nil {
		if far == "" {
			if a.Field != "" || a.Operation != "COUNT" {
				ck.Add("/over/entity", "aggregating a field of related entities needs their entity type")
			}
			return
		}
		if o = ck.RelatedOffer(far, "/over/entity"); o == nil {
			return
		}
	}
	checkField(ck, a, o, a.Field, "/field")
}

// relatedOffer is what an aggregate may read of related entity type
// entity (tools.Checker.RelatedOffer); nil when entity is "" (the
// hop may reach several types).
func relatedOffer(ck *tools.Checker, entity, at string) *tools.EntityOffer {
	if entity == "" {
		ck.Add(at, "a field of the related entities needs their entity type (the entity of over's last hop)")
		return nil
	}
	return ck.RelatedOffer(entity, at)
}

// checkOver checks over's hops from offer o (its own hop or path, at most
// Limits.MaxDepth of them, each but the last naming its entity) and each.
// It returns the entity type of the last hop ("" when it may reach
// several) and its relationship's properties; ok is false when a hop is
// wrong.
func checkOver(ck *tools.Checker, o *tools.EntityOffer, ov *tools.Over) (far string, rel *tools.EntityOffer, ok bool) {
	own := ov.Via != "" || ov.Direction != "" || ov.Entity != "" || len(ov.Conditions) > 0 || len(ov.RelationshipConditions) > 0
	switch max := ck.Limits().MaxDepth; {
	case len(ov.Path) > 0 && own:
		ck.Add("/over/path", "give over's own hop (via, direction, entity, conditions, relationship_conditions) or over.path (a list of hops), not both")
		return "", nil, false
	case len(ov.Path) == 0 && ov.Via == "":
		ck.Choose("/over/via", ck.TypesOf(o.Entity.Name), "over needs via (one hop) or path (a list of hops)")
		return "", nil, false
	case len(ov.Path) > max:
		ck.Add("/over/path", "over.path has %d hops; at most %d (the traversal depth bound): start from an entity nearer the far end", len(ov.Path), max)
		return "", nil, false
	}
	far = o.Entity.Name
	steps := ov.Steps()
	for i, s := range steps {
		at := "/over"
		if len(ov.Path) > 0 {
			at = tools.Pointer("over", "path", i)
		}
		if !ck.Related(far, s, at) {
			return "", nil, false
		}
		if s.Entity == "" && i < len(steps)-1 {
			ck.Choose(at+"/entity", ck.Reachable([]string{far}, []string{s.Via}, s.Direction, 1), "a hop another hop follows needs its entity")
			return "", nil, false
		}
		rel = ck.RelationshipOffer(far, s.Via)
		far = s.Entity
	}
	if ov.Each == "" {
		ov.Each = tools.EachEntity
		if ov.Field != "" {
			ov.Each = tools.EachRelationship
		}
	}
	switch {
	case !slices.Contains(tools.Eaches, ov.Each):
		ck.Choose("/over/each", tools.Eaches, "%q is not what an aggregate over related entities counts", ov.Each)
		return "", nil, false
	case ov.Field != "" && ov.Each != tools.EachRelationship:
		ck.Add("/over/each", "over.field is a property of each %s relationship: each is relationship", rel.Entity.Name)
		return "", nil, false
	}
	return far, rel, true
}

// checkGroupFields checks group_fields: stored fields of offer o, shown
// beside groups that are o's entities, so the group must be o's unique
// field (group_by, or over.group_by_related when o is the related
// entity).
func checkGroupFields(ck *tools.Checker, a *AggregateEntitiesArgs, o *tools.EntityOffer, group *tools.FieldOffer) {
	if len(a.GroupFields) == 0 {
		return
	}
	if u := o.Entity.UniqueField; group == nil || group.Field.Name != u || a.Bucket != "" {
		ck.Add("/group_fields", "group_fields shows the entity of each group: group by %q (%s's unique field), without bucket", u, o.Entity.Name)
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
		ck.Add("/over/field", "give field (of the entities) or over.field (a property of %s), not both", ro.Entity.Name)
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
	case a.Size && (a.Operation == "COUNT" || a.Operation == countDistinct):
		ck.Add("/size", "size applies to SUM, AVG, MIN and MAX (COUNT counts the entities or values)")
		return
	case a.Size && f != nil && !isList:
		ck.Add("/size", "size aggregates a list field's size; %s is declared %s", name, f.Field.Type)
		return
	case !a.Size && isList && a.Operation != "COUNT":
		ck.Add(at, "%s is declared %s: give size: true to aggregate its size (the number of elements)", name, f.Field.Type)
		return
	}
	switch {
	case a.Operation == "COUNT" && name != "" && f == nil,
		a.Operation == countDistinct && f == nil:
		ck.Choose(at, o.FieldNames(), "%q is not a field of %s; %s counts the values of one", name, o.Entity.Name, a.Operation)
		return
	case a.Operation == countDistinct && isList:
		ck.Add(at, "%s is declared %s: a list is not one value to count", name, f.Field.Type)
		return
	case a.Operation == "COUNT" || a.Operation == countDistinct:
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
	var path []*hop
	fieldScope := b.mainScope()
	field, fieldAt := a.Field, "/field"
	each := "n"
	if a.Over != nil {
		if path, err = p.overPath(b, a.Over); err != nil {
			return nil, err
		}
		over := path[len(path)-1]
		each = over.m
		if a.Over.Each == tools.EachRelationship {
			each = over.r
		}
		if over.entity != nil {
			fieldScope = scope{v: over.m, e: over.entity, name: over.entity.Name}
		}
		if a.Over.Field != "" {
			if a.Field != "" {
				return nil, unplannable(tool, "field with over.field", a.Over.Field)
			}
			fieldScope = p.relScope(over.r, over.rel.Via)
			field, fieldAt = a.Over.Field, "/over/field"
		}
	}
	arg, need, err := aggregated(b, field, fieldAt, a.Size, fieldScope, each)
	if err != nil {
		return nil, err
	}
	if a.Operation == countDistinct && field == "" {
		return nil, unplannable(tool, "COUNT_DISTINCT without a field", field)
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
	g := grouping{}
	if group != nil && group.c == nil && group.f.Name == e.UniqueField && bucket == nil {
		if g.display, err = b.displayOf(b.mainScope(), a.GroupFields); err != nil {
			return nil, err
		}
		g.node = "n"
	}
	mark := len(b.lines)
	b.match(ps.stored)
	if err := b.ensure(ps.refs...); err != nil {
		return nil, err
	}
	b.filterScope(ps.computed)
	if err := b.ensure(need...); err != nil {
		return nil, err
	}
	if group != nil {
		g.ref, g.expr = group, b.expr(*group)
		if bucket != nil {
			if g.expr, err = b.instant(b.carried(), *group, "/group_by", bucket); err != nil {
				return nil, err
			}
		}
	}
	if path != nil {
		if g, err = p.distinctOver(b, a, path, g, bucket, b.open(mark)); err != nil {
			return nil, err
		}
	}
	value := fn + "(" + arg + ")"
	if a.Operation == countDistinct {
		value = "count(DISTINCT " + arg + ")"
	}
	if g.ref == nil {
		if a.Bucket != "" || a.Having != nil {
			return nil, unplannable(tool, "bucket or having without a group", a.Bucket)
		}
		shape := Shape{Kind: ShapeAggregate, Entity: e.Name, Limit: 1}
		if len(path) < 2 {
			b.line("RETURN %s AS `value`, count(%s) AS `count`", value, arg)
			return b.statement(shape)
		}
		capped := ""
		if g.capped {
			capped = ", coalesce(max(" + colCapped + "), false) AS " + colCapped
		}
		b.line("WITH %s AS `value`, count(%s) AS `count`, count(*) AS `rows`%s", value, arg, capped)
		b.line("RETURN `value`, `count`, %s AS %s", p.bound(b, g, "`rows`"), ColCapped)
		shape.Capped = ColCapped
		return b.statement(shape)
	}
	return p.groups(b, a, e, aggregation{value, "count(" + arg + ")", g, len(path) > 1}, bucket)
}

// aggregated is what the operation applies to: the entity itself (each:
// n, or over's related entity or relationship), or the field of the
// scope (a datetime stored as text read as a datetime), with the stored
// fields it needs.
func aggregated(b *builder, field, at string, size bool, fieldScope scope, each string) (arg string, need []fieldRef, err error) {
	arg = each
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

// aggregation is what a grouped aggregate computes per group: the value
// and the count of values aggregated, over the rows of g's groups;
// bounded says they are a path's last level (bound).
type aggregation struct {
	value, count string
	g            grouping
	bounded      bool
}

// grouping is the group of an aggregate as planned so far: its field,
// the expression of its key, and for a group that is one entity, that
// entity's variable (node), over which expr reads the key, and display
// fields.
type grouping struct {
	ref                 *fieldRef
	expr, display, node string
	// capped says the rows carry colCapped (capLevel); first is the check
	// of a path's first level (firstLevel), and last the line of a path's
	// last level, restated by bound.
	capped bool
	first  *firstCheck
	last   int
}

// displayOf projects the stored fields names (group_fields) of scope s's
// entity, or by default its display fields (model.DisplayFields); ""
// when there are none.
func (b *builder) displayOf(s scope, names []string) (string, error) {
	if len(names) == 0 {
		names = b.p.m.DisplayFields(s.e)
	}
	var fields []string
	for i, name := range names {
		r, err := s.field(b, name, tools.Pointer("group_fields", i))
		if err != nil {
			return "", err
		}
		if r.c != nil || r.inline != "" {
			return "", unplannable(AggregateEntities, "computed group_fields", name)
		}
		if r.node == "" {
			b.use(r, model.UseProject)
		}
		fields = append(fields, b.q(name)+": "+b.expr(r))
	}
	if len(fields) == 0 {
		return "", nil
	}
	return s.v + " {" + strings.Join(fields, ", ") + "}", nil
}

// groups writes the grouped aggregate: the value and count per group, the
// groups having kept, bucket labels, and the page of groups by value,
// largest first; with total, the statement of the count over every group
// (before having and paging, so the page says what share of the whole it
// shows). count is count(arg): the entities (or relationships) of the
// group, or the non-null values of the aggregated field, the ones AVG,
// SUM, MIN and MAX read.
func (p *Planner) groups(b *builder, a *AggregateEntitiesArgs, e *model.Entity, ag aggregation, bucket *bucketing) (*Statement, error) {
	g := ag.g
	// The total is the rows so far counted as the groups count them, in
	// a statement of its own: counting them in this one would hold every
	// group at once, where ranking them keeps only the page.
	var total *Statement
	if a.Total {
		total = &Statement{Cypher: strings.Join(append(slices.Clone(b.lines), "RETURN "+ag.count+" AS "+ColTotal), "\n"), Params: b.params}
	}
	var having string
	if h := a.Having; h != nil {
		op, ok := condOps[h.Operator]
		if !ok || !slices.Contains(tools.HavingOperators, h.Operator) {
			return nil, unplannable(AggregateEntities, "having operator", h.Operator)
		}
		having = op + " " + b.named("having", h.Value)
	}
	// A group that is one entity is keyed by its node alone (one id,
	// cheaper to group on than the node and its field) and reads its key
	// once per group, and its display fields for the page's groups only.
	key, cols := g.expr+" AS `group`", []string{"`group`"}
	if g.expr == "`group`" {
		key = "`group`"
	}
	if g.node != "" {
		key, cols = g.node, append(cols, g.node)
	}
	cols = append(cols, "`value`", "`count`")
	// A path's levels say whether one was cut (the same on every row: it
	// splits no group), and its last level is counted (bound).
	if g.capped {
		cols = append(cols, colCapped)
		key += ", " + colCapped
	}
	rows := ""
	if ag.bounded {
		rows = ", count(*) AS `rows`"
	}
	b.line("WITH %s, %s AS `value`, %s AS `count`%s", key, ag.value, ag.count, rows)
	if ag.bounded {
		cols = append(cols, "`rows`")
	}
	// The key a node group reads, or a bucket's label, once per group.
	var read []string
	switch {
	case g.node != "":
		read = append([]string{g.expr + " AS `group`"}, cols[1:]...)
	case bucket != nil && bucket.label != nil:
		read = append([]string{bucket.label("`group`") + " AS `group`"}, cols[1:]...)
	}
	if read != nil && !ag.bounded {
		b.line("WITH %s", strings.Join(read, ", "))
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxGroups)
	offset := b.named("offset", int64(min(max(a.Offset, 0), p.limits.MaxOffset)))
	ret := "`group`, `value`, `count`"
	if ag.bounded {
		ret += ", " + colCapped + " AS " + ColCapped
	}
	if g.display != "" {
		ret += ", " + g.display + " AS " + ColDisplay
	}
	// group is a string, number or bool: ordering by it breaks ties stably.
	const order = "ORDER BY `value` DESC, `group`"
	if ag.bounded {
		if read == nil {
			read = cols
		}
		b.line("WITH %s\n%s", strings.Join(read, ", "), order)
		p.boundedPage(b, g, cols, having, offset, b.pageSize(limit))
		b.line("RETURN %s", ret)
	} else {
		if having != "" {
			b.line("WHERE `value` %s", having)
		}
		b.line("RETURN %s\n%s\nSKIP %s LIMIT %s", ret, order, offset, b.pageSize(limit))
	}
	shape := Shape{Kind: ShapeAggregate, Entity: e.Name, Limit: limit, Grouped: true, SortKeys: []SortKey{{Name: "value", Column: "value"}}}
	if ag.bounded {
		shape.Capped = ColCapped
	}
	if z := zoneName(p.loc); bucket != nil && z != "+00:00" {
		shape.Notes = []string{"datetime buckets are in zone " + zoneLabel(p.loc)}
	}
	st, err := b.statement(shape)
	if st != nil {
		st.Total = total
	}
	return st, err
}

// boundedPage pages the groups of a path's last level (cols, the
// `rows` each counted last), which are at most its bound: sorted by the
// statement so far, gathered into one list with the rows counted to
// tell whether a level was cut (bound), the groups having keeps sliced
// from offset to the page size, and unwound, in order. A Top after the
// list would keep it in every row it holds, which Neo4j charges to the
// transaction's memory per row (the hub test's pinned path: 71 MB for
// 50 groups).
func (p *Planner) boundedPage(b *builder, g grouping, cols []string, having, offset, size string) {
	kept := slices.DeleteFunc(slices.Clone(cols), func(c string) bool { return c == colCapped || c == "`rows`" })
	by := ""
	if g.capped {
		by = colCapped + ", "
	}
	b.line("WITH %scollect([%s]) AS `groups`, sum(`rows`) AS `rows`", by, strings.Join(kept, ", "))
	cut := p.bound(b, g, "`rows`")
	page := "`groups`"
	if having != "" {
		page = "[x IN `groups` WHERE x[" + itoa(slices.Index(kept, "`value`")) + "] " + having + "]"
	}
	b.line("UNWIND %s[%s..%s + %s] AS `row`", page, offset, offset, size)
	names := make([]string, len(kept))
	for i, c := range kept {
		names[i] = "`row`[" + itoa(i) + "] AS " + c
	}
	b.line("WITH %s, %s AS %s", strings.Join(names, ", "), cut, colCapped)
}

// checkGroups checks what shapes the groups of an aggregate: bucket (a
// datetime group field, at pointer at, of offer groups), having and
// offset, which all need groups. group is nil when the call has none (or
// names an unknown field, already reported).
func checkGroups(ck *tools.Checker, a *AggregateEntitiesArgs, group *tools.FieldOffer, groups *tools.EntityOffer, at string) {
	grouped := a.GroupBy != "" || a.Over != nil && (a.Over.GroupBy != "" || a.Over.GroupByRelated != "")
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
			ck.Add("/bucket", "bucket cuts the datetime values of group_by (or over.group_by, over.group_by_related) into %s; give one", strings.Join(tools.Buckets, ", "))
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

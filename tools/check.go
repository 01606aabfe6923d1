package tools

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ragforge/ragforge/model"
)

// maxListValues bounds an IN list.
const maxListValues = 1000

// check decodes arguments that passed the schema and applies the rules the
// schema leaves to code, filling defaults.
func (c *Catalog) check(tool string, raw json.RawMessage) (any, error) {
	var p problems
	var out any
	switch tool {
	case QueryEntities:
		a := &QueryEntitiesArgs{}
		if decode(raw, a, &p) {
			c.checkQuery(a, &p)
		}
		out = a
	case GetEntityByID:
		a := &GetEntityByIDArgs{}
		if decode(raw, a, &p) {
			c.checkGetByID(a, &p)
		}
		out = a
	case ExploreRelationships:
		a := &ExploreRelationshipsArgs{}
		if decode(raw, a, &p) {
			c.checkExplore(a, &p)
		}
		out = a
	case SemanticSearch:
		a := &SemanticSearchArgs{TopK: c.limits.DefaultTopK, MinScore: DefaultMinScore}
		if decode(raw, a, &p) {
			c.checkSemantic(a, &p)
		}
		out = a
	case FulltextSearch:
		a := &FulltextSearchArgs{}
		if decode(raw, a, &p) {
			c.checkFulltext(a, &p)
		}
		out = a
	case TextPatternSearch:
		a := &TextPatternSearchArgs{}
		if decode(raw, a, &p) {
			c.checkTextPattern(a, &p)
		}
		out = a
	case NumberRangeSearch:
		a := &NumberRangeSearchArgs{}
		if decode(raw, a, &p) {
			c.checkNumberRange(a, &p)
		}
		out = a
	case DatetimeRangeSearch:
		a := &DatetimeRangeSearchArgs{}
		if decode(raw, a, &p) {
			c.checkDatetimeRange(a, &p)
		}
		out = a
	case EnumFilterSearch:
		a := &EnumFilterSearchArgs{}
		if decode(raw, a, &p) {
			c.checkEnumFilter(a, &p)
		}
		out = a
	case DistanceSearch:
		a := &DistanceSearchArgs{}
		if decode(raw, a, &p) {
			a.Limit = c.limit(a.Limit)
			c.offeredField(DistanceSearch, a.EntityType, a.Field, "/field", &p)
		}
		out = a
	case AggregateEntities:
		a := &AggregateEntitiesArgs{}
		if decode(raw, a, &p) {
			c.checkAggregate(a, &p)
		}
		out = a
	case FindPaths:
		a := &FindPathsArgs{}
		if decode(raw, a, &p) {
			c.checkFindPaths(a, &p)
		}
		out = a
	case RunCypher:
		a := &RunCypherArgs{}
		decode(raw, a, &p)
		out = a
	default:
		p.add("", "tool %s has no argument checks (a bug in package tools)", tool)
	}
	if len(p) > 0 {
		return nil, &CallError{Tool: tool, Problems: p}
	}
	return out, nil
}

// decode reads arguments that passed the schema into a struct; numbers are
// kept as json.Number in untyped values so integers stay exact.
func decode(raw json.RawMessage, into any, p *problems) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(into); err != nil {
		p.add("", "arguments do not fit the tool: %v", err)
		return false
	}
	return true
}

func (c *Catalog) limit(n int) int {
	if n <= 0 {
		return c.limits.DefaultLimit
	}
	return n
}

// entity returns the offer of tool for entity, reporting a problem (with the
// entities the tool offers) when there is none.
func (c *Catalog) entity(tool, entity, at string, p *problems) *EntityOffer {
	o := c.offerFor(tool, entity)
	if o == nil {
		p.choose(at, OfferEntities(c.offers[tool]), "%q is not an entity this tool searches", entity)
	}
	return o
}

// offeredField returns the named field of the entity's offer, reporting a
// problem that lists the entity's valid fields when it is not offered.
func (c *Catalog) offeredField(tool, entity, field, at string, p *problems) *FieldOffer {
	o := c.entity(tool, entity, "/entity_type", p)
	if o == nil {
		return nil
	}
	f := o.Field(field)
	if f == nil {
		p.choose(at, o.FieldNames(), "%q is not a field of %s here", field, entity)
	}
	return f
}

// checkConditions checks the conditions of the argument name against an
// entity's query offer and converts each value to the field's Go type.
func (c *Catalog) checkConditions(o *EntityOffer, conds []Condition, name string, p *problems) {
	c.checkConds(o, conds, pointer(name), 0, p)
}

// checkField checks one {field, operator, value} condition at pointer at.
func checkField(o *EntityOffer, cond *Condition, at string, p *problems) {
	f := o.Field(cond.Field)
	if f == nil {
		p.choose(at+"/field", o.FieldNames(), "%q is not a field of %s", cond.Field, o.Entity.Name)
		return
	}
	if !slices.Contains(f.Modes, cond.Operator) {
		p.choose(at+"/operator", f.Modes, "operator %q does not apply to %s field %s", cond.Operator, f.Field.Type, f.Field.Name)
		return
	}
	if cond.IgnoreCase && (f.Field.Type.Kind() != model.String || !slices.Contains(IgnoreCaseOperators, cond.Operator)) {
		p.add(at+"/ignore_case", "ignore_case applies to string fields with %s, not to %s %s", strings.Join(IgnoreCaseOperators, ", "), f.Field.Type, cond.Operator)
		return
	}
	vat := at + "/value"
	switch cond.Operator {
	case "IS NULL", "IS NOT NULL":
		if cond.Value != nil {
			p.add(vat, "%s takes no value", cond.Operator)
		}
	case "IN", "NOT IN":
		list, ok := cond.Value.([]any)
		if !ok || len(list) == 0 {
			p.add(vat, "%s needs a non-empty list of values", cond.Operator)
			return
		}
		if len(list) > maxListValues {
			p.add(vat, "%s takes at most %d values", cond.Operator, maxListValues)
			return
		}
		for j, v := range list {
			if nv, ok := convertValue(f.Field, v, vat+pointer(j), p); ok {
				list[j] = nv
			}
		}
	default:
		if cond.Value == nil {
			p.add(vat, "operator %s needs a value", cond.Operator)
			return
		}
		if _, isList := cond.Value.([]any); isList {
			p.add(vat, "operator %s takes one value, not a list (use IN for a list)", cond.Operator)
			return
		}
		if nv, ok := convertValue(f.Field, cond.Value, vat, p); ok {
			cond.Value = nv
		}
	}
}

// convertValue checks that v fits the field's type and returns it as the
// field's Go type: int64 for integer, float64 for number, bool, or string
// (enum values among the allowed ones, datetimes parseable).
func convertValue(f *model.Field, v any, at string, p *problems) (any, bool) {
	switch f.Type.Kind() {
	case model.Number:
		n, ok := v.(json.Number)
		if !ok {
			p.add(at, "%s is a %s field; give a number", f.Name, f.Type)
			return nil, false
		}
		if f.Type == model.Integer {
			i, err := n.Int64()
			if err != nil {
				p.add(at, "%s is an integer field; %s is not a whole number", f.Name, n)
				return nil, false
			}
			return i, true
		}
		x, err := n.Float64()
		if err != nil || math.IsInf(x, 0) {
			p.add(at, "%s is out of range", n)
			return nil, false
		}
		return x, true
	case model.Boolean:
		b, ok := v.(bool)
		if !ok {
			p.add(at, "%s is a boolean field; give true or false", f.Name)
			return nil, false
		}
		return b, true
	case model.Datetime:
		s, ok := v.(string)
		if !ok {
			p.add(at, "%s is a datetime field; give a string such as 2024-05-01 or 2024-05-01T10:00:00Z", f.Name)
			return nil, false
		}
		if _, err := ParseDatetime(s); err != nil {
			p.add(at, "%v", err)
			return nil, false
		}
		return s, true
	case model.Enum:
		s, ok := v.(string)
		if !ok || !slices.Contains(f.Values, s) {
			p.choose(at, f.Values, "%s is not a value of enum field %s", show(v), f.Name)
			return nil, false
		}
		return s, true
	case model.String:
		s, ok := v.(string)
		if !ok {
			p.add(at, "%s is a string field; give a string", f.Name)
			return nil, false
		}
		return s, true
	}
	p.add(at, "%s (%s) cannot be compared with a value", f.Name, f.Type)
	return nil, false
}

func (c *Catalog) checkQuery(a *QueryEntitiesArgs, p *problems) {
	a.Limit = c.limit(a.Limit)
	o := c.entity(QueryEntities, a.EntityType, "/entity_type", p)
	if o == nil {
		return
	}
	c.checkConditions(o, a.Conditions, "conditions", p)
	checkOrderBy(o, a.OrderBy, p)
	for i, f := range a.Fields {
		if o.Field(f) == nil {
			p.choose(pointer("fields", i), o.FieldNames(), "%q is not a field of %s", f, o.Entity.Name)
		}
	}
}

func (c *Catalog) checkGetByID(a *GetEntityByIDArgs, p *problems) {
	o := c.entity(GetEntityByID, a.EntityType, "/entity_type", p)
	if o == nil {
		return
	}
	f := o.Fields[0].Field
	switch f.Type.Kind() {
	case model.Number:
	default:
		if _, ok := a.IDValue.(string); !ok {
			p.add("/id_value", "%s.%s is a %s; give it as a string", o.Entity.Name, f.Name, f.Type)
			return
		}
	}
	if v, ok := convertValue(f, a.IDValue, "/id_value", p); ok {
		a.IDValue = v
	}
}

func (c *Catalog) checkExplore(a *ExploreRelationshipsArgs, p *problems) {
	a.Limit = c.limit(a.Limit)
	if a.Depth == 0 {
		a.Depth = DefaultDepth
	}
	if a.Direction == "" {
		a.Direction = string(model.Outgoing)
	}
	o := c.entity(ExploreRelationships, a.StartEntityType, "/start_entity_type", p)
	if o == nil {
		return
	}
	c.checkConditions(o, a.StartConditions, "start_conditions", p)
	types := a.RelationshipTypes
	if a.RelationshipType != "" && !slices.Contains(types, a.RelationshipType) {
		types = append([]string{a.RelationshipType}, types...)
	}
	if len(types) == 0 {
		p.choose("/relationship_types", c.typesOf(o.Entity.Name), "give relationship_type or relationship_types")
		return
	}
	all := relationshipTypes(c.edges)
	for i, t := range a.RelationshipTypes {
		if !slices.Contains(all, t) {
			p.choose(pointer("relationship_types", i), all, "%q is not a relationship type", t)
			return
		}
	}
	a.RelationshipTypes, a.RelationshipType = types, types[0]
	var dirs, targets []string
	for _, t := range types {
		for _, h := range hops(c.edges, o.Entity.Name, t) {
			if !slices.Contains(dirs, string(h.Direction)) {
				dirs = append(dirs, string(h.Direction))
			}
			if string(h.Direction) == a.Direction && !slices.Contains(targets, h.Target) {
				targets = append(targets, h.Target)
			}
		}
	}
	if len(dirs) == 0 {
		p.choose("/relationship_type", c.typesOf(o.Entity.Name), "%s has no %s relationship", o.Entity.Name, strings.Join(types, " or "))
		return
	}
	if len(targets) == 0 {
		p.choose("/direction", dirs, "%s has no %s %s relationship", o.Entity.Name, a.Direction, strings.Join(types, " or "))
		return
	}
	targets = reachable(c.edges, targets, types, a.Direction, a.Depth)
	if a.TargetEntityType != "" && !slices.Contains(targets, a.TargetEntityType) {
		p.choose("/target_entity_type", targets, "%s --[%s]-- (%s) never reaches %s", o.Entity.Name, strings.Join(types, "|"), a.Direction, a.TargetEntityType)
		return
	}
	if len(a.TargetConditions) == 0 && len(a.OrderBy) == 0 {
		return
	}
	target := a.TargetEntityType
	if target == "" && len(targets) == 1 {
		target = targets[0]
	}
	if target == "" {
		p.choose("/target_entity_type", targets, "target_conditions and order_by need target_entity_type")
		return
	}
	a.TargetEntityType = target
	to := c.relatedOffer(target, "/target_entity_type", p)
	if to == nil {
		return
	}
	c.checkConditions(to, a.TargetConditions, "target_conditions", p)
	checkOrderBy(to, a.OrderBy, p)
}

func (c *Catalog) checkSemantic(a *SemanticSearchArgs, p *problems) {
	o := c.entity(SemanticSearch, a.EntityType, "/entity_type", p)
	if o == nil {
		return
	}
	var names []string
	for _, vi := range o.Entity.VectorIndexes {
		names = append(names, vi.Name)
	}
	if a.Index == "" && len(names) > 0 {
		a.Index = names[0]
	} else if !slices.Contains(names, a.Index) {
		p.choose("/index", names, "%q is not a vector index of %s", a.Index, o.Entity.Name)
	}
	c.checkConditions(o, a.Conditions, "conditions", p)
}

func (c *Catalog) checkFulltext(a *FulltextSearchArgs, p *problems) {
	a.Limit = c.limit(a.Limit)
	o := c.entity(FulltextSearch, a.EntityType, "/entity_type", p)
	if o == nil {
		return
	}
	if len(strings.Fields(a.Query)) == 0 {
		p.add("/query", "query has no words")
	}
	if len(a.Fields) == 0 {
		a.Fields = o.FieldNames()
	}
	for i, f := range a.Fields {
		if o.Field(f) == nil {
			p.choose(pointer("fields", i), o.FieldNames(), "%q is not in %s's full-text index", f, o.Entity.Name)
		}
	}
}

// mode checks that mode is one the field offers.
func mode(f *FieldOffer, m, at string, p *problems) bool {
	if !slices.Contains(f.Modes, m) {
		p.choose(at, f.Modes, "%q is not offered for %s", m, f.Field.Name)
		return false
	}
	return true
}

// firstOr returns want when the field offers it, else the field's first mode.
func firstOr(f *FieldOffer, want string) string {
	if slices.Contains(f.Modes, want) {
		return want
	}
	return f.Modes[0]
}

func (c *Catalog) checkTextPattern(a *TextPatternSearchArgs, p *problems) {
	a.Limit = c.limit(a.Limit)
	f := c.offeredField(TextPatternSearch, a.EntityType, a.Field, "/field", p)
	if f == nil {
		return
	}
	if a.Mode == "" {
		a.Mode = firstOr(f, "contains")
	}
	if !mode(f, a.Mode, "/mode", p) {
		return
	}
	switch a.Mode {
	case "regex", "glob":
		if _, err := Matcher(a.Mode, a.Pattern, a.CaseSensitive); err != nil {
			p.add("/pattern", "%v", err)
		}
	case "fuzzy":
		if len(Words(a.Pattern)) == 0 {
			p.add("/pattern", "fuzzy needs at least one word (letters or digits) in pattern")
		}
	}
}

func (c *Catalog) checkNumberRange(a *NumberRangeSearchArgs, p *problems) {
	a.Limit = c.limit(a.Limit)
	f := c.offeredField(NumberRangeSearch, a.EntityType, a.Field, "/field", p)
	if f == nil || !mode(f, a.Operator, "/operator", p) {
		return
	}
	switch a.Operator {
	case "percentile":
		if a.Percentile == nil {
			a.Percentile = fptr(DefaultPercentile)
		}
		return
	case "outlier":
		if a.K == nil {
			a.K = fptr(DefaultOutlierK)
		}
		return
	case "histogram":
		if a.Order != "" {
			p.add("/order", "order sorts entities; histogram returns buckets, lowest first")
		}
		if a.Buckets > 0 && a.BucketWidth != nil {
			p.add("/bucket_width", "give buckets or bucket_width, not both")
		}
		if a.Buckets == 0 && a.BucketWidth == nil {
			a.Buckets = DefaultBuckets
		}
		return
	}
	if a.Value == nil {
		p.add("/value", "operator %s needs a value", a.Operator)
		return
	}
	switch a.Operator {
	case "between":
		if a.UpperValue == nil {
			p.add("/upper_value", "between needs upper_value")
		} else if *a.UpperValue < *a.Value {
			p.add("/upper_value", "upper_value %g is below value %g", *a.UpperValue, *a.Value)
		}
	case "approximately":
		if a.Tolerance == nil {
			a.Tolerance = fptr(math.Abs(*a.Value) * (DefaultTolerancePercent / 100))
		}
	case "rounded_equal":
		if a.RoundTo == nil {
			a.RoundTo = fptr(DefaultRoundTo)
		}
	}
}

func fptr(f float64) *float64 { return &f }

func (c *Catalog) checkDatetimeRange(a *DatetimeRangeSearchArgs, p *problems) {
	a.Limit = c.limit(a.Limit)
	if a.Precision == "" {
		a.Precision = Precisions[0]
	}
	f := c.offeredField(DatetimeRangeSearch, a.EntityType, a.Field, "/field", p)
	if f == nil {
		return
	}
	if a.Mode == "" {
		switch {
		case a.RelativePeriod != "":
			a.Mode = firstOr(f, "relative")
		case a.StartDatetime != "" || a.EndDatetime != "":
			a.Mode = firstOr(f, "between")
		default:
			a.Mode = firstOr(f, "after")
		}
	}
	if !mode(f, a.Mode, "/mode", p) {
		return
	}
	need := func(name, v string) {
		if v == "" {
			p.add(pointer(name), "mode %s needs %s", a.Mode, name)
			return
		}
		if _, err := ParseDatetime(v); err != nil {
			p.add(pointer(name), "%v", err)
		}
	}
	unused := func(name, v string) {
		if v != "" {
			p.add(pointer(name), "%s is not used by mode %s", name, a.Mode)
		}
	}
	switch a.Mode {
	case "before", "after":
		need("datetime", a.Datetime)
		unused("start_datetime", a.StartDatetime)
		unused("end_datetime", a.EndDatetime)
		unused("relative_period", a.RelativePeriod)
	case "between":
		need("start_datetime", a.StartDatetime)
		need("end_datetime", a.EndDatetime)
		unused("datetime", a.Datetime)
		unused("relative_period", a.RelativePeriod)
		s, err1 := ParseDatetime(a.StartDatetime)
		e, err2 := ParseDatetime(a.EndDatetime)
		if err1 == nil && err2 == nil && e.Before(s) {
			p.add("/end_datetime", "end_datetime is before start_datetime")
		}
	case "relative":
		if a.RelativePeriod == "" {
			p.add("/relative_period", "mode relative needs relative_period")
		} else if _, _, err := RelativePeriod(a.RelativePeriod, time.Time{}); err != nil {
			p.add("/relative_period", "%v", err)
		}
		unused("datetime", a.Datetime)
		unused("start_datetime", a.StartDatetime)
		unused("end_datetime", a.EndDatetime)
	}
}

func (c *Catalog) checkEnumFilter(a *EnumFilterSearchArgs, p *problems) {
	a.Limit = c.limit(a.Limit)
	f := c.offeredField(EnumFilterSearch, a.EntityType, a.Field, "/field", p)
	if f == nil {
		return
	}
	for i, v := range a.Values {
		if !slices.Contains(f.Field.Values, v) {
			p.choose(pointer("values", i), f.Field.Values, "%q is not a value of %s.%s", v, a.EntityType, f.Field.Name)
		}
	}
	want := "in"
	if a.Exclude {
		want = "not_in"
	}
	if !slices.Contains(f.Modes, want) {
		p.add("/exclude", "%s.%s does not offer %s (its modes: %v)", a.EntityType, f.Field.Name, want, f.Modes)
	}
}

func (c *Catalog) checkAggregate(a *AggregateEntitiesArgs, p *problems) {
	a.Limit = c.limit(a.Limit)
	o := c.entity(AggregateEntities, a.EntityType, "/entity_type", p)
	if o == nil {
		return
	}
	c.checkConditions(o, a.Conditions, "conditions", p)
	// group is the field whose values form the groups, and at its path.
	var group *FieldOffer
	var groups *EntityOffer
	at := "/group_by"
	if a.GroupBy != "" {
		if group = o.Field(a.GroupBy); group == nil {
			p.choose(at, o.FieldNames(), "%q is not a field of %s", a.GroupBy, o.Entity.Name)
		}
		groups = o
	}
	if a.Over != nil {
		if !c.checkRelated(o.Entity.Name, &a.Over.Related, "/over", 0, p) {
			return
		}
		if g := a.Over.GroupBy; g != "" {
			ro := relationshipOffer(c.edges, o.Entity.Name, a.Over.Via)
			switch {
			case a.GroupBy != "":
				p.add("/over/group_by", "give group_by (a field of %s) or over.group_by (a property of %s), not both", o.Entity.Name, a.Over.Via)
				return
			case ro.Field(g) == nil:
				p.choose("/over/group_by", ro.FieldNames(), "%q is not a property of %s", g, a.Over.Via)
				return
			}
			group, groups, at = ro.Field(g), ro, "/over/group_by"
		}
	}
	checkGroups(a, group, groups, at, p)
	if a.Over != nil {
		if a.Over.Entity == "" {
			if a.Field != "" || a.Operation != "COUNT" {
				p.add("/over/entity", "aggregating a field of related entities needs their entity type")
			}
			return
		}
		if o = c.relatedOffer(a.Over.Entity, "/over/entity", p); o == nil {
			return
		}
	}
	if a.Operation == "COUNT" {
		if a.Field != "" && o.Field(a.Field) == nil {
			p.choose("/field", o.FieldNames(), "%q is not a field of %s", a.Field, o.Entity.Name)
		}
		return
	}
	kinds := []model.Type{model.Number}
	if a.Operation == "MIN" || a.Operation == "MAX" {
		kinds = append(kinds, model.Datetime)
	}
	var valid []string
	for _, f := range o.Fields {
		if slices.Contains(kinds, f.Field.Type.Kind()) {
			valid = append(valid, f.Field.Name)
		}
	}
	if a.Field == "" {
		p.choose("/field", valid, "%s needs a field", a.Operation)
		return
	}
	if !slices.Contains(valid, a.Field) {
		p.choose("/field", valid, "%s cannot aggregate %q of %s", a.Operation, a.Field, o.Entity.Name)
		return
	}
	if f := o.Field(a.Field); a.Having != nil && f != nil && f.Field.Type.Kind() == model.Datetime {
		p.add("/having", "having compares a number; %s of datetime field %s is a datetime", a.Operation, a.Field)
	}
}

// checkGroups checks what shapes the groups of an aggregate: bucket (a
// datetime group field, at pointer at, of offer groups), having and
// offset, which all need groups. group is nil when the call has none (or
// names an unknown field, already reported).
func checkGroups(a *AggregateEntitiesArgs, group *FieldOffer, groups *EntityOffer, at string, p *problems) {
	grouped := a.GroupBy != "" || a.Over != nil && a.Over.GroupBy != ""
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
		case !slices.Contains(Buckets, a.Bucket):
			p.choose("/bucket", Buckets, "%q is not a bucket", a.Bucket)
		case !grouped:
			p.add("/bucket", "bucket cuts the datetime values of group_by (or over.group_by) into %s; give one", strings.Join(Buckets, ", "))
		case group != nil && group.Field.Type.Kind() != model.Datetime:
			p.choose(at, datetimes, "bucket applies to a datetime field; %s is a %s field", group.Field.Name, group.Field.Type)
		}
	}
	if a.Having != nil {
		switch {
		case !slices.Contains(HavingOperators, a.Having.Operator):
			p.choose("/having/operator", HavingOperators, "unknown having operator %q", a.Having.Operator)
		case !grouped:
			p.add("/having", "having keeps the groups whose value passes it; give group_by (without groups there is one value)")
		}
	}
	if a.Offset > 0 && !grouped {
		p.add("/offset", "offset pages groups; give group_by (without groups there is one value)")
	}
}

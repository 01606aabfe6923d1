package tools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// semanticSearch compares an embedded text query with the entities' vector
// indexes. One tool covers every index: the agent picks the entity and,
// when an entity has several indexes, the index (by default its first).
func (g *generator) semanticSearch() {
	var offers []*entityOffer
	var entities []*model.Entity
	var indexNames []string
	for _, e := range g.m.Entities {
		if len(e.VectorIndexes) == 0 {
			continue
		}
		if ctl, has := control(e, SemanticSearch); has && !ctl.Enabled {
			continue
		}
		qo := g.c.offerFor(QueryEntities, e.Name)
		if qo == nil {
			qo = &entityOffer{Entity: e}
		}
		offers = append(offers, qo)
		entities = append(entities, e)
		for _, vi := range e.VectorIndexes {
			indexNames = append(indexNames, vi.Name)
		}
	}
	if len(offers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("Find entities whose text is closest in meaning to a natural-language query: the query is embedded with the index's model and compared with the stored embeddings. Returns unique ids, scores and a short snippet; fetch full entities with get_entity_by_id.\n\n")
	b.WriteString("Vector indexes (index: Entity.field it embeds):\n")
	for _, e := range entities {
		for i, vi := range e.VectorIndexes {
			fmt.Fprintf(&b, "- %s: %s.%s", vi.Name, e.Name, vi.Field)
			var notes []string
			if vi.Model != "" {
				notes = append(notes, vi.Model)
			}
			if i == 0 && len(e.VectorIndexes) > 1 {
				notes = append(notes, "default for "+e.Name)
			}
			if len(notes) > 0 {
				b.WriteString(" (" + strings.Join(notes, ", ") + ")")
			}
			if f := e.Field(vi.Field); f != nil && f.Description != "" {
				b.WriteString(" - " + f.Description)
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString("Unique ids: " + uniqueFields(entities) + ". conditions filter the hits like query_entities conditions.")
	l := g.c.limits
	in := object(
		entityTypeProp(offerEntities(offers), "Entity to search"),
		prop{"query", &schema{Type: "string", Description: "What to look for, in natural language", MinLength: count(1), MaxLength: count(4000)}},
		prop{"index", &schema{Type: "string", Description: "Vector index to use (default: the entity's first)", Enum: indexNames}},
		prop{"top_k", &schema{Type: "integer", Description: fmt.Sprintf("Number of results (default %d, at most %d)", l.DefaultTopK, l.MaxTopK), Default: l.DefaultTopK, Minimum: num(1), Maximum: num(float64(l.MaxTopK))}},
		prop{"min_score", &schema{Type: "number", Description: "Minimum similarity score, 0 to 1", Default: DefaultMinScore, Minimum: num(0), Maximum: num(1)}},
		conditionsProp("conditions", offers, "Optional filters on the hits"),
	).require("entity_type", "query")
	g.add(SemanticSearch, CategorySearch, b.String(), in, offers)
}

// fulltextSearch queries the entities' full-text indexes (Lucene), when the
// server has them.
func (g *generator) fulltextSearch() {
	if !g.c.caps.FullText {
		return
	}
	var offers []*entityOffer
	for _, e := range g.m.Entities {
		ft := e.FullTextIndex
		if ft == nil {
			continue
		}
		if ctl, has := control(e, FulltextSearch); has && !ctl.Enabled {
			continue
		}
		o := &entityOffer{Entity: e}
		for _, name := range ft.Fields {
			if f := e.Field(name); f != nil {
				o.Fields = append(o.Fields, &fieldOffer{Field: f})
			}
		}
		offers = append(offers, o)
	}
	if len(offers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("Full-text search: ranks entities by how well their indexed text fields match words of the query (Lucene scoring). Use fuzzy for typos.\n\nFull-text indexes:\n")
	for _, o := range offers {
		ft := o.Entity.FullTextIndex
		fmt.Fprintf(&b, "- %s: %s over %s", ft.Name, o.Entity.Name, strings.Join(o.fieldNames(), ", "))
		if ft.Analyzer != "" {
			fmt.Fprintf(&b, " (analyzer %s)", ft.Analyzer)
		}
		b.WriteByte('\n')
	}
	b.WriteString("Unique ids: " + uniqueFields(entitiesOf(offers)) + ".")
	in := object(
		entityTypeProp(offerEntities(offers), "Entity to search"),
		prop{"query", &schema{Type: "string", Description: "Words to find", MinLength: count(1), MaxLength: count(1000)}},
		prop{"fields", &schema{Type: "array", Description: "Search only these indexed fields (default: all)", Items: &schema{Type: "string", Enum: unionFields(offers)}, MinItems: count(1), UniqueItems: true}},
		prop{"fuzzy", &schema{Type: "boolean", Description: "Match words within a small edit distance (typos)", Default: false}},
		prop{"min_score", &schema{Type: "number", Description: "Minimum relevance score", Minimum: num(0)}},
		g.limitProp(),
	).require("entity_type", "query")
	g.add(FulltextSearch, CategorySearch, b.String(), in, offers)
}

func entitiesOf(offers []*entityOffer) []*model.Entity {
	out := make([]*model.Entity, len(offers))
	for i, o := range offers {
		out[i] = o.Entity
	}
	return out
}

// fuzzySupported reports whether the server can run fuzzy matching on a
// field: through APOC on any string field, or through the full-text index
// that covers it.
func (c *Catalog) fuzzySupported(e *model.Entity, f *fieldOffer) bool {
	if c.caps.APOC {
		return true
	}
	return c.caps.FullText && f.Computed == nil && e.FullTextIndex != nil && slices.Contains(e.FullTextIndex.Fields, f.Field.Name)
}

// specializedHead is the common schema head of the specialized tools:
// entity_type and field.
func specializedHead(offers []*entityOffer, fieldDesc string) []prop {
	return []prop{
		entityTypeProp(offerEntities(offers), "Entity to search"),
		fieldProp("field", unionFields(offers), fieldDesc),
	}
}

// textPatternSearch matches string fields against a pattern.
func (g *generator) textPatternSearch() {
	offers := specializedOffers(g.m, TextPatternSearch, model.String, func(e *model.Entity, f *fieldOffer, mode string) bool {
		return mode != "fuzzy" || g.c.fuzzySupported(e, f)
	})
	if len(offers) == 0 {
		return
	}
	modes := unionModes(offers)
	var b strings.Builder
	b.WriteString("Find entities whose text field matches a pattern.\n\nAvailable text fields:\n")
	b.WriteString(specializedFieldList(offers, string(model.String), true))
	b.WriteString(modesHeader("Modes", offers) + modeLines(modes))
	b.WriteString("Matching ignores case unless case_sensitive is true.")
	def := modes[0]
	if slices.Contains(modes, "contains") {
		def = "contains"
	}
	props := append(specializedHead(offers, "String field to match"),
		prop{"pattern", &schema{Type: "string", Description: "Text, regular expression or glob, per mode", MinLength: count(1), MaxLength: count(1000)}},
		prop{"mode", &schema{Type: "string", Enum: modes, Default: def}},
		prop{"case_sensitive", &schema{Type: "boolean", Default: false}},
		g.limitProp(),
	)
	g.add(TextPatternSearch, CategorySearch, b.String(), object(props...).require("entity_type", "field", "pattern"), offers)
}

// numberRangeSearch compares number fields, including the statistical
// modes when the rules give them.
func (g *generator) numberRangeSearch() {
	offers := specializedOffers(g.m, NumberRangeSearch, model.Number, nil)
	if len(offers) == 0 {
		return
	}
	ops := unionModes(offers)
	var b strings.Builder
	b.WriteString("Find entities by comparing a number field with a value.\n\nAvailable numeric fields:\n")
	b.WriteString(specializedFieldList(offers, string(model.Number), true))
	b.WriteString(modesHeader("Operators", offers) + modeLines(ops))
	props := append(specializedHead(offers, "Numeric field (computed fields included)"),
		prop{"operator", &schema{Type: "string", Enum: ops}},
		prop{"value", &schema{Type: "number", Description: "Value to compare with (all operators but percentile, outlier, histogram)"}},
	)
	if slices.Contains(ops, "between") {
		props = append(props, prop{"upper_value", &schema{Type: "number", Description: "Upper bound for between"}})
	}
	if slices.Contains(ops, "approximately") {
		props = append(props, prop{"tolerance", &schema{Type: "number", Description: fmt.Sprintf("Allowed difference for approximately (default %g%% of value)", DefaultTolerancePercent), Minimum: num(0)}})
	}
	if slices.Contains(ops, "rounded_equal") {
		props = append(props, prop{"round_to", &schema{Type: "number", Description: "Bucket width for rounded_equal", Default: DefaultRoundTo, ExclusiveMinimum: num(0)}})
	}
	if slices.Contains(ops, "percentile") {
		props = append(props, prop{"percentile", &schema{Type: "number", Description: "Percentile for percentile, 0 to 100", Default: DefaultPercentile, Minimum: num(0), Maximum: num(100)}})
	}
	if slices.Contains(ops, "outlier") {
		props = append(props, prop{"k", &schema{Type: "number", Description: "Standard deviations for outlier", Default: DefaultOutlierK, ExclusiveMinimum: num(0)}})
	}
	if slices.Contains(ops, "histogram") {
		props = append(props,
			prop{"buckets", &schema{Type: "integer", Description: "Bucket count for histogram", Default: DefaultBuckets, Minimum: num(1), Maximum: num(float64(g.c.limits.MaxBuckets))}},
			prop{"bucket_width", &schema{Type: "number", Description: "Bucket width for histogram (instead of buckets)", ExclusiveMinimum: num(0)}})
	}
	props = append(props,
		prop{"order", &schema{Type: "string", Enum: Orders, Description: numberOrderHelp}},
		g.limitProp())
	g.add(NumberRangeSearch, CategorySearch, b.String(), object(props...).require("entity_type", "field", "operator"), offers)
}

// numberOrderHelp describes number_range_search's order: with it, "the 10
// largest over 200 lines" is one call (gt 200, order desc, limit 10).
const numberOrderHelp = "Sort the entities by the field: asc (smallest first) or desc (largest first), e.g. gt with order desc and limit 10 gives the 10 largest above value. Default: lt and lte largest first, approximately nearest value first, percentile largest first, outlier farthest from the mean first, the others smallest first. Not for histogram."

// relativePeriodPattern accepts the named periods and last_N_<unit>.
const relativePeriodPattern = `^(today|yesterday|this_week|last_week|this_month|last_month|this_year|last_year|last_minute|last_hour|last_day|last_([1-9][0-9]{0,3})_(minutes|hours|days|weeks|months))$`

// datetimeRangeSearch compares datetime fields with absolute or relative
// times.
func (g *generator) datetimeRangeSearch() {
	offers := specializedOffers(g.m, DatetimeRangeSearch, model.Datetime, nil)
	if len(offers) == 0 {
		return
	}
	modes := unionModes(offers)
	var b strings.Builder
	b.WriteString("Find entities by when something happened: compare a datetime field with a date, a range, or a period up to now. Results are newest first.\n\nAvailable datetime fields:\n")
	b.WriteString(specializedFieldList(offers, string(model.Datetime), true))
	b.WriteString(modesHeader("Modes", offers))
	for _, m := range modes {
		switch m {
		case "between":
			b.WriteString("- between: start_datetime <= x <= end_datetime\n")
		default:
			b.WriteString(modeLines([]string{m}))
		}
	}
	b.WriteString("Datetimes: YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], optionally with Z or +HH:MM (default UTC). relative_period: today, yesterday, this_week, last_week, this_month, last_month, this_year, last_year, last_minute, last_hour, last_day, or last_N_minutes|hours|days|weeks|months (e.g. last_7_days); named periods are calendar periods, weeks start on Monday. precision truncates the compared times.")
	def := modes[0]
	if slices.Contains(modes, "after") {
		def = "after"
	}
	dt := func(desc string) *schema { return &schema{Type: "string", Description: desc, MaxLength: count(40)} }
	props := append(specializedHead(offers, "Datetime field"),
		prop{"mode", &schema{Type: "string", Enum: modes, Default: def}},
		prop{"datetime", dt("For before and after")},
		prop{"start_datetime", dt("Start for between")},
		prop{"end_datetime", dt("End for between")},
	)
	if slices.Contains(modes, "relative") {
		props = append(props, prop{"relative_period", &schema{Type: "string", Description: "Period for relative", Pattern: relativePeriodPattern}})
	}
	props = append(props,
		prop{"precision", &schema{Type: "string", Enum: Precisions, Default: Precisions[0]}},
		g.limitProp(),
	)
	g.add(DatetimeRangeSearch, CategorySearch, b.String(), object(props...).require("entity_type", "field"), offers)
}

// enumFilterSearch keeps entities whose enum field is (or is not) one of
// some values.
func (g *generator) enumFilterSearch() {
	offers := specializedOffers(g.m, EnumFilterSearch, model.Enum, nil)
	if len(offers) == 0 {
		return
	}
	var values []string
	for _, o := range offers {
		for _, f := range o.Fields {
			for _, v := range f.Field.Values {
				if !slices.Contains(values, v) {
					values = append(values, v)
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("Find entities whose enum field has one of the given values (exclude: true for none of them).\n\nAvailable enum fields [values]:\n")
	b.WriteString(specializedFieldList(offers, string(model.Enum), true))
	props := append(specializedHead(offers, "Enum field"),
		prop{"values", &schema{Type: "array", Description: "Values of the field (OR)", Items: &schema{Type: "string", Enum: values}, MinItems: count(1), UniqueItems: true}},
		prop{"exclude", &schema{Type: "boolean", Description: "Keep entities whose value is none of values", Default: false}},
		g.limitProp(),
	)
	g.add(EnumFilterSearch, CategorySearch, b.String(), object(props...).require("entity_type", "field", "values"), offers)
}

// distanceSearch finds entities near a place, for point fields.
func (g *generator) distanceSearch() {
	offers := specializedOffers(g.m, DistanceSearch, model.Point, nil)
	if len(offers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("Find entities within a distance of a place (WGS-84 latitude/longitude), nearest first; each result has its distance in km.\n\nAvailable point fields:\n")
	b.WriteString(specializedFieldList(offers, string(model.Point), false))
	props := append(specializedHead(offers, "Point field"),
		prop{"latitude", &schema{Type: "number", Minimum: num(-90), Maximum: num(90)}},
		prop{"longitude", &schema{Type: "number", Minimum: num(-180), Maximum: num(180)}},
		prop{"radius_km", &schema{Type: "number", Description: "Search radius in kilometres", ExclusiveMinimum: num(0), Maximum: num(20100)}},
		g.limitProp(),
	)
	g.add(DistanceSearch, CategorySearch, b.String(), object(props...).require("entity_type", "field", "latitude", "longitude", "radius_km"), offers)
}

// aggregateEntities computes COUNT, AVG, SUM, MIN, MAX, optionally per
// group: a field's values, a datetime field's buckets, or a property of
// the relationship over follows.
func (g *generator) aggregateEntities() {
	var offers []*entityOffer
	for _, o := range queryOffers(g.m) {
		if ctl, has := control(o.Entity, AggregateEntities); has && !ctl.Enabled {
			continue
		}
		offers = append(offers, o)
	}
	if len(offers) == 0 {
		return
	}
	l := g.c.limits
	var b strings.Builder
	b.WriteString("Compute an aggregate over the entities matching conditions: COUNT, AVG, SUM, MIN or MAX, optionally per value of a group_by field (GROUP BY; groups sorted by result, largest first; page with offset). bucket groups a datetime group_by by period (labels 2024-05-01T13, 2024-05-01, Monday, 2024-05, 2024; UTC unless noted). having keeps groups by value, e.g. {\"operator\": \">\", \"value\": 10}.\n\n")
	b.WriteString("Numeric fields for AVG/SUM (MIN/MAX also take datetime fields):\n")
	for _, o := range offers {
		var nums []string
		for _, f := range o.Fields {
			if k := f.Field.Type.Kind(); k == model.Number || k == model.Datetime {
				nums = append(nums, fmt.Sprintf("%s (%s)", f.Field.Name, f.Field.Type))
			}
		}
		if len(nums) > 0 {
			fmt.Fprintf(&b, "- %s: %s\n", o.Entity.Name, strings.Join(nums, ", "))
		}
	}
	b.WriteString("Any field of the entity can be used in group_by and conditions (see query_entities for the fields, relationship tests and groups).")
	props := []prop{
		entityTypeProp(offerEntities(offers), "Entity to aggregate"),
		{"operation", &schema{Type: "string", Enum: Operations}},
		fieldProp("field", unionFields(offers), "Field to aggregate (not needed for COUNT); with over, a stored field of the related entity"),
		fieldProp("group_by", unionFields(offers), "Field of entity_type whose values form the groups"),
		{"bucket", &schema{Type: "string", Description: "Group a datetime group_by by period", Enum: Buckets}},
		g.relationalConditionsProp("conditions", offers, "Conditions the entities must meet"),
	}
	if len(g.c.edges) > 0 {
		b.WriteString(" With over ({via, direction, entity, conditions, relationship_conditions}, as in a relationship test), the aggregate is over the entities related to the matching ones, each counted once per group: e.g. AVG of Movie.released over the movies a Person acted in; over.group_by groups by a property of that relationship instead.")
		over := object(append(g.relatedProps(),
			prop{"group_by", &schema{Type: "string", Description: "Relationship property to group by (instead of group_by)"}})...).require("via")
		over.Description = "Aggregate the related entities one hop away instead"
		props = append(props, prop{"over", over})
	}
	having := object(
		prop{"operator", &schema{Type: "string", Enum: HavingOperators}},
		prop{"value", &schema{Type: "number"}},
	).require("operator", "value")
	props = append(props, prop{"having", having}, g.limitUpTo(l.MaxGroups, "groups"), g.offsetProp("Groups"))
	in := object(props...).require("entity_type", "operation")
	g.add(AggregateEntities, CategoryAnalytics, b.String(), in, offers)
}

// runCypher is the optional raw-Cypher tool; the engine enforces what its
// description promises.
func (g *generator) runCypher() {
	var b strings.Builder
	b.WriteString("Run a read-only Cypher query when no other tool can express the question. DANGEROUS and limited: only statements that Neo4j classifies as read-only are accepted (no CREATE, MERGE, SET, DELETE, REMOVE, LOAD CSV, no procedures outside a small allowlist); the query runs in a read transaction with a timeout and a row cap. Prefer the other tools.\n\n")
	fmt.Fprintf(&b, "Labels: %s. Relationship types: %s.", strings.Join(g.m.EntityNames(), ", "), strings.Join(relationshipTypes(g.c.edges), ", "))
	in := object(
		prop{"query", &schema{Type: "string", Description: "A read-only Cypher statement, with a LIMIT", MinLength: count(1), MaxLength: count(10000)}},
	).require("query")
	g.add(RunCypher, CategoryCypher, b.String(), in, nil)
}

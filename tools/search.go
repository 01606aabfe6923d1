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
	var offers []*EntityOffer
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
			qo = &EntityOffer{Entity: e}
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
	b.WriteString("Find entities closest in meaning to a natural-language query (embedded with the index's model): unique ids, scores and a snippet. conditions: field tests (query_entities) on the hits.\nIndexes: ")
	var idx []string
	for _, e := range entities {
		for i, vi := range e.VectorIndexes {
			s := vi.Name + " (" + e.Name + "." + vi.Field
			if i == 0 && len(e.VectorIndexes) > 1 {
				s += ", default"
			}
			idx = append(idx, s+")")
		}
	}
	b.WriteString(strings.Join(idx, ", ") + ".")
	l := g.c.limits
	in := Object(
		EntityTypeProp(OfferEntities(offers)),
		Prop{"query", &Schema{Type: "string", MinLength: Count(1), MaxLength: Count(4000)}},
		Prop{"index", &Schema{Type: "string", Enum: indexNames}},
		Prop{"top_k", &Schema{Type: "integer", Default: l.DefaultTopK, Maximum: Num(float64(l.MaxTopK))}},
		Prop{"min_score", &Schema{Type: "number", Default: DefaultMinScore, Minimum: Num(0), Maximum: Num(1)}},
		Prop{"conditions", &Schema{Type: "array", Items: fieldTest().Require("field", "operator")}},
	).Require("entity_type", "query")
	g.add(SemanticSearch, CategorySearch, b.String(), in, offers)
}

// fulltextSearch queries the entities' full-text indexes (Lucene), when the
// server has them.
func (g *generator) fulltextSearch() {
	if !g.c.caps.FullText {
		return
	}
	var offers []*EntityOffer
	for _, e := range g.m.Entities {
		ft := e.FullTextIndex
		if ft == nil {
			continue
		}
		if ctl, has := control(e, FulltextSearch); has && !ctl.Enabled {
			continue
		}
		o := &EntityOffer{Entity: e}
		for _, name := range ft.Fields {
			if f := e.Field(name); f != nil {
				o.Fields = append(o.Fields, &FieldOffer{Field: f})
			}
		}
		offers = append(offers, o)
	}
	if len(offers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("Rank entities by how well their full-text indexed fields match the words of query (Lucene); fuzzy tolerates typos. Indexed: ")
	for i, o := range offers {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(o.Entity.Name + ": " + strings.Join(o.FieldNames(), ", "))
	}
	b.WriteString(".")
	in := Object(
		EntityTypeProp(OfferEntities(offers)),
		Prop{"query", &Schema{Type: "string", MinLength: Count(1), MaxLength: Count(1000)}},
		Prop{"fields", &Schema{Type: "array", Description: "Default: all indexed", Items: &Schema{Type: "string"}, MinItems: Count(1), UniqueItems: true}},
		Prop{"fuzzy", &Schema{Type: "boolean"}},
		Prop{"min_score", &Schema{Type: "number", Minimum: Num(0)}},
		g.limitProp(),
	).Require("entity_type", "query")
	g.add(FulltextSearch, CategorySearch, b.String(), in, offers)
}

func EntitiesOf(offers []*EntityOffer) []*model.Entity {
	out := make([]*model.Entity, len(offers))
	for i, o := range offers {
		out[i] = o.Entity
	}
	return out
}

// fuzzySupported reports whether the server can run fuzzy matching on a
// field: through APOC on any string field, or through the full-text index
// that covers it.
func (c *Catalog) fuzzySupported(e *model.Entity, f *FieldOffer) bool {
	if c.caps.APOC {
		return true
	}
	return c.caps.FullText && f.Computed == nil && e.FullTextIndex != nil && slices.Contains(e.FullTextIndex.Fields, f.Field.Name)
}

// specializedHead is the common schema head of the specialized tools:
// entity_type and field.
func SpecializedHead(offers []*EntityOffer) []Prop {
	return []Prop{EntityTypeProp(OfferEntities(offers)), FieldProp("field")}
}

// textPatternSearch matches string fields against a pattern.
func (g *generator) textPatternSearch() {
	offers := specializedOffers(g.m, TextPatternSearch, model.String, func(e *model.Entity, f *FieldOffer, mode string) bool {
		return mode != "fuzzy" || g.c.fuzzySupported(e, f)
	})
	if len(offers) == 0 {
		return
	}
	modes := UnionModes(offers)
	var b strings.Builder
	b.WriteString("Find entities whose string field matches pattern per mode, ignoring case unless case_sensitive.\nFields: ")
	b.WriteString(g.fieldList(offers, model.String, true))
	b.WriteString(ModeNotes(offers, modes, PatternHelp))
	def := modes[0]
	if slices.Contains(modes, "contains") {
		def = "contains"
	}
	props := append(SpecializedHead(offers),
		Prop{"pattern", &Schema{Type: "string", MinLength: Count(1), MaxLength: Count(1000)}},
		Prop{"mode", &Schema{Type: "string", Enum: modes, Default: def}},
		Prop{"case_sensitive", &Schema{Type: "boolean"}},
		g.limitProp(),
	)
	g.add(TextPatternSearch, CategorySearch, b.String(), Object(props...).Require("entity_type", "field", "pattern"), offers)
}

// numberRangeSearch compares number fields, including the statistical
// modes when the rules give them.
func (g *generator) numberRangeSearch() {
	offers := specializedOffers(g.m, NumberRangeSearch, model.Number, nil)
	if len(offers) == 0 {
		return
	}
	ops := UnionModes(offers)
	var b strings.Builder
	b.WriteString("Find entities by comparing a number field with value per operator.\nFields: ")
	b.WriteString(g.fieldList(offers, model.Number, true))
	b.WriteString(ModeNotes(offers, ops, NumberHelp) + numberOrderHelp)
	props := append(SpecializedHead(offers),
		Prop{"operator", &Schema{Type: "string", Enum: ops}},
		Prop{"value", &Schema{Type: "number"}},
	)
	if slices.Contains(ops, "between") {
		props = append(props, Prop{"upper_value", &Schema{Type: "number"}})
	}
	if slices.Contains(ops, "approximately") {
		props = append(props, Prop{"tolerance", &Schema{Type: "number", Minimum: Num(0)}})
	}
	if slices.Contains(ops, "rounded_equal") {
		props = append(props, Prop{"round_to", &Schema{Type: "number", Default: DefaultRoundTo, ExclusiveMinimum: Num(0)}})
	}
	if slices.Contains(ops, "percentile") {
		props = append(props, Prop{"percentile", &Schema{Type: "number", Default: DefaultPercentile, Minimum: Num(0), Maximum: Num(100)}})
	}
	if slices.Contains(ops, "outlier") {
		props = append(props, Prop{"k", &Schema{Type: "number", Default: DefaultOutlierK, ExclusiveMinimum: Num(0)}})
	}
	if slices.Contains(ops, "histogram") {
		props = append(props,
			Prop{"buckets", &Schema{Type: "integer", Default: DefaultBuckets, Maximum: Num(float64(g.c.limits.MaxBuckets))}},
			Prop{"bucket_width", &Schema{Type: "number", ExclusiveMinimum: Num(0)}})
	}
	props = append(props,
		Prop{"order", &Schema{Type: "string", Enum: Orders}},
		g.limitProp())
	g.add(NumberRangeSearch, CategorySearch, b.String(), Object(props...).Require("entity_type", "field", "operator"), offers)
}

// numberOrderHelp describes number_range_search's order: with it, "the 10
// largest over 200 lines" is one call (gt 200, order desc, limit 10).
const numberOrderHelp = "order sorts by the field (gt, desc, limit 10: the 10 largest above value); default: smallest first, but largest for lt, lte, percentile, nearest for approximately, farthest for outlier."

// relativePeriodPattern accepts the named periods and last_N_<unit>.
const relativePeriodPattern = `^(today|yesterday|this_week|last_week|this_month|last_month|this_year|last_year|last_minute|last_hour|last_day|last_([1-9][0-9]{0,3})_(minutes|hours|days|weeks|months))$`

// datetimeRangeSearch compares datetime fields with absolute or relative
// times.
func (g *generator) datetimeRangeSearch() {
	offers := specializedOffers(g.m, DatetimeRangeSearch, model.Datetime, nil)
	if len(offers) == 0 {
		return
	}
	modes := UnionModes(offers)
	var b strings.Builder
	b.WriteString("Find entities by when something happened, newest first: a datetime field before or after datetime, between start_datetime and end_datetime, or within relative_period up to now (relative).\nFields: ")
	b.WriteString(g.fieldList(offers, model.Datetime, true))
	b.WriteString(ModeNotes(offers, modes, nil))
	b.WriteString("Datetimes: YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM], UTC by default; precision truncates both sides.")
	if slices.Contains(modes, "relative") {
		b.WriteString(" relative_period: today, yesterday, this_ or last_ + week|month|year (calendar; weeks from Monday), last_minute|hour|day, last_N_minutes|hours|days|weeks|months.")
	}
	def := modes[0]
	if slices.Contains(modes, "after") {
		def = "after"
	}
	// Parse reads every datetime it uses and refuses one it does not, so
	// their length needs no bound of its own.
	dt := func() *Schema { return &Schema{Type: "string"} }
	props := append(SpecializedHead(offers),
		Prop{"mode", &Schema{Type: "string", Enum: modes, Default: def}},
		Prop{"datetime", dt()},
		Prop{"start_datetime", dt()},
		Prop{"end_datetime", dt()},
	)
	if slices.Contains(modes, "relative") {
		props = append(props, Prop{"relative_period", dt()})
	}
	props = append(props,
		Prop{"precision", &Schema{Type: "string", Enum: Precisions, Default: Precisions[0]}},
		g.limitProp(),
	)
	g.add(DatetimeRangeSearch, CategorySearch, b.String(), Object(props...).Require("entity_type", "field"), offers)
}

// enumFilterSearch keeps entities whose enum field is (or is not) one of
// some values.
func (g *generator) enumFilterSearch() {
	offers := specializedOffers(g.m, EnumFilterSearch, model.Enum, nil)
	if len(offers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("Find entities whose enum field has one of values (exclude: none of them).\nFields: ")
	b.WriteString(g.fieldList(offers, model.Enum, false))
	props := append(SpecializedHead(offers),
		Prop{"values", &Schema{Type: "array", Items: &Schema{Type: "string"}, MinItems: Count(1), UniqueItems: true}},
		Prop{"exclude", &Schema{Type: "boolean"}},
		g.limitProp(),
	)
	g.add(EnumFilterSearch, CategorySearch, b.String(), Object(props...).Require("entity_type", "field", "values"), offers)
}

// distanceSearch finds entities near a place, for point fields.
func (g *generator) distanceSearch() {
	offers := specializedOffers(g.m, DistanceSearch, model.Point, nil)
	if len(offers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("Find entities within radius_km of a place (WGS-84 latitude/longitude), nearest first, each with its distance in km.\nFields: ")
	b.WriteString(g.fieldList(offers, model.Point, false))
	props := append(SpecializedHead(offers),
		Prop{"latitude", &Schema{Type: "number", Minimum: Num(-90), Maximum: Num(90)}},
		Prop{"longitude", &Schema{Type: "number", Minimum: Num(-180), Maximum: Num(180)}},
		Prop{"radius_km", &Schema{Type: "number", ExclusiveMinimum: Num(0), Maximum: Num(20100)}},
		g.limitProp(),
	)
	g.add(DistanceSearch, CategorySearch, b.String(), Object(props...).Require("entity_type", "field", "latitude", "longitude", "radius_km"), offers)
}

// aggregateEntities computes COUNT, AVG, SUM, MIN, MAX, optionally per
// group: a field's values, a datetime field's buckets, or a property of
// the relationship over follows.
func (g *generator) aggregateEntities() {
	var offers []*EntityOffer
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
	b.WriteString("Compute COUNT, AVG, SUM, MIN or MAX of field (a number field; MIN and MAX also datetime; none for COUNT) over the entities meeting conditions (query_entities'), optionally per value of the group_by field (groups largest first; page with offset). bucket groups a datetime group_by by hour (2024-05-01T13), day (2024-05-01), weekday (Monday), month (2024-05) or year (2024), in UTC unless noted. having {operator, value} keeps the groups whose result passes it.")
	props := []Prop{
		EntityTypeProp(OfferEntities(offers)),
		{"operation", &Schema{Type: "string", Enum: Operations}},
		FieldProp("field"),
		FieldProp("group_by"),
		{"bucket", &Schema{Type: "string", Enum: Buckets}},
		Prop{"conditions", Ref(ConditionsDef)},
	}
	if len(g.c.edges) > 0 {
		b.WriteString(" over {via, direction, entity, conditions, relationship_conditions}, as in a relationship test, aggregates the entities related to the matching ones instead, each counted once per group (field is then a stored field of over.entity; e.g. AVG of Movie.released over the movies a Person acted in); over.group_by groups by a property of that relationship instead of group_by.")
		over := Object(append(g.relatedProps(), FieldProp("group_by"))...).Require("via")
		props = append(props, Prop{"over", over})
	}
	having := Object(
		Prop{"operator", &Schema{Type: "string", Enum: HavingOperators}},
		Prop{"value", &Schema{Type: "number"}},
	).Require("operator", "value")
	props = append(props, Prop{"having", having}, g.limitUpTo(l.MaxGroups), g.offsetProp())
	in := Object(props...).Require("entity_type", "operation")
	in.Defs = g.conditionDefs()
	g.add(AggregateEntities, CategoryAnalytics, b.String(), in, offers)
}

// runCypher is the optional raw-Cypher tool; the engine enforces what its
// description promises.
func (g *generator) runCypher() {
	var b strings.Builder
	b.WriteString("Run a read-only Cypher query when no other tool can express the question. DANGEROUS and limited: only statements that Neo4j classifies as read-only are accepted (no CREATE, MERGE, SET, DELETE, REMOVE, LOAD CSV, no procedures outside a small allowlist); the query runs in a read transaction with a timeout and a row cap. Prefer the other tools.\n\n")
	fmt.Fprintf(&b, "Labels: %s. Relationship types: %s.", strings.Join(g.m.EntityNames(), ", "), strings.Join(relationshipTypes(g.c.edges), ", "))
	in := Object(
		Prop{"query", &Schema{Type: "string", Description: "A read-only Cypher statement, with a LIMIT", MinLength: Count(1), MaxLength: Count(10000)}},
	).Require("query")
	g.add(RunCypher, CategoryCypher, b.String(), in, nil)
}

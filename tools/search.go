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
	in := object(
		entityTypeProp(offerEntities(offers)),
		prop{"query", &schema{Type: "string", MinLength: count(1), MaxLength: count(4000)}},
		prop{"index", &schema{Type: "string", Enum: indexNames}},
		prop{"top_k", &schema{Type: "integer", Default: l.DefaultTopK, Maximum: num(float64(l.MaxTopK))}},
		prop{"min_score", &schema{Type: "number", Default: DefaultMinScore, Minimum: num(0), Maximum: num(1)}},
		prop{"conditions", &schema{Type: "array", Items: fieldTest().require("field", "operator")}},
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
	b.WriteString("Rank entities by how well their full-text indexed fields match the words of query (Lucene); fuzzy tolerates typos. Indexed: ")
	for i, o := range offers {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(o.Entity.Name + ": " + strings.Join(o.fieldNames(), ", "))
	}
	b.WriteString(".")
	in := object(
		entityTypeProp(offerEntities(offers)),
		prop{"query", &schema{Type: "string", MinLength: count(1), MaxLength: count(1000)}},
		prop{"fields", &schema{Type: "array", Description: "Default: all indexed", Items: &schema{Type: "string"}, MinItems: count(1), UniqueItems: true}},
		prop{"fuzzy", &schema{Type: "boolean"}},
		prop{"min_score", &schema{Type: "number", Minimum: num(0)}},
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
func specializedHead(offers []*entityOffer) []prop {
	return []prop{entityTypeProp(offerEntities(offers)), fieldProp("field")}
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
	b.WriteString("Find entities whose string field matches pattern per mode, ignoring case unless case_sensitive.\nFields: ")
	b.WriteString(g.fieldList(offers, model.String, true))
	b.WriteString(modeNotes(offers, modes, patternHelp))
	def := modes[0]
	if slices.Contains(modes, "contains") {
		def = "contains"
	}
	props := append(specializedHead(offers),
		prop{"pattern", &schema{Type: "string", MinLength: count(1), MaxLength: count(1000)}},
		prop{"mode", &schema{Type: "string", Enum: modes, Default: def}},
		prop{"case_sensitive", &schema{Type: "boolean"}},
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
	b.WriteString("Find entities by comparing a number field with value per operator.\nFields: ")
	b.WriteString(g.fieldList(offers, model.Number, true))
	b.WriteString(modeNotes(offers, ops, numberHelp) + numberOrderHelp)
	props := append(specializedHead(offers),
		prop{"operator", &schema{Type: "string", Enum: ops}},
		prop{"value", &schema{Type: "number"}},
	)
	if slices.Contains(ops, "between") {
		props = append(props, prop{"upper_value", &schema{Type: "number"}})
	}
	if slices.Contains(ops, "approximately") {
		props = append(props, prop{"tolerance", &schema{Type: "number", Minimum: num(0)}})
	}
	if slices.Contains(ops, "rounded_equal") {
		props = append(props, prop{"round_to", &schema{Type: "number", Default: DefaultRoundTo, ExclusiveMinimum: num(0)}})
	}
	if slices.Contains(ops, "percentile") {
		props = append(props, prop{"percentile", &schema{Type: "number", Default: DefaultPercentile, Minimum: num(0), Maximum: num(100)}})
	}
	if slices.Contains(ops, "outlier") {
		props = append(props, prop{"k", &schema{Type: "number", Default: DefaultOutlierK, ExclusiveMinimum: num(0)}})
	}
	if slices.Contains(ops, "histogram") {
		props = append(props,
			prop{"buckets", &schema{Type: "integer", Default: DefaultBuckets, Maximum: num(float64(g.c.limits.MaxBuckets))}},
			prop{"bucket_width", &schema{Type: "number", ExclusiveMinimum: num(0)}})
	}
	props = append(props,
		prop{"order", &schema{Type: "string", Enum: Orders}},
		g.limitProp())
	g.add(NumberRangeSearch, CategorySearch, b.String(), object(props...).require("entity_type", "field", "operator"), offers)
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
	modes := unionModes(offers)
	var b strings.Builder
	b.WriteString("Find entities by when something happened, newest first: a datetime field before or after datetime, between start_datetime and end_datetime, or within relative_period up to now (relative).\nFields: ")
	b.WriteString(g.fieldList(offers, model.Datetime, true))
	b.WriteString(modeNotes(offers, modes, nil))
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
	dt := func() *schema { return &schema{Type: "string"} }
	props := append(specializedHead(offers),
		prop{"mode", &schema{Type: "string", Enum: modes, Default: def}},
		prop{"datetime", dt()},
		prop{"start_datetime", dt()},
		prop{"end_datetime", dt()},
	)
	if slices.Contains(modes, "relative") {
		props = append(props, prop{"relative_period", dt()})
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
	var b strings.Builder
	b.WriteString("Find entities whose enum field has one of values (exclude: none of them).\nFields: ")
	b.WriteString(g.fieldList(offers, model.Enum, false))
	props := append(specializedHead(offers),
		prop{"values", &schema{Type: "array", Items: &schema{Type: "string"}, MinItems: count(1), UniqueItems: true}},
		prop{"exclude", &schema{Type: "boolean"}},
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
	b.WriteString("Find entities within radius_km of a place (WGS-84 latitude/longitude), nearest first, each with its distance in km.\nFields: ")
	b.WriteString(g.fieldList(offers, model.Point, false))
	props := append(specializedHead(offers),
		prop{"latitude", &schema{Type: "number", Minimum: num(-90), Maximum: num(90)}},
		prop{"longitude", &schema{Type: "number", Minimum: num(-180), Maximum: num(180)}},
		prop{"radius_km", &schema{Type: "number", ExclusiveMinimum: num(0), Maximum: num(20100)}},
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
	b.WriteString("Compute COUNT, AVG, SUM, MIN or MAX of field (a number field; MIN and MAX also datetime; none for COUNT) over the entities meeting conditions (query_entities'), optionally per value of the group_by field (groups largest first; page with offset). bucket groups a datetime group_by by hour (2024-05-01T13), day (2024-05-01), weekday (Monday), month (2024-05) or year (2024), in UTC unless noted. having {operator, value} keeps the groups whose result passes it.")
	props := []prop{
		entityTypeProp(offerEntities(offers)),
		{"operation", &schema{Type: "string", Enum: Operations}},
		fieldProp("field"),
		fieldProp("group_by"),
		{"bucket", &schema{Type: "string", Enum: Buckets}},
		prop{"conditions", ref(conditionsDef)},
	}
	if len(g.c.edges) > 0 {
		b.WriteString(" over {via, direction, entity, conditions, relationship_conditions}, as in a relationship test, aggregates the entities related to the matching ones instead, each counted once per group (field is then a stored field of over.entity; e.g. AVG of Movie.released over the movies a Person acted in); over.group_by groups by a property of that relationship instead of group_by.")
		over := object(append(g.relatedProps(), fieldProp("group_by"))...).require("via")
		props = append(props, prop{"over", over})
	}
	having := object(
		prop{"operator", &schema{Type: "string", Enum: HavingOperators}},
		prop{"value", &schema{Type: "number"}},
	).require("operator", "value")
	props = append(props, prop{"having", having}, g.limitUpTo(l.MaxGroups), g.offsetProp())
	in := object(props...).require("entity_type", "operation")
	in.Defs = g.conditionDefs()
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

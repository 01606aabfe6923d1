package tools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// relationalConditionsProp is the conditions list of query_entities and
// aggregate_entities. Each item is one object whose properties make it a
// field test, a relationship test or an any_of / not group; Parse checks
// it is exactly one. One object rather than anyOf alternatives keeps the
// schema short and lets a misspelt field be reported with its valid
// choices. Only the top level lists the field names: nested tests (in
// groups and relationship tests) take a field name as a string, checked
// by Parse against what they test, so the names are not repeated.
func (g *generator) relationalConditionsProp(name string, offers []*entityOffer, desc string) prop {
	nested := liteTest()
	if len(g.c.edges) > 0 {
		nested.Props = append(nested.Props, g.viaProps()...)
	}
	nested.Required = nil
	list := func(d string) *schema {
		return &schema{Type: "array", Description: d, MinItems: count(1), MaxItems: count(maxConditions), Items: nested}
	}
	top := fieldTest(unionFields(offers), unionModes(offers), "Field of the entity (computed fields included)")
	if len(g.c.edges) > 0 {
		top.Props = append(top.Props, g.viaProps()...)
	}
	top.Required = nil
	top.Props = append(top.Props,
		prop{"any_of", list("Group: at least one of these holds")},
		prop{"not", list("Group: these do not all hold (an entity without a value does not meet a test on it)")},
	)
	return prop{name, &schema{Type: "array", Description: desc, MaxItems: count(maxConditions), Items: top}}
}

// liteTest is a field test whose field and operator are any string
// (Parse checks them against what the test reads and lists the valid
// choices): the items of nested condition lists.
func liteTest() *schema {
	return object(
		prop{"field", &schema{Type: "string"}},
		prop{"operator", &schema{Type: "string"}},
		prop{"value", valueSchema("")},
		prop{"ignore_case", &schema{Type: "boolean"}},
	).require("field", "operator")
}

// viaProps are the properties of a relationship test.
func (g *generator) viaProps() []prop {
	return append(g.relatedProps(),
		prop{"quantifier", &schema{Type: "string", Enum: Quantifiers}},
		prop{"count", object(
			prop{"operator", &schema{Type: "string", Enum: CountOperators}},
			prop{"value", &schema{Type: "integer", Minimum: num(0)}},
		).require("operator", "value")},
	)
}

// relatedProps are the properties that name a hop to related entities:
// via, direction, entity, conditions and relationship_conditions.
func (g *generator) relatedProps() []prop {
	list := func(d string) *schema {
		return &schema{Type: "array", Description: d, MaxItems: count(maxConditions), Items: liteTest()}
	}
	return []prop{
		{"via", &schema{Type: "string", Description: "Relationship type (a relationship test)", Enum: relationshipTypes(g.c.edges)}},
		{"direction", &schema{Type: "string", Enum: Directions}},
		{"entity", &schema{Type: "string", Description: "Type of the related entities", Enum: g.edgeEntities()}},
		{"conditions", list("Tests on the related entity's stored fields")},
		{"relationship_conditions", list("Tests on the relationship's properties")},
	}
}

// edgeEntities lists the entities at either end of a relationship, in
// model order.
func (g *generator) edgeEntities() []string {
	var out []string
	for _, e := range g.c.edges {
		for _, n := range []string{e.From, e.To} {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return orderLike(out, g.m.EntityNames())
}

// queryOffersOf is query_entities' offers for the named entities.
func (g *generator) queryOffersOf(names []string) []*entityOffer {
	var out []*entityOffer
	for _, o := range queryOffers(g.m) {
		if slices.Contains(names, o.Entity.Name) {
			out = append(out, o)
		}
	}
	return out
}

// orderByProp accepts one sort key or a list of them.
func orderByProp(fields []string, desc string) prop {
	key := object(
		fieldProp("field", fields, "Field or computed field to sort by (entities without a value last)"),
		prop{"direction", &schema{Type: "string", Enum: []string{"ASC", "DESC"}, Default: "ASC"}},
	).require("field")
	return prop{"order_by", &schema{Description: desc, AnyOf: []*schema{key, {Type: "array", Items: key, MinItems: count(1), MaxItems: count(maxOrderKeys)}}}}
}

// relationalHelp is the part of the query_entities and aggregate_entities
// descriptions that explains relationship tests and groups.
func (g *generator) relationalHelp() string {
	if len(g.c.edges) == 0 {
		return "Groups: {\"any_of\": [conditions]} holds when one holds; {\"not\": [conditions]} when they do not all hold.\n"
	}
	var b strings.Builder
	b.WriteString("Relationships (the arrow is the stored direction):\n")
	for _, e := range mergeTargets(g.c.edges) {
		b.WriteString("- " + e.String() + "\n")
	}
	b.WriteString(`Relationship tests: {"via": TYPE, "direction": "outgoing"|"incoming"|"both", "entity": TYPE, "quantifier": "some"|"none"|"all", "conditions": [tests on the related entity's stored fields], "relationship_conditions": [tests on the relationship's properties]} holds when some (default), none or all (at least one, each meeting them) of the related entities meet the conditions; "count": {"operator": ">=", "value": 3} compares how many do instead. `)
	b.WriteString(`Groups: {"any_of": [conditions]} holds when one holds; {"not": [conditions]} when they do not all hold.` + "\n")
	return b.String()
}

// findPaths generates find_paths when the model has relationships.
func (g *generator) findPaths() {
	if len(g.c.edges) == 0 {
		return
	}
	var offers []*entityOffer
	for _, e := range g.m.Entities {
		if len(g.c.typesOf(e.Name)) == 0 || e.Field(e.UniqueField) == nil {
			continue
		}
		offers = append(offers, &entityOffer{Entity: e, Fields: []*fieldOffer{{Field: e.Field(e.UniqueField)}}})
	}
	if len(offers) == 0 {
		return
	}
	l := g.c.limits
	var b strings.Builder
	fmt.Fprintf(&b, "Find the shortest path(s) between two entities, given by their unique ids, over the chosen relationship types (default all), at most max_length relationships long (default %d, at most %d). Each path lists its nodes (entity_type, id, properties) and its relationships (type, from and to ids, properties) in order from the first entity; no path within max_length gives no rows.\n\n", min(DefaultPathLength, l.MaxPathLength), l.MaxPathLength)
	b.WriteString("Relationships (the arrow is the stored direction):\n")
	for _, e := range mergeTargets(g.c.edges) {
		b.WriteString("- " + e.String() + "\n")
	}
	b.WriteString("Unique ids: " + uniqueFields(entitiesOf(offers)) + ".")
	id := func(desc string) *schema {
		return &schema{Description: desc, AnyOf: []*schema{{Type: "string"}, {Type: "number"}}}
	}
	in := object(
		prop{"from_entity_type", &schema{Type: "string", Description: "Type of the first entity", Enum: offerEntities(offers)}},
		prop{"from_id", id("Unique id of the first entity")},
		prop{"to_entity_type", &schema{Type: "string", Description: "Type of the second entity", Enum: offerEntities(offers)}},
		prop{"to_id", id("Unique id of the second entity")},
		prop{"relationship_types", &schema{Type: "array", Description: "Relationship types a path may use (default: all)", Items: &schema{Type: "string", Enum: relationshipTypes(g.c.edges)}, MinItems: count(1), UniqueItems: true}},
		prop{"direction", &schema{Type: "string", Description: "both (default) ignores the stored direction; outgoing follows it from the first entity; incoming goes against it", Enum: []string{string(model.Both), string(model.Outgoing), string(model.Incoming)}, Default: string(model.Both)}},
		prop{"max_length", &schema{Type: "integer", Description: "Most relationships in a path", Default: min(DefaultPathLength, l.MaxPathLength), Minimum: num(1), Maximum: num(float64(l.MaxPathLength))}},
		prop{"all", &schema{Type: "boolean", Description: "Return every shortest path (up to limit), not just one", Default: false}},
		g.limitProp(),
	).require("from_entity_type", "from_id", "to_entity_type", "to_id")
	g.add(FindPaths, CategoryGraph, b.String(), in, offers)
}

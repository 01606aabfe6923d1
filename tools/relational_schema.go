package tools

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// conditionDef, conditionsDef (a list of them) and testDef name the
// definitions in a tool's $defs.
const (
	conditionDef  = "condition"
	conditionsDef = "conditions"
	testDef       = "test"
)

// ref refers to a definition of the tool's $defs.
func ref(def string) *schema { return &schema{Ref: "#/$defs/" + def} }

// conditionsProp is a list of conditions, each the tool's condition
// definition (def: conditionDef or testDef). Its length, like every nested
// list's, is checked by Parse.
func conditionsProp(name, def string) prop {
	return prop{name, &schema{Type: "array", Items: ref(def)}}
}

// fieldTest is one {field, operator, value, ignore_case} test. Field and
// operator are plain strings: the description lists them once, and Parse
// checks each against what the test reads, naming the valid choices.
// Parse also checks the value against the field's type.
func fieldTest() *schema {
	return object(
		prop{"field", &schema{Type: "string"}},
		prop{"operator", &schema{Type: "string"}},
		prop{"value", &schema{Types: []string{"string", "number", "boolean", "array"}}},
		prop{"ignore_case", &schema{Type: "boolean"}},
	)
}

// testDefs is the definition of the field tests that explore_relationships
// and semantic_search take (their conditions are field tests).
func testDefs() []prop { return []prop{{testDef, fieldTest().require("field", "operator")}} }

// conditionDefs is the condition grammar of a tool that takes conditions,
// written once in its $defs and referred to at every level it nests to: a
// field test, a relationship test (when the model has relationships) or an
// any_of / not group, as one object whose properties say which (Parse
// checks it is exactly one). Related entities, like fields, are plain
// strings checked by Parse; the short closed sets keep their enums.
func (g *generator) conditionDefs() []prop {
	c := fieldTest()
	if len(g.c.edges) > 0 {
		c.Props = append(c.Props, g.relatedProps()...)
		c.Props = append(c.Props,
			prop{"quantifier", &schema{Type: "string", Enum: Quantifiers}},
			prop{"count", object(
				prop{"operator", &schema{Type: "string"}},
				prop{"value", &schema{Type: "integer"}},
			).require("operator", "value")},
		)
	}
	c.Props = append(c.Props,
		prop{"any_of", ref(conditionsDef)},
		prop{"not", ref(conditionsDef)},
	)
	return []prop{{conditionsDef, &schema{Type: "array", Items: ref(conditionDef)}}, {conditionDef, c}}
}

// relatedProps are the properties that name a hop to related entities:
// via, direction, entity, conditions and relationship_conditions.
func (g *generator) relatedProps() []prop {
	return []prop{
		{"via", &schema{Type: "string", Enum: relationshipTypes(g.c.edges)}},
		{"direction", &schema{Type: "string", Enum: Directions}},
		{"entity", &schema{Type: "string"}},
		{"conditions", ref(conditionsDef)},
		{"relationship_conditions", ref(conditionsDef)},
	}
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

// orderByProp is a list of sort keys, most significant first. Parse
// also takes one key alone (the older form), as a list of it, and bounds
// the keys (maxOrderKeys); a key is ascending unless it says DESC, as in
// ORDER BY.
func orderByProp() prop {
	return prop{"order_by", &schema{Type: "array", Items: object(
		prop{"field", &schema{Type: "string"}},
		prop{"direction", &schema{Type: "string", Enum: []string{"ASC", "DESC"}}},
	).require("field")}}
}

// conditionHelp explains the condition grammar once, in query_entities;
// the other tools that take conditions refer to it.
func (g *generator) conditionHelp(offers []*entityOffer) string {
	ops, _ := operatorSummary(offers)
	var b strings.Builder
	b.WriteString("Conditions (all must hold), each one of:\n")
	b.WriteString("- {field, operator, value, ignore_case}: value a list for IN/NOT IN, none for IS (NOT) NULL; ignore_case for strings. Operators: " + ops + "\n")
	if len(g.c.edges) > 0 {
		b.WriteString("- {via, direction, entity, quantifier, conditions, relationship_conditions}: some (default), none or all (at least one, and each) of the entities related by via (direction from the tested entity; default: the stored one) meet conditions on their stored fields and relationship_conditions on the relationship's properties; count {operator, value} compares how many do\n")
	}
	b.WriteString("- {any_of: [conditions]}: one holds; {not: [conditions]}: not all hold\n")
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
	b.WriteString("Find the shortest path (all: every shortest one, up to limit) between two entities given by unique id, over relationship_types (default all), at most max_length long; direction both ignores stored arrows, outgoing follows them from the first entity, incoming goes against them. A path lists its nodes (entity_type, id, properties) and relationships (type, from/to ids, properties); none found: no rows.\n")
	b.WriteString(g.relationshipsRef())
	in := object(
		prop{"from_entity_type", &schema{Type: "string", Enum: offerEntities(offers)}},
		prop{"from_id", &schema{Types: []string{"string", "number"}}},
		prop{"to_entity_type", &schema{Type: "string", Enum: offerEntities(offers)}},
		prop{"to_id", &schema{Types: []string{"string", "number"}}},
		prop{"relationship_types", &schema{Type: "array", Items: &schema{Type: "string"}, MinItems: count(1), UniqueItems: true}},
		prop{"direction", &schema{Type: "string", Enum: []string{string(model.Both), string(model.Outgoing), string(model.Incoming)}, Default: string(model.Both)}},
		prop{"max_length", &schema{Type: "integer", Default: min(DefaultPathLength, l.MaxPathLength), Maximum: num(float64(l.MaxPathLength))}},
		prop{"all", &schema{Type: "boolean"}},
		g.limitProp(),
	).require("from_entity_type", "from_id", "to_entity_type", "to_id")
	g.add(FindPaths, CategoryGraph, strings.TrimSpace(b.String()), in, offers)
}

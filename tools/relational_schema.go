package tools

import (
	"strings"
)

// conditionDef, conditionsDef (a list of them) and testDef name the
// definitions in a tool's $defs.
const (
	conditionDef  = "condition"
	ConditionsDef = "conditions"
	TestDef       = "test"
)

// Ref refers to a definition of the tool's $defs.
func Ref(def string) *Schema { return &Schema{Ref: "#/$defs/" + def} }

// ConditionsProp is a list of conditions, each the tool's condition
// definition (def: conditionDef or testDef). Its length, like every nested
// list's, is checked by Parse.
func ConditionsProp(name, def string) Prop {
	return Prop{name, &Schema{Type: "array", Items: Ref(def)}}
}

// FieldTest is one {field, operator, value, ignore_case} test. Field and
// operator are plain strings: the description lists them once, and Parse
// checks each against what the test reads, naming the valid choices.
// Parse also checks the value against the field's type.
func FieldTest() *Schema {
	return Object(
		Prop{"field", &Schema{Type: "string"}},
		Prop{"operator", &Schema{Type: "string"}},
		Prop{"value", &Schema{}},
		Prop{"ignore_case", &Schema{Type: "boolean"}},
	)
}

// TestDefs is the definition of the field tests that explore_relationships
// and semantic_search take (their conditions are field tests).
func TestDefs() []Prop { return []Prop{{TestDef, FieldTest().Require("field", "operator")}} }

// ConditionDefs is the condition grammar of a tool that takes conditions,
// written once in its $defs and referred to at every level it nests to: a
// field test, a relationship test (when the model has relationships) or an
// any_of / not group, as one object whose properties say which (Parse
// checks it is exactly one). Relationship types and related entities,
// like fields, are plain strings checked by Parse (the graph schema lists
// them); the short closed sets keep their enums.
func (g *Generator) ConditionDefs() []Prop {
	c := FieldTest()
	if len(g.c.edges) > 0 {
		c.Props = append(c.Props, g.RelatedProps()...)
		c.Props = append(c.Props,
			Prop{"quantifier", &Schema{Type: "string"}},
			Prop{"count", Object(
				Prop{"operator", &Schema{Type: "string"}},
				Prop{"value", &Schema{Type: "integer"}},
			).Require("operator", "value")},
			Prop{"as", &Schema{Type: "string"}},
		)
	}
	c.Props = append(c.Props,
		Prop{"any_of", Ref(ConditionsDef)},
		Prop{"not", Ref(ConditionsDef)},
	)
	return []Prop{{ConditionsDef, &Schema{Type: "array", Items: Ref(conditionDef)}}, {conditionDef, c}}
}

// RelatedProps are the properties that name a hop to related entities:
// via, direction, entity, conditions and relationship_conditions.
func (g *Generator) RelatedProps() []Prop {
	return []Prop{
		{"via", &Schema{Type: "string"}},
		{"direction", &Schema{Type: "string", Enum: Directions}},
		{"entity", &Schema{Type: "string"}},
		{"conditions", Ref(ConditionsDef)},
		{"relationship_conditions", Ref(ConditionsDef)},
	}
}

// OrderByProp is a list of sort keys, most significant first. Parse
// also takes one key alone (the older form), as a list of it, and bounds
// the keys (maxOrderKeys); a key is ascending unless it says DESC, as in
// ORDER BY.
func OrderByProp() Prop {
	return Prop{"order_by", &Schema{Type: "array", Items: orderKey().Require("field")}}
}

// RelationshipOrderByProp is order_by whose keys name a field or a
// relationship_field (Parse checks each names one).
func RelationshipOrderByProp() Prop {
	k := orderKey()
	k.Props = append(k.Props[:1:1], Prop{"relationship_field", &Schema{Type: "string"}}, k.Props[1])
	return Prop{"order_by", &Schema{Type: "array", Items: k}}
}

// orderKey is one sort key: field and direction.
func orderKey() *Schema {
	return Object(
		Prop{"field", &Schema{Type: "string"}},
		Prop{"direction", &Schema{Type: "string", Enum: []string{"ASC", "DESC"}}},
	)
}

// ConditionHelp explains the condition grammar once, in query_entities;
// the other tools that take conditions refer to it. Its aggregate tests
// are query_entities' (WithAggregateTest).
func (g *Generator) ConditionHelp(offers []*EntityOffer) string {
	ops, _ := operatorSummary(offers)
	var b strings.Builder
	b.WriteString("Conditions (all hold), each:\n")
	b.WriteString("- {field, operator, value, ignore_case}: value a list for IN/NOT IN, none for IS (NOT) NULL. Operators: " + ops + "\n")
	b.WriteString(listHelp(g.m))
	if len(g.c.edges) > 0 {
		b.WriteString("- {via, …}: some (default), none or all entities related by via (direction from the tested one, default stored) meet conditions and relationship_conditions (on the relationship); count {operator, value} of them; aggregate 'AVG relationship.rating' ('SUM released', 'COUNT relationship'; then: path) in aggregates, order_by avg_REVIEWED_rating; operator, value compare it; tests sharing an as are about one entity\n")
	}
	b.WriteString("- {any_of: [conditions]}: one holds; {not: [conditions]}: not all\n")
	return b.String()
}

package tools

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// RelatedAggregate is a value of each entity computed from the entities
// related to it (issue 31: "movies by average review rating" in one
// call): the hop as a relationship test names it, Then the further hops
// from the related entity (a path, at most MaxAggregateHops in all), and
// the operation over the last hop. COUNT counts its related entities,
// each once (the count test of a relationship condition, as a value), or
// with RelationshipField the relationships that have it; SUM, AVG, MIN
// and MAX aggregate Field, a number field of the related entities (each
// once), or RelationshipField, a number property or computed field of the
// last hop's relationships (each once). Without related entities COUNT
// and SUM are 0, AVG, MIN and MAX null.
type RelatedAggregate struct {
	Related
	Then              []Related `json:"then,omitempty"`
	Operation         string    `json:"operation"`
	Field             string    `json:"field,omitempty"`
	RelationshipField string    `json:"relationship_field,omitempty"`
}

// AggregateOperations are the operations of a RelatedAggregate.
var AggregateOperations = []string{"COUNT", "SUM", "AVG", "MIN", "MAX"}

// MaxAggregateHops bounds the hops of a RelatedAggregate's path.
const MaxAggregateHops = 3

// Hops lists the aggregate's hops, first to last.
func (a *RelatedAggregate) Hops() []Related { return append([]Related{a.Related}, a.Then...) }

// Key names the aggregate's value in a result: the operation, the
// relationship types of its path and the field, as
// avg_REVIEWED_rating or count_DIRECTED.
func (a *RelatedAggregate) Key() string {
	parts := []string{strings.ToLower(a.Operation)}
	for _, h := range a.Hops() {
		parts = append(parts, h.Via)
	}
	if f := a.Field + a.RelationshipField; f != "" {
		parts = append(parts, f)
	}
	return strings.Join(parts, "_")
}

// checkAggregate checks the aggregate at pointer at of entity start: each
// hop from the entity the one before reaches, the operation, and the
// aggregated field, naming the valid choices of each.
func (c *Catalog) checkAggregate(start string, a *RelatedAggregate, at string, depth int, p *problems) {
	if len(a.Then)+1 > MaxAggregateHops {
		p.add(at+"/then", "an aggregate follows at most %d hops (then holds at most %d)", MaxAggregateHops, MaxAggregateHops-1)
		return
	}
	from, last := start, &a.Related
	if !c.checkRelated(from, last, at, depth, p) {
		return
	}
	for i := range a.Then {
		if last.Entity == "" {
			p.choose(at+"/entity", c.targets(from, last.Via, last.Direction), "then continues from one entity type; name it")
			return
		}
		from, last = last.Entity, &a.Then[i]
		if !c.checkRelated(from, last, at+Pointer("then", i), depth, p) {
			return
		}
	}
	if !slices.Contains(AggregateOperations, a.Operation) {
		p.choose(at+"/operation", AggregateOperations, "unknown operation %q", a.Operation)
		return
	}
	var o *EntityOffer
	fat, name := at+"/field", a.Field
	switch {
	case a.Field != "" && a.RelationshipField != "":
		p.add(at, "give field (of %s) or relationship_field (of %s), not both", last.Entity, last.Via)
		return
	case a.RelationshipField != "":
		o, fat, name = relationshipOffer(c.edges, from, last.Via), at+"/relationship_field", a.RelationshipField
	case a.Field != "" || a.Operation != "COUNT":
		if last.Entity == "" {
			p.choose(at+"/entity", c.targets(from, last.Via, last.Direction), "a field of related entities needs their entity type")
			return
		}
		if o = c.relatedOffer(last.Entity, at+"/entity", p); o == nil {
			return
		}
	default:
		return
	}
	f := o.Field(name)
	if f != nil && (a.Operation == "COUNT" || f.Field.Type.Kind() == model.Number) {
		return
	}
	var numbers []string
	for _, g := range o.Fields {
		if g.Field.Type.Kind() == model.Number {
			numbers = append(numbers, g.Field.Name)
		}
	}
	switch {
	case name == "":
		p.choose(fat, numbers, "%s needs field (a number field of %s) or relationship_field (a number property of %s)", a.Operation, last.Entity, last.Via)
	case f == nil && a.Operation == "COUNT":
		p.choose(fat, o.FieldNames(), "%q is not a field of %s", name, o.Entity.Name)
	case f == nil:
		p.choose(fat, numbers, "%q is not a number field of %s", name, o.Entity.Name)
	default:
		p.choose(fat, numbers, "%s cannot aggregate %s, a %s field of %s: give a number field", a.Operation, name, f.Field.Type, o.Entity.Name)
	}
}

// checkAggregateTest checks an aggregate test {aggregate, operator,
// value} of entity start, converting the value to a float64.
func (c *Catalog) checkAggregateTest(start string, cond *Condition, at string, depth int, p *problems) {
	c.checkAggregate(start, cond.Aggregate, at+"/aggregate", depth, p)
	if !slices.Contains(HavingOperators, cond.Operator) {
		p.choose(at+"/operator", HavingOperators, "an aggregate compares with a number: unknown operator %q", cond.Operator)
		return
	}
	n, ok := cond.Value.(json.Number)
	if !ok {
		p.add(at+"/value", "an aggregate compares with a number; give one")
		return
	}
	x, err := n.Float64()
	if err != nil {
		p.add(at+"/value", "%s is out of range", n)
		return
	}
	cond.Value = x
}

// AggregateDef names the definition of a RelatedAggregate in the $defs of
// a tool that takes one (query_entities).
const AggregateDef = "aggregate"

// AggregateDefs is the definition of a RelatedAggregate: a hop as a
// relationship test names it, then (further hops), operation, and field
// or relationship_field.
func (g *Generator) AggregateDefs() Prop {
	props := append(g.RelatedProps(),
		Prop{"then", &Schema{Type: "array", Items: Object(g.RelatedProps()...).Require("via")}},
		Prop{"operation", &Schema{Type: "string", Enum: AggregateOperations}},
		FieldProp("field"),
		FieldProp("relationship_field"),
	)
	return Prop{AggregateDef, Object(props...).Require("via", "operation")}
}

// AggregateOrderByProp is order_by whose keys name a field or an
// aggregate (Parse checks each names one).
func AggregateOrderByProp() Prop {
	k := orderKey()
	k.Props = append(k.Props[:1:1], Prop{"aggregate", Ref(AggregateDef)}, k.Props[1])
	return Prop{"order_by", &Schema{Type: "array", Items: k}}
}

// WithAggregateTest adds the aggregate test {aggregate, operator, value}
// to the condition definition of defs (ConditionDefs), for the tool that
// plans it (query_entities).
func WithAggregateTest(defs []Prop) {
	for _, d := range defs {
		if d.Name == conditionDef {
			d.Schema.Props = append(d.Schema.Props, Prop{"aggregate", Ref(AggregateDef)})
		}
	}
}

package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// RelatedAggregate is a value of each entity computed from the entities
// related to it (issue 31: "movies by average review rating" in one
// call), as an aggregate test names it: the hop of the relationship
// test, Then the further hops from the related entity (a path, at most
// Limits.MaxDepth in all, the depth bound of every traversal), and the operation over the last hop. COUNT
// counts its related entities, each once (the count test's number), or
// with Relationships its relationships (each once), or with a field the
// values there; SUM, AVG, MIN and MAX aggregate Field, a number field of
// the related entities (each once), or RelationshipField, a number
// property or computed field of the last hop's relationships (each once).
// Without related entities COUNT and SUM are 0, AVG, MIN and MAX null.
type RelatedAggregate struct {
	Related
	Then              []Related
	Operation         string
	Field             string
	RelationshipField string
	Relationships     bool
}

// AggregateOperations are the operations of a RelatedAggregate.
var AggregateOperations = []string{"COUNT", "SUM", "AVG", "MIN", "MAX"}

// relationshipPrefix starts an aggregated field that is a property of the
// relationship: "AVG relationship.rating"; "COUNT relationship" counts
// the relationships.
const relationshipPrefix = "relationship"

// ParseAggregate reads an aggregate test's aggregate: "COUNT" (the
// related entities), "COUNT relationship" (the relationships), or an
// operation and what it aggregates, "AVG released" (a field of the
// related entity) or "AVG relationship.rating" (a property of the
// relationship).
func ParseAggregate(s string) (op, field, relField string, rels bool, err error) {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 2 || !slices.Contains(AggregateOperations, strings.ToUpper(words[0])) {
		return "", "", "", false, fmt.Errorf("%q is not an aggregate: give an operation (%s) and, but for COUNT, a field of the related entity or relationship.<property>: \"AVG relationship.rating\", \"SUM released\", \"COUNT\", \"COUNT relationship\"", s, strings.Join(AggregateOperations, ", "))
	}
	op = strings.ToUpper(words[0])
	if len(words) == 1 {
		return op, "", "", false, nil
	}
	switch w := words[1]; {
	case w == relationshipPrefix:
		return op, "", "", true, nil
	case strings.HasPrefix(w, relationshipPrefix+"."):
		return op, "", strings.TrimPrefix(w, relationshipPrefix+"."), false, nil
	default:
		return op, w, "", false, nil
	}
}

// RelatedAggregate is the aggregate an aggregate test names (a
// relationship test with aggregate), or the error of its aggregate text.
func (c *Condition) RelatedAggregate() (*RelatedAggregate, error) {
	op, field, relField, rels, err := ParseAggregate(c.Aggregate)
	if err != nil {
		return nil, err
	}
	a := &RelatedAggregate{Related: c.Hop(), Operation: op, Field: field, RelationshipField: relField, Relationships: rels}
	for i := range c.Then {
		a.Then = append(a.Then, c.Then[i].Hop())
	}
	return a, nil
}

// Hop is the hop of a relationship test: its via, direction, entity and
// conditions.
func (c *Condition) Hop() Related {
	return Related{Via: c.Via, Direction: c.Direction, Entity: c.Entity, Conditions: c.Conditions, RelationshipConditions: c.RelationshipConditions}
}

// Hops lists the aggregate's hops, first to last.
func (a *RelatedAggregate) Hops() []Related { return append([]Related{a.Related}, a.Then...) }

// Key names the aggregate's value in a result and in order_by: the
// operation, the relationship types of its path and the field, as
// avg_REVIEWED_rating, count_DIRECTED or count_ORDERS_relationships.
func (a *RelatedAggregate) Key() string {
	parts := []string{strings.ToLower(a.Operation)}
	for _, h := range a.Hops() {
		parts = append(parts, h.Via)
	}
	if a.Relationships {
		parts = append(parts, "relationships")
	}
	if f := a.Field + a.RelationshipField; f != "" {
		parts = append(parts, f)
	}
	return strings.Join(parts, "_")
}

// UniqueKey is key when taken does not hold it, else the first of key_2,
// key_3, … that it does not: two aggregates of one key (other hops'
// conditions) are told apart in the order the call gives them, the same
// way in the checker (order_by) and the planner (the result's keys).
func UniqueKey(key string, taken func(string) bool) string {
	k := key
	for n := 2; taken(k); n++ {
		k = key + "_" + strconv.Itoa(n)
	}
	return k
}

// checkAggregateTest checks an aggregate test, a relationship test from
// entity start with aggregate whose hop checkVia has checked: the
// further hops, the aggregated field (naming the valid choices), and the
// comparison, its value converted to a float64. Without an operator the
// test only computes the value, which a test nested in any_of, not or a
// related entity's conditions cannot return.
func (c *Catalog) checkAggregateTest(start string, cond *Condition, at string, depth int, p *problems) {
	if (cond.Quantifier != "" && cond.Quantifier != QuantifierSome) || cond.Count != nil {
		p.add(at+"/aggregate", "aggregate replaces quantifier and count; leave them out")
		return
	}
	a, err := cond.RelatedAggregate()
	if err != nil {
		p.add(at+"/aggregate", "%v", err)
		return
	}
	if max := c.limits.MaxDepth; len(cond.Then)+1 > max {
		p.add(at+"/then", "an aggregate follows at most %d hops (then holds at most %d)", max, max-1)
		return
	}
	if !c.checkAggregate(start, cond, a, at, depth, p) {
		return
	}
	switch {
	case cond.Operator == "" && cond.Value == nil:
		if depth > 0 {
			p.add(at+"/operator", "an aggregate without operator only returns its value, which a nested test cannot: compare it (operator, value)")
		}
	case !slices.Contains(HavingOperators, cond.Operator):
		p.choose(at+"/operator", HavingOperators, "an aggregate compares with a number: unknown operator %q", cond.Operator)
	default:
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
}

// checkAggregate checks the further hops of aggregate test cond from
// entity start (each from the entity the one before reaches, direction
// and entity filled), and what a aggregates, naming the valid choices;
// it reports false on a problem.
func (c *Catalog) checkAggregate(start string, cond *Condition, a *RelatedAggregate, at string, depth int, p *problems) bool {
	from, last := start, a.Related
	for i := range cond.Then {
		t, tat := &cond.Then[i], at+Pointer("then", i)
		if t.Via == "" || t.Field != "" || t.AnyOf != nil || t.Not != nil || t.Quantifier != "" || t.Count != nil || t.Aggregate != "" || t.Then != nil || t.Operator != "" {
			p.add(tat, "a hop of then is {via, direction, entity, conditions, relationship_conditions}")
			return false
		}
		if last.Entity == "" {
			p.choose(at+"/entity", c.targets(from, last.Via, last.Direction), "then continues from one entity type; name it")
			return false
		}
		h := t.Hop()
		if !c.checkRelated(last.Entity, &h, tat, depth+1, p) {
			return false
		}
		t.Direction, t.Entity = h.Direction, h.Entity
		from, last = last.Entity, h
	}
	var o *EntityOffer
	fat, name := at+"/aggregate", a.Field
	switch {
	case a.Relationships && a.Operation != "COUNT":
		p.add(fat, "%s relationship: give a property, %s relationship.<property> (COUNT relationship counts them)", a.Operation, a.Operation)
		return false
	case a.RelationshipField != "":
		o, name = relationshipOffer(c.edges, from, last.Via), a.RelationshipField
	case a.Field != "" || a.Operation != "COUNT":
		if last.Entity == "" {
			p.choose(at+"/entity", c.targets(from, last.Via, last.Direction), "a field of related entities needs their entity type")
			return false
		}
		if o = c.relatedOffer(last.Entity, at+"/entity", p); o == nil {
			return false
		}
	default:
		return true
	}
	f := o.Field(name)
	if f != nil && (a.Operation == "COUNT" || f.Field.Type.Kind() == model.Number) {
		return true
	}
	var numbers []string
	for _, g := range o.Fields {
		if g.Field.Type.Kind() == model.Number {
			numbers = append(numbers, g.Field.Name)
		}
	}
	switch {
	case name == "":
		p.choose(fat, numbers, "%s needs a number field of %s (%s <field>) or of %s (%s relationship.<property>)", a.Operation, last.Entity, a.Operation, last.Via, a.Operation)
	case f == nil && a.Operation == "COUNT":
		p.choose(fat, o.FieldNames(), "%q is not a field of %s", name, o.Entity.Name)
	case f == nil:
		p.choose(fat, numbers, "%q is not a number field of %s", name, o.Entity.Name)
	default:
		p.choose(fat, numbers, "%s cannot aggregate %s, a %s field of %s: give a number field", a.Operation, name, f.Field.Type, o.Entity.Name)
	}
	return false
}

// WithAggregateTest adds aggregate and then to the relationship test of
// the condition definition of defs (ConditionDefs), for the tool that
// plans aggregate tests (query_entities).
func WithAggregateTest(defs []Prop) {
	for _, d := range defs {
		if d.Name == conditionDef {
			d.Schema.Props = append(d.Schema.Props, Prop{"aggregate", &Schema{}}, Prop{"then", Ref(ConditionsDef)})
		}
	}
}

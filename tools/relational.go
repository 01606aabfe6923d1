package tools

import (
	"slices"

	"github.com/ragforge/ragforge/model"
)

// IgnoreCaseOperators are the condition operators ignore_case applies to
// (on string fields).
var IgnoreCaseOperators = []string{"=", "!=", "CONTAINS", "STARTS WITH", "ENDS WITH", "IN", "NOT IN"}

// maxConditionDepth bounds how deeply groups and relationship conditions
// nest, so a runaway call cannot build a statement of unbounded size.
const maxConditionDepth = 4

// checkConds checks conditions at JSON pointer base against offer o; each
// is a field test, a relationship test or a group (see [Condition]).
func (c *Catalog) checkConds(o *EntityOffer, conds []Condition, base string, depth int, p *problems) {
	if len(conds) > maxConditions {
		p.add(base, "at most %d conditions in one list", maxConditions)
		return
	}
	for i := range conds {
		cond := &conds[i]
		at := base + Pointer(i)
		kinds := 0
		for _, set := range []bool{cond.Field != "", cond.Via != "", cond.AnyOf != nil, cond.Not != nil} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			p.add(at, "a condition is exactly one of: a field test (field, operator, value), a relationship test (via, …), any_of or not")
			continue
		}
		if depth >= maxConditionDepth && cond.Field == "" {
			p.add(at, "conditions nest at most %d levels deep", maxConditionDepth)
			continue
		}
		switch {
		case cond.Field != "":
			checkField(o, cond, at, p)
		case cond.Via != "":
			c.checkVia(o.Entity.Name, cond, at, depth, p)
		case cond.AnyOf != nil:
			if len(cond.AnyOf) == 0 {
				p.add(at+"/any_of", "any_of needs at least one condition")
			}
			c.checkConds(o, cond.AnyOf, at+"/any_of", depth+1, p)
		default:
			if len(cond.Not) == 0 {
				p.add(at+"/not", "not needs at least one condition")
			}
			c.checkConds(o, cond.Not, at+"/not", depth+1, p)
		}
	}
}

// checkVia checks a relationship condition from entity start.
func (c *Catalog) checkVia(start string, cond *Condition, at string, depth int, p *problems) {
	r := cond.Hop()
	if !c.checkRelated(start, &r, at, depth, p) {
		return
	}
	cond.Direction, cond.Entity = r.Direction, r.Entity
	if cond.Aggregate != "" || cond.Then != nil {
		c.checkAggregateTest(start, cond, at, depth, p)
		return
	}
	if cond.Operator != "" || cond.Value != nil {
		p.add(at+"/operator", "operator and value compare an aggregate: give aggregate (or count {operator, value} for how many)")
	}
	if cond.Quantifier == "" {
		cond.Quantifier = QuantifierSome
	}
	if !slices.Contains(Quantifiers, cond.Quantifier) {
		p.choose(at+"/quantifier", Quantifiers, "unknown quantifier %q", cond.Quantifier)
	}
	if cond.Count != nil {
		if cond.Quantifier != QuantifierSome {
			p.add(at+"/count", "count replaces the quantifier; leave quantifier out")
		}
		if !slices.Contains(CountOperators, cond.Count.Operator) {
			p.choose(at+"/count/operator", CountOperators, "unknown count operator %q", cond.Count.Operator)
		}
		if cond.Count.Value < 0 {
			p.add(at+"/count/value", "a count is never negative")
		}
	}
}

// checkRelated resolves a hop from entity start (direction and related
// entity filled when only one fits) and checks its conditions; it reports
// false when the hop itself is wrong.
func (c *Catalog) checkRelated(start string, r *Related, at string, depth int, p *problems) bool {
	all := hops(c.edges, start, r.Via)
	if len(all) == 0 {
		p.choose(at+"/via", c.typesOf(start), "%s has no %s relationship", start, r.Via)
		return false
	}
	if r.Direction == "" {
		r.Direction = defaultDirection(all)
	}
	targets := c.targets(start, r.Via, r.Direction)
	if len(targets) == 0 {
		var dirs []string
		for _, h := range all {
			if !slices.Contains(dirs, string(h.Direction)) {
				dirs = append(dirs, string(h.Direction))
			}
		}
		p.choose(at+"/direction", dirs, "%s has no %s %s relationship", start, r.Direction, r.Via)
		return false
	}
	if r.Entity == "" && len(targets) == 1 {
		r.Entity = targets[0]
	}
	if r.Entity != "" && !slices.Contains(targets, r.Entity) {
		p.choose(at+"/entity", targets, "%s --[%s]-- (%s) does not reach %q", start, r.Via, r.Direction, r.Entity)
		return false
	}
	if len(r.Conditions) > 0 {
		if r.Entity == "" {
			p.choose(at+"/entity", targets, "conditions on related entities need their entity type")
			return false
		}
		o := c.relatedOffer(r.Entity, at+"/entity", p)
		if o == nil {
			return false
		}
		c.checkConds(o, r.Conditions, at+"/conditions", depth+1, p)
	}
	if len(r.RelationshipConditions) > maxConditions {
		p.add(at+"/relationship_conditions", "at most %d conditions in one list", maxConditions)
	} else if len(r.RelationshipConditions) > 0 {
		ro := relationshipOffer(c.edges, start, r.Via)
		for i := range r.RelationshipConditions {
			rc := &r.RelationshipConditions[i]
			rat := at + "/relationship_conditions" + Pointer(i)
			if rc.Field == "" {
				p.add(rat, "a relationship condition is a field test (field, operator, value) on a property of %s", r.Via)
				continue
			}
			checkField(ro, rc, rat, p)
		}
	}
	return true
}

// targets lists the entity types relationship type typ leads to from
// entity start in direction dir.
func (c *Catalog) targets(start, typ, dir string) []string {
	var out []string
	for _, h := range hops(c.edges, start, typ) {
		if string(h.Direction) == dir && !slices.Contains(out, h.Target) {
			out = append(out, h.Target)
		}
	}
	return out
}

// defaultDirection is the direction a hop takes when the call gives none:
// the stored direction when the type leads from the entity only one way,
// else both.
func defaultDirection(all []Hop) string {
	var out, in bool
	for _, h := range all {
		out = out || h.Direction == model.Outgoing
		in = in || h.Direction == model.Incoming
	}
	switch {
	case out && !in:
		return string(model.Outgoing)
	case in && !out:
		return string(model.Incoming)
	}
	return string(model.Both)
}

// typesOf lists the relationship types that touch entity name.
func (c *Catalog) typesOf(name string) []string {
	var out []string
	for _, e := range c.edges {
		if (e.From == name || e.To == name) && !slices.Contains(out, e.Type) {
			out = append(out, e.Type)
		}
	}
	return out
}

// relationshipOffer is the declared properties of relationship type typ
// at entity start (at any entity when start is ""), as an offer whose
// modes are their operators.
func relationshipOffer(edges []edge, start, typ string) *EntityOffer {
	o := &EntityOffer{Entity: &model.Entity{Name: typ}}
	for _, e := range edges {
		if e.Type != typ || (start != "" && e.From != start && e.To != start) {
			continue
		}
		for _, f := range e.Properties {
			if o.Field(f.Name) == nil {
				o.Fields = append(o.Fields, &FieldOffer{Field: f, Computed: e.computed(f.Name), Modes: f.Operators})
			}
		}
	}
	return o
}

// checkOrderBy checks sort keys against offer o (the field keys) and rel
// (the relationship_field keys; nil where the tool takes none), filling
// directions. o is nil when no key may name a field.
func checkOrderBy(o, rel *EntityOffer, keys OrderByList, p *problems) {
	if len(keys) > maxOrderKeys {
		p.add("/order_by", "at most %d sort keys", maxOrderKeys)
		return
	}
	for i := range keys {
		k := &keys[i]
		if k.Direction == "" {
			k.Direction = "ASC"
		}
		switch {
		case k.RelationshipField != "" && rel == nil:
			p.add(Pointer("order_by", i, "relationship_field"), "this tool sorts by field only")
		case k.RelationshipField != "" && k.Field != "":
			p.add(Pointer("order_by", i), "a sort key is a field or a relationship_field, not both")
		case k.RelationshipField != "":
			if f := rel.Field(k.RelationshipField); f == nil {
				p.choose(Pointer("order_by", i, "relationship_field"), rel.FieldNames(), "%q is not a property of %s", k.RelationshipField, rel.Entity.Name)
			} else {
				checkSortable(f.Field, Pointer("order_by", i, "relationship_field"), p)
			}
		case o == nil:
			p.add(Pointer("order_by", i), "give relationship_field, or field with target_entity_type")
		case o.Field(k.Field) == nil:
			p.choose(Pointer("order_by", i, "field"), o.FieldNames(), "%q is not a field of %s", k.Field, o.Entity.Name)
		default:
			checkSortable(o.Field(k.Field).Field, Pointer("order_by", i, "field"), p)
		}
	}
}

// maxOrderKeys bounds the sort keys of one call.
const maxOrderKeys = 5

// relatedOffer is what a call may read of a related entity (a
// relationship test's, an include's, an aggregate's over, a target of
// explore_relationships or an end of query_relationships): the stored
// fields query_entities offers and the computed fields written as
// expressions, which compile to Cypher over any node variable
// (Scope.line_count of the scopes a file contains). A raw cypher
// computed field is a subquery of its own entity's statement and stays
// out.
func (c *Catalog) relatedOffer(entity, at string, p *problems) *EntityOffer {
	o := c.queryOffer(entity, at, p)
	if o == nil {
		return nil
	}
	out := &EntityOffer{Entity: o.Entity}
	for _, f := range o.Fields {
		if f.Computed == nil || f.Computed.Cypher == "" {
			out.Fields = append(out.Fields, f)
		}
	}
	return out
}

// queryOffer is query_entities' offer for entity, computed fields
// included; it reports a problem at at when there is none.
func (c *Catalog) queryOffer(entity, at string, p *problems) *EntityOffer {
	var o *EntityOffer
	for _, q := range c.conditionOffers {
		if q.Entity.Name == entity {
			o = q
		}
	}
	if o == nil {
		p.add(at, "%s cannot be queried (exposed_tools disables query_entities)", entity)
		return nil
	}
	return o
}

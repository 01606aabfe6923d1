package tools

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// Checker is what a [Kind]'s Parse checks one call with: the catalog's
// offers, relationships and limits, and the problems found so far, which
// Catalog.Parse returns as one CallError.
type Checker struct {
	c    *Catalog
	tool string
	p    problems
}

// Decode reads arguments that passed the schema into the struct into;
// numbers are kept as json.Number in untyped values so integers stay
// exact. It reports false (and a problem) when they do not fit.
func (ck *Checker) Decode(raw json.RawMessage, into any) bool {
	return decode(raw, into, &ck.p)
}

// Add reports a problem with the argument at path (a JSON Pointer).
func (ck *Checker) Add(path, format string, args ...any) { ck.p.add(path, format, args...) }

// Choose reports a problem with the argument at path and its valid
// choices.
func (ck *Checker) Choose(path string, valid []string, format string, args ...any) {
	ck.p.choose(path, valid, format, args...)
}

// Limits are the catalog's limits, defaults filled.
func (ck *Checker) Limits() Limits { return ck.c.limits }

// Limit is n, or the default limit when the call gave none.
func (ck *Checker) Limit(n int) int { return ck.c.limit(n) }

// Entity returns the tool's offer for entity, reporting a problem at
// path at (with the entities the tool offers) when there is none.
func (ck *Checker) Entity(entity, at string) *EntityOffer {
	return ck.c.entity(ck.tool, entity, at, &ck.p)
}

// Field returns the named field of the tool's offer for entity (given at
// /entity_type), reporting a problem at path at that lists the valid
// fields when it is not offered.
func (ck *Checker) Field(entity, field, at string) *FieldOffer {
	return ck.c.offeredField(ck.tool, entity, field, at, &ck.p)
}

// Conditions checks the conditions of the argument name against offer o
// (the condition grammar of [Condition]), filling their defaults and
// converting each value to its field's Go type.
func (ck *Checker) Conditions(o *EntityOffer, conds []Condition, name string) {
	ck.c.checkConditions(o, conds, name, &ck.p)
}

// OrderBy checks sort keys (the argument order_by) against offer o,
// filling their directions.
func (ck *Checker) OrderBy(o *EntityOffer, keys OrderByList) { checkOrderBy(o, nil, keys, &ck.p) }

// OrderByAggregate checks sort keys as OrderBy does, where a key may
// also name the key of an aggregate test among conds, the call's
// top-level conditions (query_entities).
func (ck *Checker) OrderByAggregate(o *EntityOffer, keys OrderByList, conds []Condition) {
	with := &EntityOffer{Entity: o.Entity, Fields: o.Fields}
	var aggKeys []string
	for _, c := range conds {
		if c.Via == "" || c.Aggregate == "" {
			continue
		}
		if a, err := c.RelatedAggregate(); err == nil {
			key := UniqueKey(a.Key(), func(k string) bool { return slices.Contains(aggKeys, k) })
			aggKeys = append(aggKeys, key)
			if with.Field(key) == nil {
				with.Fields = append(slices.Clip(with.Fields), &FieldOffer{Field: &model.Field{Name: key, Type: model.Number}})
			}
		}
	}
	checkOrderBy(with, nil, keys, &ck.p)
}

// OrderByEither checks sort keys that name a field of offer o (nil: none
// may) or a property of relationship offer rel (relationship_field).
func (ck *Checker) OrderByEither(o, rel *EntityOffer, keys OrderByList) {
	checkOrderBy(o, rel, keys, &ck.p)
}

// Related checks a hop from entity start given at path at (direction and
// related entity filled when only one fits) and its conditions; it
// reports false when the hop itself is wrong.
func (ck *Checker) Related(start string, r *Related, at string) bool {
	ok := ck.c.checkRelated(start, r, at, 0, &ck.p)
	checkBindings(r.Conditions, at+"/conditions", &ck.p)
	return ok
}

// RelatedOffer is what a call may read of a related entity: the stored
// fields query_entities offers and the computed fields written as
// expressions; it reports a problem at at when the entity cannot be
// queried.
func (ck *Checker) RelatedOffer(entity, at string) *EntityOffer {
	return ck.c.relatedOffer(entity, at, &ck.p)
}

// RelationshipOffer is the declared properties of relationship type typ
// at entity start, as an offer whose modes are their operators.
func (ck *Checker) RelationshipOffer(start, typ string) *EntityOffer {
	return relationshipOffer(ck.c.edges, start, typ)
}

// PropertiesOf is the declared properties of the relationship types, at
// any entity, as one offer whose modes are their operators.
func (ck *Checker) PropertiesOf(types ...string) *EntityOffer {
	o := &EntityOffer{Entity: &model.Entity{Name: strings.Join(types, "|")}}
	for _, t := range types {
		for _, f := range relationshipOffer(ck.c.edges, "", t).Fields {
			if o.Field(f.Field.Name) == nil {
				o.Fields = append(o.Fields, f)
			}
		}
	}
	return o
}

// Ends lists the entity types relationship type typ is stored from and
// to (an undirected one either way).
func (ck *Checker) Ends(typ string) (from, to []string) { return ends(ck.c.edges, typ) }

// PropertiedTypes lists the relationship types that declare properties.
func (ck *Checker) PropertiedTypes() []string { return propertiedTypes(ck.c.edges) }

// RelationshipTypes lists the model's relationship types.
func (ck *Checker) RelationshipTypes() []string { return relationshipTypes(ck.c.edges) }

// TypesOf lists the relationship types that touch the named entity.
func (ck *Checker) TypesOf(entity string) []string { return ck.c.typesOf(entity) }

// Hops lists the ways relationship type typ leads from entity start.
func (ck *Checker) Hops(start, typ string) []Hop {
	return hops(ck.c.edges, start, typ)
}

// Reachable lists the entity types reached from the types first by
// following types in direction for at most depth hops in all.
func (ck *Checker) Reachable(first, types []string, direction string, depth int) []string {
	return reachable(ck.c.edges, first, types, direction, depth)
}

// Value checks that v fits field f's type and returns it as the field's
// Go type (int64, float64, bool or string), reporting a problem at at
// when it does not.
func (ck *Checker) Value(f *model.Field, v any, at string) (any, bool) {
	return convertValue(f, v, at, &ck.p)
}

// Mode checks that m is a mode field f offers, reporting a problem at at
// (with the field's modes) when it is not.
func (ck *Checker) Mode(f *FieldOffer, m, at string) bool {
	if !slices.Contains(f.Modes, m) {
		ck.p.choose(at, f.Modes, "%q is not offered for %s", m, f.Field.Name)
		return false
	}
	return true
}

// ModeOr returns want when the field offers it, else its first mode: a
// mode's default.
func (f *FieldOffer) ModeOr(want string) string {
	if slices.Contains(f.Modes, want) {
		return want
	}
	return f.Modes[0]
}

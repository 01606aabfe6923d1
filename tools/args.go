package tools

import (
	"bytes"
	"encoding/json"
)

// The argument types several generated tools share (conditions, related
// entities, sort keys, an aggregate's over and having); each tool's own
// argument type is in its planner file. [Catalog.Parse] fills them,
// validated, with defaults filled in and condition values converted to the
// field's Go type, so the planner works on typed values rather than raw
// JSON. Argument names follow the seeds.

// Condition is one test an entity must pass. It is exactly one of:
//
//   - a field test {field, operator, value}: Value is nil for IS NULL and
//     IS NOT NULL, a []any for IN and NOT IN, and otherwise a string, bool,
//     int64 (integer fields) or float64 (number fields); datetime values
//     are strings accepted by [ParseDatetime]. IgnoreCase compares strings
//     ignoring case (=, !=, CONTAINS, STARTS WITH, ENDS WITH, IN, NOT IN).
//   - a relationship test {via, …}: the entity's relationships of type Via
//     (seen in Direction) to related entities of type Entity, of which
//     some (the default), none or all meet Conditions and whose
//     relationship meets RelationshipConditions; or, with Count, how many
//     such related entities there are; or, with Aggregate, a value
//     aggregated over them ([RelatedAggregate]). As names the related
//     entity: the tests that give the same name are about one entity
//     (see [checkBindings]).
//   - a group: AnyOf holds when at least one of its conditions holds, Not
//     when its conditions do not all hold.
type Condition struct {
	Field      string `json:"field,omitempty"`
	Operator   string `json:"operator,omitempty"`
	Value      any    `json:"value,omitempty"`
	IgnoreCase bool   `json:"ignore_case,omitempty"`

	Via                    string      `json:"via,omitempty"`
	Direction              string      `json:"direction,omitempty"`
	Entity                 string      `json:"entity,omitempty"`
	Quantifier             string      `json:"quantifier,omitempty"`
	Conditions             []Condition `json:"conditions,omitempty"`
	RelationshipConditions []Condition `json:"relationship_conditions,omitempty"`
	Count                  *CountTest  `json:"count,omitempty"`
	As                     string      `json:"as,omitempty"`

	// Aggregate, on a relationship test where the tool offers it
	// (query_entities), makes it an aggregate test: the value Aggregate
	// names ("AVG relationship.rating", see [ParseAggregate]) over the
	// related entities (Then: further hops from them, relationship tests
	// each), compared by Operator with Value (a number), or with no
	// Operator only computed, to be returned and sorted on
	// ([Condition.RelatedAggregate]).
	Aggregate string      `json:"aggregate,omitempty"`
	Then      []Condition `json:"then,omitempty"`

	AnyOf []Condition `json:"any_of,omitempty"`
	Not   []Condition `json:"not,omitempty"`
}

// The quantifiers of a relationship condition.
const (
	QuantifierSome = "some"
	QuantifierNone = "none"
	QuantifierAll  = "all"
)

// Quantifiers lists the quantifiers of a relationship condition, default
// first.
var Quantifiers = []string{QuantifierSome, QuantifierNone, QuantifierAll}

// CountTest compares the number of related entities with a value.
type CountTest struct {
	Operator string `json:"operator"`
	Value    int64  `json:"value"`
}

// CountOperators are the comparisons a CountTest may use.
var CountOperators = []string{"=", "!=", "<", "<=", ">", ">="}

// Related names the entities one relationship hop away from an entity:
// the relationship type, its direction seen from the entity, the related
// entity type, and conditions on the related entities and on the
// relationships (as in a relationship condition).
type Related struct {
	Via                    string      `json:"via"`
	Direction              string      `json:"direction,omitempty"`
	Entity                 string      `json:"entity,omitempty"`
	Conditions             []Condition `json:"conditions,omitempty"`
	RelationshipConditions []Condition `json:"relationship_conditions,omitempty"`
}

// OrderBy sorts results by a field or computed field (in query_entities
// also by the key of an aggregate test, RelatedAggregate.Key), or, where the tool
// offers it (explore_relationships), by RelationshipField, a property of
// the relationship that reached each result.
type OrderBy struct {
	Field             string `json:"field,omitempty"`
	RelationshipField string `json:"relationship_field,omitempty"`
	// Direction is ASC or DESC.
	Direction string `json:"direction"`
}

// OrderByList is a list of sort keys, most significant first. It decodes
// from a list of OrderBy objects or from one object alone (the older
// single-key form).
type OrderByList []OrderBy

// UnmarshalJSON accepts an object or a list of objects.
func (l *OrderByList) UnmarshalJSON(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var one OrderBy
		if err := json.Unmarshal(trimmed, &one); err != nil {
			return err
		}
		*l = OrderByList{one}
		return nil
	}
	var many []OrderBy
	if err := json.Unmarshal(trimmed, &many); err != nil {
		return err
	}
	*l = many
	return nil
}

// Over names the related entities an aggregate is over: a hop as in a
// relationship test, and optionally GroupBy, a property of that
// relationship whose values form the groups (e.g. the rating of each
// REVIEWED), or Field, a property of that relationship (stored or
// computed) to aggregate instead of the entities' field (e.g. SUM of each
// ORDERS line's value), each relationship once. Both sit in over because
// they name something only over has: the relationship.
//
// Path, when given instead of over's own hop, is a list of hops, each from
// the previous one's entity (e.g. Supplier -SUPPLIES-> Product <-ORDERS-
// Order <-PURCHASED- Customer); GroupBy and Field then name a property of
// the last hop's relationship, GroupByRelated a field of its entity. Each
// is what one aggregated item is: EachEntity (the far-end entities, each
// once per group) or EachRelationship (the last hop's relationships, each
// once per group: order lines rather than products).
type Over struct {
	Related
	Path           []Related `json:"path,omitempty"`
	GroupBy        string    `json:"group_by,omitempty"`
	GroupByRelated string    `json:"group_by_related,omitempty"`
	Field          string    `json:"field,omitempty"`
	Each           string    `json:"each,omitempty"`
}

// What one item an aggregate over related entities counts is (Over.Each).
const (
	EachEntity       = "entity"
	EachRelationship = "relationship"
)

// Eaches lists the values of Over.Each, default first.
var Eaches = []string{EachEntity, EachRelationship}

// Steps are the hops over follows: Path, or over's own hop when there is
// no path. Checking them fills their directions and entities in place.
func (o *Over) Steps() []*Related {
	if len(o.Path) == 0 {
		return []*Related{&o.Related}
	}
	steps := make([]*Related, len(o.Path))
	for i := range o.Path {
		steps[i] = &o.Path[i]
	}
	return steps
}

// Having keeps the groups of an aggregate whose value compares with Value
// by Operator (one of [HavingOperators]), like SQL's HAVING.
type Having struct {
	Operator string  `json:"operator"`
	Value    float64 `json:"value"`
}

// HavingOperators are the comparisons a having condition may use: those
// of a number.
var HavingOperators = CountOperators

// The buckets a datetime group_by may be cut into. Labels are strings in
// the planner's zone: hour 2024-05-01T13, day 2024-05-01, weekday Monday,
// month 2024-05, year 2024.
const (
	BucketHour    = "hour"
	BucketDay     = "day"
	BucketWeekday = "weekday"
	BucketMonth   = "month"
	BucketYear    = "year"
)

// Buckets lists the datetime buckets, finest first.
var Buckets = []string{BucketHour, BucketDay, BucketWeekday, BucketMonth, BucketYear}

package tools

import (
	"bytes"
	"encoding/json"
)

// The argument types of the generated tools. [Catalog.Parse] returns one of
// them, validated, with defaults filled in and condition values converted to
// the field's Go type, so the planner works on typed values rather than raw
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
//     such related entities there are.
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

// OrderBy sorts results by a field or computed field.
type OrderBy struct {
	Field string `json:"field"`
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

// QueryEntitiesArgs are query_entities' arguments.
type QueryEntitiesArgs struct {
	EntityType string      `json:"entity_type"`
	Conditions []Condition `json:"conditions"`
	// OrderBy is the sort, most significant key first.
	OrderBy OrderByList `json:"order_by"`
	Limit   int         `json:"limit"`
	Offset  int         `json:"offset"`
	// Fields projects the result; empty means all.
	Fields []string `json:"fields"`
}

// GetEntityByIDArgs are get_entity_by_id's arguments. IDValue is a string,
// int64 or float64 per the unique field's type.
type GetEntityByIDArgs struct {
	EntityType string `json:"entity_type"`
	IDValue    any    `json:"id_value"`
}

// ExploreRelationshipsArgs are explore_relationships' arguments.
type ExploreRelationshipsArgs struct {
	StartEntityType  string      `json:"start_entity_type"`
	StartConditions  []Condition `json:"start_conditions"`
	RelationshipType string      `json:"relationship_type"`
	// RelationshipTypes are followed together with RelationshipType; after
	// Parse RelationshipTypes holds them all and RelationshipType the first.
	RelationshipTypes []string `json:"relationship_types"`
	// Direction is outgoing, incoming or both, seen from the start entity.
	Direction string `json:"direction"`
	// TargetEntityType is "" for any target.
	TargetEntityType string `json:"target_entity_type"`
	// TargetConditions and OrderBy apply to the targets; they need
	// TargetEntityType (or a single reachable target type).
	TargetConditions []Condition `json:"target_conditions"`
	OrderBy          OrderByList `json:"order_by"`
	Depth            int         `json:"depth"`
	Limit            int         `json:"limit"`
	Offset           int         `json:"offset"`
}

// FindPathsArgs are find_paths' arguments: the shortest paths between two
// entities given by their unique ids.
type FindPathsArgs struct {
	FromEntityType string `json:"from_entity_type"`
	FromID         any    `json:"from_id"`
	ToEntityType   string `json:"to_entity_type"`
	ToID           any    `json:"to_id"`
	// RelationshipTypes are the types a path may use (all when empty).
	RelationshipTypes []string `json:"relationship_types"`
	// Direction is both (default), outgoing or incoming, seen from the
	// first entity.
	Direction string `json:"direction"`
	// MaxLength bounds the number of relationships of a path.
	MaxLength int `json:"max_length"`
	// All returns every shortest path, not just one.
	All   bool `json:"all"`
	Limit int  `json:"limit"`
}

// SemanticSearchArgs are semantic_search's arguments; Index is filled with
// the entity's first vector index when the agent gave none.
type SemanticSearchArgs struct {
	EntityType string      `json:"entity_type"`
	Query      string      `json:"query"`
	Index      string      `json:"index"`
	TopK       int         `json:"top_k"`
	MinScore   float64     `json:"min_score"`
	Conditions []Condition `json:"conditions"`
}

// FulltextSearchArgs are fulltext_search's arguments; Fields is filled with
// all the index's fields when the agent gave none. MinScore is nil when not
// given.
type FulltextSearchArgs struct {
	EntityType string   `json:"entity_type"`
	Query      string   `json:"query"`
	Fields     []string `json:"fields"`
	Fuzzy      bool     `json:"fuzzy"`
	MinScore   *float64 `json:"min_score"`
	Limit      int      `json:"limit"`
}

// TextPatternSearchArgs are text_pattern_search's arguments.
type TextPatternSearchArgs struct {
	EntityType    string `json:"entity_type"`
	Field         string `json:"field"`
	Pattern       string `json:"pattern"`
	Mode          string `json:"mode"`
	CaseSensitive bool   `json:"case_sensitive"`
	Limit         int    `json:"limit"`
}

// NumberRangeSearchArgs are number_range_search's arguments. After Parse,
// Tolerance is set for approximately (10% of |value| by default), RoundTo
// for rounded_equal, Percentile for percentile, K for outlier, and Buckets or
// BucketWidth for histogram.
type NumberRangeSearchArgs struct {
	EntityType  string   `json:"entity_type"`
	Field       string   `json:"field"`
	Operator    string   `json:"operator"`
	Value       *float64 `json:"value"`
	UpperValue  *float64 `json:"upper_value"`
	Tolerance   *float64 `json:"tolerance"`
	RoundTo     *float64 `json:"round_to"`
	Percentile  *float64 `json:"percentile"`
	K           *float64 `json:"k"`
	Buckets     int      `json:"buckets"`
	BucketWidth *float64 `json:"bucket_width"`
	// Order sorts entity results by the field: "asc" or "desc"; empty
	// keeps each operator's own order (see the tool description).
	Order string `json:"order"`
	Limit int    `json:"limit"`
}

// DatetimeRangeSearchArgs are datetime_range_search's arguments. Mode is
// filled when the agent left it out (relative with a relative_period,
// between with start/end, else after).
type DatetimeRangeSearchArgs struct {
	EntityType     string `json:"entity_type"`
	Field          string `json:"field"`
	Mode           string `json:"mode"`
	Datetime       string `json:"datetime"`
	StartDatetime  string `json:"start_datetime"`
	EndDatetime    string `json:"end_datetime"`
	RelativePeriod string `json:"relative_period"`
	// Precision is second, minute, hour or day.
	Precision string `json:"precision"`
	Limit     int    `json:"limit"`
}

// EnumFilterSearchArgs are enum_filter_search's arguments.
type EnumFilterSearchArgs struct {
	EntityType string   `json:"entity_type"`
	Field      string   `json:"field"`
	Values     []string `json:"values"`
	Exclude    bool     `json:"exclude"`
	Limit      int      `json:"limit"`
}

// DistanceSearchArgs are distance_search's arguments.
type DistanceSearchArgs struct {
	EntityType string  `json:"entity_type"`
	Field      string  `json:"field"`
	Latitude   float64 `json:"latitude"`
	Longitude  float64 `json:"longitude"`
	RadiusKm   float64 `json:"radius_km"`
	Limit      int     `json:"limit"`
}

// AggregateEntitiesArgs are aggregate_entities' arguments. The groups
// come from GroupBy (a field of the entity) or Over.GroupBy (a property of
// the relationship), at most one of them; a datetime one may be cut into
// Bucket. Having keeps the groups whose value passes it; Offset and Limit
// page the groups, largest value first.
type AggregateEntitiesArgs struct {
	EntityType string      `json:"entity_type"`
	Operation  string      `json:"operation"`
	Field      string      `json:"field"`
	GroupBy    string      `json:"group_by"`
	Bucket     string      `json:"bucket"`
	Conditions []Condition `json:"conditions"`
	// Over, when set, aggregates Field of the related entities it names
	// (each counted once per group) instead of the entities themselves.
	Over   *Over   `json:"over"`
	Having *Having `json:"having"`
	Limit  int     `json:"limit"`
	Offset int     `json:"offset"`
}

// Over names the related entities an aggregate is over: a hop as in a
// relationship test, and optionally GroupBy, a property of that
// relationship whose values form the groups (e.g. the rating of each
// REVIEWED). It sits in over because it names something only over has:
// the relationship.
type Over struct {
	Related
	GroupBy string `json:"group_by,omitempty"`
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

// RunCypherArgs are run_cypher's arguments.
type RunCypherArgs struct {
	Query string `json:"query"`
}

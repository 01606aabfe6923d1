package tools

import "github.com/ragforge/ragforge/model"

// The defaults of the generated tools' optional arguments. Each is written
// here once: the input schemas show it ("default"), the descriptions quote
// it, and Catalog.Parse fills it in, so the planner receives complete
// arguments and needs no defaults of its own.
const (
	// DefaultPercentile is number_range_search's percentile.
	DefaultPercentile = 90.0
	// DefaultOutlierK is number_range_search's k (standard deviations).
	DefaultOutlierK = 2.0
	// DefaultRoundTo is number_range_search's round_to (bucket width of
	// rounded_equal).
	DefaultRoundTo = 10.0
	// DefaultBuckets is number_range_search's histogram bucket count.
	DefaultBuckets = 10
	// DefaultTolerancePercent is approximately's tolerance, in percent of
	// the value.
	DefaultTolerancePercent = 10.0
	// DefaultMinScore is semantic_search's min_score.
	DefaultMinScore = 0.7
	// DefaultDepth is explore_relationships' depth.
	DefaultDepth = 1
	// DefaultPathLength is find_paths' max_length when the call gives none
	// (at most Limits.MaxPathLength).
	DefaultPathLength = 4
)

// Precisions are datetime_range_search's precisions, finest first; the
// first is the default.
var Precisions = []string{"second", "minute", "hour", "day"}

// Orders are number_range_search's order values.
var Orders = []string{"asc", "desc"}

// Directions are the directions a relationship is followed in, as
// explore_relationships and relationship tests name them; the first is
// their default (find_paths defaults to both).
var Directions = []string{string(model.Outgoing), string(model.Incoming), string(model.Both)}

// Operations are aggregate_entities' operations.
var Operations = []string{"COUNT", "AVG", "SUM", "MIN", "MAX"}

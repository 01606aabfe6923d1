package tools

import "github.com/ragforge/ragforge/model"

// The defaults and words more than one generated tool shares; a tool's
// own defaults are declared in its file of package planner. Each is
// written once: the input schemas show it ("default"), the descriptions
// quote it, and Catalog.Parse fills it in, so the planner receives
// complete arguments.

// DefaultTolerancePercent is approximately's tolerance, in percent of
// the value (a condition operator and a number_range_search mode).
const DefaultTolerancePercent = 10.0

// Directions are the directions a relationship is followed in, as
// explore_relationships and relationship tests name them; the first is
// their default (find_paths defaults to both).
var Directions = []string{string(model.Outgoing), string(model.Incoming), string(model.Both)}

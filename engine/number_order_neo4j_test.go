package engine_test

import (
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/planner"
)

// TestNumberRangeSearchOrderDescGivesTheLargestInOneCall: "the 10 largest
// declarations over 200 lines" is one number_range_search call (gt 200,
// order desc, limit 10), and its answer equals the one computed in Go from
// the parsed source, for a computed field and a stored one.
func TestNumberRangeSearchOrderDescGivesTheLargestInOneCall(t *testing.T) {
	f := loadNetHTTP(t, engine.Options{})
	over := func(n int) func(fixture.Scope) bool { return func(s fixture.Scope) bool { return lineCount(s) > n } }
	r := f.call(t, planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"gt","value":200,"order":"desc","limit":10}`)
	same(t, "line_count > 200, largest first", r.ids(), topScopes(f.g.Scopes, over(200), func(a, b fixture.Scope) int { return lineCount(b) - lineCount(a) }, 10))
	r = f.call(t, planner.NumberRangeSearch, `{"entity_type":"Scope","field":"startLine","operator":"lt","value":100,"order":"asc","limit":10}`)
	same(t, "startLine < 100, smallest first", r.ids(), topScopes(f.g.Scopes, func(s fixture.Scope) bool { return s.StartLine < 100 },
		func(a, b fixture.Scope) int { return a.StartLine - b.StartLine }, 10))
}

package similar

import (
	"context"
	"encoding/json"
	"math"
	"slices"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

func (f *finder) handle(ctx context.Context, raw json.RawMessage) (any, error) {
	var a Args
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, tools.Fail(f.name, "", nil, "arguments do not fit the tool's schema: %v", err)
	}
	if err := f.defaults(&a); err != nil {
		return nil, err
	}
	var tn any
	if f.m.Tenant != nil {
		v, err := tenant.Required(ctx, true)
		if err != nil {
			return nil, err
		}
		tn = v
	}
	if f.env.Driver == nil {
		return nil, neo4jtx.ErrNoDriver
	}
	return f.find(ctx, a, tn)
}

// defaults fills the arguments left out and refuses what the schema
// cannot: a missing id, a mode or measure this entity does not offer.
func (f *finder) defaults(a *Args) error {
	switch id := a.ID.(type) {
	case nil:
		return tools.Fail(f.name, "/id", nil, "give the %s of the %s to compare with", f.e.UniqueField, f.e.Name)
	case float64:
		if id != math.Trunc(id) {
			return tools.Fail(f.name, "/id", nil, "%v is not an integer", id)
		}
		a.ID = int64(id)
	}
	if a.Mode == "" {
		a.Mode = f.defaultMode()
	}
	if !slices.Contains(f.modes, a.Mode) {
		return tools.Fail(f.name, "/mode", f.modes, "%s offers no %s mode", f.e.Name, a.Mode)
	}
	if a.Measure == "" {
		a.Measure = Jaccard
	}
	if a.Measure != Jaccard && a.Measure != AdamicAdar {
		return tools.Fail(f.name, "/measure", []string{Jaccard, AdamicAdar}, "unknown measure %q", a.Measure)
	}
	if a.Mode == Semantic {
		a.Measure = ""
	}
	if a.TopK == 0 {
		a.TopK = DefaultTopK
	}
	a.TopK = min(max(a.TopK, 1), MaxTopK)
	if a.SemanticWeight == nil {
		w := DefaultSemanticWeight
		a.SemanticWeight = &w
	}
	if w := *a.SemanticWeight; w < 0 || w > 1 {
		return tools.Fail(f.name, "/semantic_weight", nil, "semantic_weight is %v; it must be within 0..1", w)
	}
	return nil
}

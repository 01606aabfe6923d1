package planner

import (
	"slices"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// enumFilterSearch plans enum_filter_search: the field IN the values (or,
// with exclude, NOT IN them; entities without a value match neither).
func (p *Planner) enumFilterSearch(a *tools.EnumFilterSearchArgs, state State) (*Statement, error) {
	const tool = tools.EnumFilterSearch
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	if len(a.Values) == 0 {
		return nil, callError(tool, "/values", nil, "values needs at least one value")
	}
	s := search{tool: tool, entity: e.Name, field: a.Field, limit: a.Limit}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		if r.f.Type.Kind() != model.Enum {
			return nil, callError(tool, "/field", nil, "%s is not an enum field", r.f.Name)
		}
		for i, v := range a.Values {
			if !slices.Contains(r.f.Values, v) {
				return nil, callError(tool, "/values/"+itoa(i), r.f.Values, "%q is not a value of %s.%s", v, e.Name, r.f.Name)
			}
		}
		pred := x + " IN " + b.param(append([]string(nil), a.Values...))
		if a.Exclude {
			pred = "NOT " + pred
		}
		return []string{pred}, nil
	}
	st, err := p.search(s, state)
	return st, err
}

package planner

import (
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
	s := search{tool: tool, entity: e.Name, field: a.Field, limit: a.Limit}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		pred := x + " IN " + b.param(append([]string(nil), a.Values...))
		if a.Exclude {
			pred = "NOT " + pred
		}
		return []string{pred}, nil
	}
	st, err := p.search(s, state)
	return st, err
}

package planner

import (
	"fmt"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// Selection is the start of a statement that binds n to every entity of
// one type meeting conditions, in the bound tenant: the clauses
// query_entities would write before its sort. A tool built outside the
// planner that goes on from those entities (the history tools, to their
// Changes) appends its own clauses, whose parameters must not be named
// p0, p1, … (the conditions' values) and whose $tenant (tenant.Param) is
// the bound tenant, which the selection compares with every node it reads.
type Selection struct {
	// Cypher ends with n, and nothing else, in scope.
	Cypher string
	Params map[string]any
}

// Select compiles conds on entity as query_entities compiles its
// conditions (tools.Conditions checked them): stored predicates in the
// MATCH, computed fields computed at query time (or read where state says
// they are ready), every related node compared with the tenant. Names
// come from the model; every value is a parameter.
func (p *Planner) Select(tool, entity string, conds []tools.Condition, state model.State) (sel *Selection, err error) {
	defer func() {
		if r := recover(); r != nil {
			sel, err = nil, fmt.Errorf("planner: internal error selecting %s for %s: %v", entity, tool, r)
		}
	}()
	e, err := p.entity(tool, entity, "/entity_type")
	if err != nil {
		return nil, err
	}
	b, err := p.newBuilder(tool, e, state)
	if err != nil {
		return nil, err
	}
	var ps preds
	if err := b.conditions(conds, "conditions", &ps); err != nil {
		return nil, err
	}
	b.match(ps.stored)
	if err := b.ensure(ps.refs...); err != nil {
		return nil, err
	}
	b.filterScope(ps.computed)
	if len(b.scope) > 0 {
		b.line("WITH n")
	}
	st, err := b.statement(Shape{})
	if err != nil {
		return nil, err
	}
	return &Selection{Cypher: st.Cypher, Params: st.Params}, nil
}

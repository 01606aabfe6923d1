package tools

import "github.com/ragforge/ragforge/model"

// Conditions is query_entities' condition grammar for a tool built outside
// this package that takes conditions on an entity (the history tools): the
// $defs of its input schema and the check of a call's conditions, the
// same offers, rules and problems as Parse's, so an agent writes one
// grammar everywhere. The planner compiles what it accepts
// (planner.Planner.Select).
type Conditions struct{ c *Catalog }

// NewConditions returns the condition grammar of m's catalog.
func NewConditions(m *model.Model) *Conditions {
	return &Conditions{c: &Catalog{model: m, edges: collectEdges(m), conditionOffers: queryOffers(m)}}
}

// Defs are the grammar's definitions, for the tool's input schema ($defs);
// the argument refers to them with Ref(ConditionsDef).
func (x *Conditions) Defs() []Prop { return (&Generator{c: x.c, m: x.c.model}).ConditionDefs() }

// Check checks the conditions conds of argument name on entity, filling
// their defaults and converting each value to its field's Go type as
// Parse does (numbers must have been decoded as json.Number); the error is
// a *CallError naming every problem and its valid choices.
func (x *Conditions) Check(tool, entity string, conds []Condition, name string) error {
	var p problems
	var o *EntityOffer
	for _, q := range x.c.conditionOffers {
		if q.Entity.Name == entity {
			o = q
		}
	}
	if o == nil {
		p.add(Pointer(name), "%s cannot be queried with conditions (exposed_tools disables query_entities)", entity)
	} else {
		x.c.checkConditions(o, conds, name, &p)
	}
	if len(p) > 0 {
		return &CallError{Tool: tool, Problems: p}
	}
	return nil
}

package planner

import "github.com/ragforge/ragforge/tenant"

// tenantWhere returns the predicate that keeps node variable v inside the
// tenant bound to the call (the model's tenant field equals the engine's
// tenant parameter), or "" when the model declares no tenant. Every node
// variable a statement introduces (MATCH, OPTIONAL MATCH, the nodes of an
// index query, the targets of a hop) must pass through it: the engine
// proves this on the plan of every generated statement.
func (b *builder) tenantWhere(v string) string {
	t := b.p.m.Tenant
	if t == nil {
		return ""
	}
	return b.prop(v, t.Field) + " = $" + tenant.Param
}

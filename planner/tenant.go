package planner

import (
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
)

// tenantWhere returns the predicate that keeps node variable v inside the
// tenant bound to the call (the model's tenant field equals the engine's
// tenant parameter), or "" when the model declares no tenant. Every node
// variable a statement introduces (MATCH, OPTIONAL MATCH, the nodes of an
// index query, the targets of a hop) must pass through it: the tenant
// every-tool test (engine/tenant_neo4j_test.go) proves it with
// scope.Check on Neo4j's plan of every generated statement.
func (b *builder) tenantWhere(v string) string {
	t := b.p.m.Tenant
	if t == nil {
		return ""
	}
	return b.prop(v, t.Field) + " = $" + tenant.Param
}

// tenantField reports whether name is the tenant field, which no call may
// name nor receive.
func (p *Planner) tenantField(name string) bool {
	return p.m.Tenant != nil && p.m.Tenant.Field == name
}

// fieldNames lists e's fields an agent may name (all but the tenant
// field), for error messages.
func (p *Planner) fieldNames(e *model.Entity) []string {
	var out []string
	for _, n := range e.FieldNames() {
		if !p.tenantField(n) {
			out = append(out, n)
		}
	}
	return out
}

// scoped returns preds with v's tenant predicate first (preds unchanged
// when the model declares no tenant).
func (b *builder) scoped(v string, preds []string) []string {
	w := b.tenantWhere(v)
	if w == "" {
		return preds
	}
	return append([]string{w}, preds...)
}

// scopedOr is the disjunction alts, kept inside the tenant when the model
// declares one.
func (b *builder) scopedOr(v string, alts []string) string {
	or := strings.Join(alts, " OR ")
	w := b.tenantWhere(v)
	if w == "" {
		return or
	}
	return w + " AND (" + or + ")"
}

// pathScoped is the tenant predicate on every node of a path variable
// (none when the model declares no tenant).
func (b *builder) pathScoped(path string) []string {
	w := b.tenantWhere("x")
	if w == "" {
		return nil
	}
	return []string{"all(x IN nodes(" + path + ") WHERE " + w + ")"}
}

// Package tenant carries the tenant a tool call runs under from the host
// that authenticated the caller to every part that builds a statement.
//
// The tenant value never comes from an agent: the host binds it (an
// engine option, or [With] on the context of one request, as the MCP
// server does for a tenant-bound token), and every statement a tool runs
// compares the config's tenant field with the parameter [Param].
//
// There is one resolver, engine.Execute: it picks the request's binding,
// else the engine's default, refuses an unbound call of a tenant-scoped
// config before any handler runs, and puts the resolved tenant on the
// context. Handlers read only that context, through [Required], so no
// tool can fall back to another value or opt out.
package tenant

import (
	"context"
	"errors"
)

// Param is the statement parameter that holds the tenant value. Agent
// values are always numbered parameters (p0, p1, …), so an agent can never
// set it.
const Param = "tenant"

// ErrUnbound is returned when the config declares a tenant field and the
// call carries no tenant: running it would read or write every tenant's
// nodes.
var ErrUnbound = errors.New("this config scopes every call to a tenant, and no tenant is bound to the call: bind one with engine.Options.Tenant or tenant.With on the request context (ragforge-plan: --tenant, or a tenant-bound MCP token)")

type key struct{}

// With returns a context whose calls run under tenant v. It overrides the
// engine's default binding, so one engine can serve many authenticated
// users.
func With(ctx context.Context, v string) context.Context {
	return context.WithValue(ctx, key{}, v)
}

// From returns the tenant bound to ctx, if any.
func From(ctx context.Context) (string, bool) {
	v, ok := ctx.Value(key{}).(string)
	return v, ok && v != ""
}

// Required returns the tenant a handler runs under: the one bound to ctx.
// declared says whether the config declares a tenant field; when it does
// and ctx binds none, the error is [ErrUnbound] (engine.Execute refuses
// such a call before any handler runs; this is the handlers' second
// line, for one called some other way). Without a declared tenant it
// returns "" and no error: nothing is scoped.
func Required(ctx context.Context, declared bool) (string, error) {
	if !declared {
		return "", nil
	}
	v, ok := From(ctx)
	if !ok {
		return "", ErrUnbound
	}
	return v, nil
}

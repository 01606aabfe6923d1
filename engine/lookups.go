package engine

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
)

// The engine's own small reads after a statement (why a search found
// nothing, which pinned value no entity has, what a text field holds)
// share these two helpers, so each is tenant-scoped and bounded by the
// call as the statement was.

// tenantAnd returns " AND v.<tenant field> = $tenant" with the call's
// tenant (from st) set in params, or "" when the config has no tenant.
func (e *Engine) tenantAnd(v string, st *planner.Statement, params map[string]any) (string, error) {
	if e.m.Tenant == nil {
		return "", nil
	}
	field, err := ident.Quote(e.m.Tenant.Field)
	if err != nil {
		return "", err
	}
	params[tenant.Param] = st.Params[tenant.Param]
	return " AND " + v + "." + field + " = $" + tenant.Param, nil
}

// readRows runs a read statement of the engine's own and returns every
// row's values.
func (e *Engine) readRows(ctx context.Context, q string, params map[string]any) ([][]any, error) {
	var rows [][]any
	err := neo4jtx.ReadOne(ctx, e.opts.Driver, e.opts.Database, e.opts.Timeout, q, params, func(res neo4j.ResultWithContext) error {
		rows = nil
		for res.Next(ctx) {
			rows = append(rows, res.Record().Values)
		}
		return res.Err()
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

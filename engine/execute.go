package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// ErrNoDriver is returned by Execute on an engine built without a driver.
var ErrNoDriver = errors.New("engine: no Neo4j driver configured")

// Execute validates a call against the tool's JSON Schema and the model,
// plans it into one statement, runs it in a read transaction with the
// configured timeout and row cap, and shapes the rows for the agent. A bad
// call returns a *tools.CallError (what was wrong, the valid choices),
// which marshals to JSON the agent can act on. Custom tools (the
// application's, and the tree, write, traverse and explore tools) run
// their handler instead.
//
// The tenant is resolved first, for every tool alike (invariant 8): a
// call of a tenant-scoped config with no tenant bound is refused with
// tenant.ErrUnbound before its arguments are read or any handler runs,
// and every handler finds the resolved tenant on its context
// (tenant.From), whichever way the host bound it.
func (e *Engine) Execute(ctx context.Context, call Call) (*Result, error) {
	ctx, err := e.bindTenant(ctx)
	if err != nil {
		return nil, err
	}
	if t := e.catalog.Tool(call.Name); t != nil && t.Custom() {
		raw, err := e.catalog.Parse(call.Name, call.Arguments)
		if err != nil {
			return nil, err
		}
		v, err := t.Handler(ctx, raw.(json.RawMessage))
		if err != nil {
			return nil, err
		}
		return &Result{kind: kindCustom, Custom: v}, nil
	}
	st, err := e.Plan(ctx, call)
	if err != nil {
		return nil, err
	}
	if e.opts.RecordUses != nil && len(st.Uses) > 0 {
		e.opts.RecordUses(call.Name, st.Uses)
	}
	if e.opts.Driver == nil {
		return nil, ErrNoDriver
	}
	if st.Embed != nil {
		if err := e.embed(ctx, st); err != nil {
			return nil, err
		}
	}
	return e.run(ctx, call, st)
}

// embed fills the statement's embedding parameter.
func (e *Engine) embed(ctx context.Context, st *planner.Statement) error {
	if e.opts.Embedder == nil {
		return &tools.CallError{Tool: tools.SemanticSearch, Problems: []tools.Problem{{Message: "semantic search needs an embedder, and none is configured"}}}
	}
	var vi = e.vectorIndex(st.Embed.Index)
	vec, err := e.opts.Embedder.Embed(ctx, st.Embed.Text, vi)
	if err != nil {
		return fmt.Errorf("engine: embedding the query: %w", err)
	}
	if st.Embed.Dimensions > 0 && len(vec) != st.Embed.Dimensions {
		return fmt.Errorf("engine: the embedder returned %d dimensions; index %s has %d", len(vec), st.Embed.Index, st.Embed.Dimensions)
	}
	st.Params[st.Embed.Param] = vec
	return nil
}

// run executes the statement in a read transaction and shapes its rows.
func (e *Engine) run(ctx context.Context, call Call, st *planner.Statement) (*Result, error) {
	var match func(string) bool
	if st.Filter != nil {
		m, err := st.Filter.Matcher()
		if err != nil {
			return nil, &tools.CallError{Tool: call.Name, Problems: []tools.Problem{{Path: "/pattern", Message: err.Error()}}}
		}
		match = m
	}
	params := st.Params
	// Ask for one row more than the call's limit, so the result can say
	// whether it was truncated.
	if v, ok := params["limit"].(int64); ok && st.Filter == nil && int(v) == st.Shape.Limit {
		params = cloneParams(params)
		params["limit"] = v + 1
	}
	rowCap := e.opts.MaxRows
	if st.Filter != nil {
		rowCap = st.Filter.ScanLimit
	}
	sess := e.opts.Driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: e.opts.Database, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(ctx)
	if st.Raw {
		if err := e.checkRaw(ctx, st.Cypher); err != nil {
			return nil, err
		}
	}
	sh := newShaper(e, call.Name, st, call.Verbose)
	_, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		sh.reset()
		res, err := tx.Run(ctx, st.Cypher, params)
		if err != nil {
			return nil, err
		}
		read := 0
		// kept are the ids of matched candidates when the statement has a
		// Fetch step (its rows hold only id and value).
		var kept []any
		for res.Next(ctx) {
			read++
			rec := res.Record()
			if match != nil {
				v, _ := rec.Get(planner.ColValue)
				s, _ := v.(string)
				if !match(s) {
					if read >= rowCap {
						sh.scanCapped = true
						break
					}
					continue
				}
			}
			if sh.full() || st.Fetch != nil && len(kept) >= st.Shape.Limit {
				sh.truncated = true
				break
			}
			if st.Fetch != nil {
				id, _ := rec.Get(planner.ColID)
				kept = append(kept, id)
			} else {
				sh.add(rec)
			}
			if read >= rowCap {
				if st.Filter != nil {
					sh.scanCapped = true
				} else {
					sh.truncated = true
				}
				break
			}
		}
		if err := res.Err(); err != nil {
			return nil, err
		}
		if st.Fetch != nil {
			return nil, fetch(ctx, tx, st.Fetch, kept, sh)
		}
		return nil, nil
	}, neo4j.WithTxTimeout(e.opts.Timeout))
	if err != nil {
		return nil, runError(call.Name, err)
	}
	return sh.result(), nil
}

// fetch runs the second step of a scan: the entity rows of the kept ids,
// shaped in the order Fetch returns them (the scan's order).
func fetch(ctx context.Context, tx neo4j.ManagedTransaction, st *planner.Statement, ids []any, sh *shaper) error {
	if len(ids) == 0 {
		return nil
	}
	params := cloneParams(st.Params)
	params[planner.FetchIDs] = ids
	res, err := tx.Run(ctx, st.Cypher, params)
	if err != nil {
		return err
	}
	for res.Next(ctx) {
		sh.add(res.Record())
	}
	return res.Err()
}

func cloneParams(p map[string]any) map[string]any {
	out := make(map[string]any, len(p))
	for k, v := range p {
		out[k] = v
	}
	return out
}

// runError turns a Neo4j failure into an error that says what happened;
// a client-side problem with an agent-written statement (run_cypher) is a
// CallError so the agent can fix its query.
func runError(tool string, err error) error {
	var ne *neo4j.Neo4jError
	if errors.As(err, &ne) {
		switch {
		case ne.Code == "Neo.ClientError.Transaction.TransactionTimedOut" || ne.Code == "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration":
			return fmt.Errorf("engine: %s timed out (the call took longer than the configured timeout): %w", tool, err)
		case tool == tools.RunCypher && slices.Contains([]string{"Neo.ClientError.Statement.SyntaxError", "Neo.ClientError.Statement.SemanticError", "Neo.ClientError.Statement.ParameterMissing", "Neo.ClientError.Statement.TypeError", "Neo.ClientError.Statement.ArgumentError"}, ne.Code):
			return &tools.CallError{Tool: tool, Problems: []tools.Problem{{Path: "/query", Message: ne.Msg}}}
		}
	}
	return fmt.Errorf("engine: running %s: %w", tool, err)
}

// as is errors.As, named for brevity in checks.
func as(err error, target any) bool { return errors.As(err, target) }

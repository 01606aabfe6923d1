package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// ErrNoDriver is returned by Execute on an engine built without a driver,
// whichever tool is called (the generated tools and every handler: tree,
// write, traverse, explore, run_cypher).
var ErrNoDriver = neo4jtx.ErrNoDriver

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
//
// Options.Timeout bounds the whole call (invariant 9): embedding, the
// materialization state, connecting, the driver's retries, the statement
// and every handler. Execute returns by the deadline even if something
// under it ignores ctx. A database that cannot be reached gives an
// [*UnavailableError] (errors.Is [ErrUnavailable]; retry the same call
// later); a statement that ran past the deadline gives the timeout error;
// a statement Neo4j ran out of memory for gives a *tools.CallError naming
// the arguments that narrow it.
//
// The call's transactions join the bookmark chain of ctx
// ([WithBookmarks]); without one, they form a chain of their own.
func (e *Engine) Execute(ctx context.Context, call Call) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	if neo4jtx.Bookmarks(ctx) == nil {
		ctx = WithBookmarks(ctx)
	}
	ctx, tr := neo4jtx.Track(ctx)
	type outcome struct {
		res *Result
		err error
	}
	// Buffered: the work never blocks on sending, so it ends on its own
	// (the driver ends with ctx) after a deadline made Execute return.
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{err: fmt.Errorf("engine: %s failed: panic: %v", call.Name, p)}
			}
		}()
		res, err := e.execute(ctx, call)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, e.callError(ctx, call.Name, o.err)
	case <-ctx.Done():
	}
	// The work notices the deadline itself and says best what it was
	// doing; wait briefly for that before judging from the tracker.
	select {
	case o := <-done:
		return o.res, e.callError(ctx, call.Name, o.err)
	case <-time.After(deadlineGrace):
	}
	return nil, e.callError(ctx, call.Name, e.deadlineError(ctx, tr))
}

// execute is Execute without the deadline guard.
func (e *Engine) execute(ctx context.Context, call Call) (*Result, error) {
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
		return tools.Fail(tools.SemanticSearch, "", nil, "semantic search needs an embedder, and none is configured")
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
			return nil, tools.Fail(call.Name, "/pattern", nil, "%v", err)
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
	if st.Raw {
		if err := e.checkRaw(ctx, st.Cypher); err != nil {
			return nil, err
		}
	}
	sh := newShaper(e, call.Name, st, call.Verbose)
	_, err := neo4jtx.Read(ctx, e.opts.Driver, e.opts.Database, e.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
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
	})
	if err != nil {
		return nil, fmt.Errorf("engine: running %s: %w", call.Name, err)
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

// as is errors.As, named for brevity in checks.
func as(err error, target any) bool { return errors.As(err, target) }

package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
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
	if call.Verbose {
		// Every converter of the call, the handlers' too, cuts nothing.
		ctx = neo4jvalue.WithWhole(ctx)
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
		if err := e.embed(ctx, call.Name, st); err != nil {
			return nil, err
		}
	}
	res, err := e.run(ctx, call, st)
	if err == nil && st.Embed != nil && res.Count == 0 {
		note, err := e.emptySearchNote(ctx, st)
		if err != nil {
			return nil, err
		}
		res.Notes = append(res.Notes, note)
	}
	if c := embedder.Caveat(e.opts.Embedder); err == nil && st.Embed != nil && c != "" {
		res.Notes = append(res.Notes, c)
	}
	if err == nil {
		// The notes' own reads are checks on a good answer: one that fails
		// says so instead of taking the answer away.
		if nerr := e.pinNotes(ctx, st, res); nerr != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("could not look up which pinned value no entity has: %v", nerr))
		}
		notes, nerr := e.textNotes(ctx, st)
		if nerr != nil {
			notes = append(notes, fmt.Sprintf("could not check whether the text fields this answer compares hold numbers or dates: %v", nerr))
		}
		res.Notes = append(res.Notes, notes...)
		res.Notes = append(res.Notes, e.graphNotes(call, st)...)
	}
	return res, err
}

// embed fills the statement's embedding parameter.
func (e *Engine) embed(ctx context.Context, tool string, st *planner.Statement) error {
	if e.opts.Embedder == nil {
		return tools.Fail(tool, "", nil, "semantic search needs an embedder, and none is configured")
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

// run executes the statement in a read transaction and shapes its rows;
// a regex or glob scan (a Filter statement) runs in chunks (scan). A
// statement without a total runs alone, in one round trip to Neo4j
// (neo4jtx.ReadOne); one with a total shares its transaction with the
// count, so both read the same graph.
func (e *Engine) run(ctx context.Context, call Call, st *planner.Statement) (*Result, error) {
	if st.Filter != nil {
		return e.scan(ctx, call, st)
	}
	params, rowCap := runParams(st), e.rowCap(st)
	if st.Raw {
		if err := e.checkRaw(ctx, st.Cypher); err != nil {
			return nil, err
		}
	}
	sh := newShaper(ctx, e, call.Name, st)
	// read shapes the statement's rows; each attempt starts over.
	read := func(res neo4j.ResultWithContext) error {
		sh.reset()
		sh.read(func(yield func(*neo4j.Record) bool) {
			for res.Next(ctx) && yield(res.Record()) {
			}
		}, rowCap)
		return res.Err()
	}
	var err error
	if st.Total == nil {
		err = neo4jtx.ReadOne(ctx, e.opts.Driver, e.opts.Database, e.opts.Timeout, st.Cypher, params, read)
	} else {
		_, err = neo4jtx.Read(ctx, e.opts.Driver, e.opts.Database, e.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
			res, err := tx.Run(ctx, st.Cypher, params)
			if err != nil {
				return nil, err
			}
			if err := read(res); err != nil {
				return nil, err
			}
			return nil, sh.readTotal(ctx, tx)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("engine: running %s: %w", call.Name, err)
	}
	return sh.result(), nil
}

// runParams are the parameters run sends with st: one row more than the
// call's limit in its page parameter (Shape.PageParam), so the result can
// say whether it was truncated.
func runParams(st *planner.Statement) map[string]any {
	params := st.Params
	if v, ok := params[st.Shape.PageParam].(int64); ok && int(v) == st.Shape.Limit {
		params = cloneParams(params)
		params[st.Shape.PageParam] = v + 1
	}
	return params
}

// rowCap is the most rows run reads of st.
func (e *Engine) rowCap(st *planner.Statement) int {
	if st.Shape.Kind == planner.ShapeRows {
		return e.opts.MaxRows
	}
	// A planned statement's rows are bounded by its own LIMIT, which the
	// planner clamps (up to Limits.MaxGroups for aggregates): read them all
	// and the one beyond, so a full page is not reported cut.
	return max(e.opts.MaxRows, st.Shape.Limit+1)
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

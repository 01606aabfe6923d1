// Package traverse is the traverse tool of a tenant-scoped config: a
// read-only Cypher query the agent writes, run only when Neo4j's plan
// proves it stays inside the caller's tenant.
//
// A call is EXPLAINed with the parameters it will run with; the plan must
// be a read (package readonly: statement type "r", no LOAD CSV, only
// allowed procedures) and every node it reads must be scoped to the tenant
// (package scope). Only then does the query run, in a read transaction
// with a timeout and a row cap. The tenant value is always the engine's:
// the one engine.Execute resolved and bound to the context (tenant.From;
// none is tenant.ErrUnbound) and an agent parameter named tenant is
// refused. Configs without
// a tenant have run_cypher instead.
package traverse

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/cypher/scope"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// Name is the tool's name.
const Name = "traverse"

// Category groups the tool in a catalog.
const Category tools.Category = "graph"

// The bounds of env.MaxRows.
const (
	DefaultMaxRows = 1000
	// HardMaxRows is the most rows env.MaxRows may allow.
	HardMaxRows = 10000
	// WholeText is the length (in characters) strings are cut to when a
	// call asks for whole_text: long enough for a note or a document's
	// passage, bounded so that a row cap of long strings stays readable.
	WholeText = 10000
)

// DefaultProcedures are the procedures a traverse query may call: the
// schema's names, and the node searches whose yielded nodes the scope
// check covers. Procedures yielding relationships, paths or lists of
// nodes (db.schema.visualization, relationship searches, apoc.path.*) are
// refused by the check even when listed.
var DefaultProcedures = []string{
	"db.labels", "db.relationshipTypes", "db.propertyKeys",
	"db.index.fulltext.queryNodes", "db.index.vector.queryNodes",
}

// traverse comes after the write tools: a tenant-scoped config's
// agent-written Cypher, run only when its plan proves it stays in the
// tenant.
func init() {
	tools.RegisterHandlers(tools.Handlers{Name: "traverse", Rank: 30, Build: func(m *model.Model, env tools.Env) ([]tools.CustomTool, error) {
		return New(m, env), nil
	}})
}

// New returns the traverse tool of m: one tool when m declares a tenant,
// none otherwise. Its queries may call DefaultProcedures; it returns at
// most env.MaxRows rows (DefaultMaxRows if zero, at most HardMaxRows) and,
// when env.MaxString is positive, cuts longer strings to it, as the
// generated tools' results are; a call's whole_text raises the cut to
// WholeText.
func New(m *model.Model, env tools.Env) []tools.CustomTool {
	return newWith(m, env, DefaultProcedures)
}

// newWith is New allowing procedures.
func newWith(m *model.Model, env tools.Env, procedures []string) []tools.CustomTool {
	if m == nil || m.Tenant == nil {
		return nil
	}
	env = env.WithDefaults()
	if env.MaxRows <= 0 {
		env.MaxRows = DefaultMaxRows
	}
	env.MaxRows = min(env.MaxRows, HardMaxRows)
	t := &tool{m: m, env: env, procedures: procedures}
	return []tools.CustomTool{{
		Name: Name, Category: Category, Description: t.describe(), Input: t.schema(), StatementArg: "/cypher",
		Handler: t.handle, ReadOnly: true,
		Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
	}}
}

type tool struct {
	m   *model.Model
	env tools.Env
	// procedures are the procedures a query may call.
	procedures []string
}

// Result is what a traverse call returns.
type Result struct {
	Columns []string         `json:"columns"`
	Rows    []map[string]any `json:"rows"`
	Count   int              `json:"count"`
	// Truncated says more rows matched than MaxRows.
	Truncated bool     `json:"truncated"`
	Notes     []string `json:"notes,omitempty"`
}

type args struct {
	Cypher    string                     `json:"cypher"`
	Params    map[string]json.RawMessage `json:"params"`
	WholeText bool                       `json:"whole_text"`
}

func (t *tool) handle(ctx context.Context, raw json.RawMessage) (any, error) {
	var a args
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, tools.Fail(Name, "", nil, "arguments do not fit the tool's schema: %v", err)
	}
	if a.Cypher == "" {
		return nil, tools.Fail(Name, "/cypher", nil, "give the Cypher query to run")
	}
	params, err := decodeParams(a.Params)
	if err != nil {
		return nil, err
	}
	v, err := tenant.Required(ctx, true)
	if err != nil {
		return nil, err
	}
	params[tenant.Param] = v
	if t.env.Driver == nil {
		return nil, neo4jtx.ErrNoDriver
	}
	ex, err := readonly.Check(ctx, t.env.Driver, a.Cypher, readonly.Options{Database: t.env.Database, Timeout: t.env.Timeout, Procedures: t.procedures, Params: params})
	if err != nil {
		return nil, queryError(err, "explaining")
	}
	if err := scope.Check(ex.Plan, t.m.Tenant.Field, tenant.Param); err != nil {
		return nil, tools.Fail(Name, "/cypher", nil, "%v", err)
	}
	return t.run(ctx, a, params, ex.Keys)
}

// maxString is the length a call's strings are cut to (0: never); the
// host's verbose call cuts nothing whatever it says (neo4jvalue.New).
func (t *tool) maxString(whole bool) int {
	switch {
	case t.env.MaxString <= 0:
		return 0
	case whole:
		return max(t.env.MaxString, WholeText)
	}
	return t.env.MaxString
}

// run executes the checked query in a read transaction and converts its
// rows, reading one row past the cap to know whether it truncated.
func (t *tool) run(ctx context.Context, a args, params map[string]any, keys []string) (*Result, error) {
	var out *Result
	_, err := neo4jtx.Read(ctx, t.env.Driver, t.env.Database, t.env.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		// Rows show nodes as traverse's description promises: without the
		// tenant field, the same on every node the query may read.
		c := neo4jvalue.New(ctx, t.m, t.maxString(a.WholeText))
		c.Hidden = append(c.Hidden, t.m.Tenant.Field)
		out = &Result{Columns: keys, Rows: []map[string]any{}}
		res, err := tx.Run(ctx, a.Cypher, params)
		if err != nil {
			return nil, err
		}
		if out.Columns, err = res.Keys(); err != nil {
			return nil, err
		}
		for res.Next(ctx) {
			if out.Count == t.env.MaxRows {
				out.Truncated = true
				break
			}
			rec := res.Record()
			row := make(map[string]any, len(rec.Keys))
			for i, k := range rec.Keys {
				if v, ok := c.Value(k, rec.Values[i]); ok {
					row[k] = v
				}
			}
			out.Rows = append(out.Rows, row)
			out.Count++
		}
		if err := res.Err(); err != nil {
			return nil, err
		}
		out.Notes = c.Notes()
		if c.Shortened() && c.MaxString < WholeText {
			out.Notes = append(out.Notes, fmt.Sprintf("for longer text call again with whole_text: true (up to %d characters)", WholeText))
		}
		return nil, nil
	})
	if err != nil {
		return nil, queryError(err, "running")
	}
	if out.Truncated {
		out.Notes = append(out.Notes, fmt.Sprintf("only the first %d rows are returned; add LIMIT, aggregate, or narrow the query", t.env.MaxRows))
	}
	return out, nil
}

// queryError is the error of a query that failed while Neo4j was doing
// (explaining or running) it: a CallError on /cypher when readonly.Fault
// finds it the query's fault, as run_cypher answers the same query, else
// an internal error saying what failed.
func queryError(err error, doing string) error {
	if msg, ok := readonly.Fault(err); ok {
		return tools.Fail(Name, "/cypher", nil, "%s", msg)
	}
	return fmt.Errorf("traverse: %s the query: %w", doing, err)
}

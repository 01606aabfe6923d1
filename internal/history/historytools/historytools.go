// Package historytools is the change-history tools of a config's
// change_tracking block: get_entity_change_history,
// find_recently_modified_entities, get_most_modified_entities,
// get_change_statistics and compare_entity_versions, one file each. They
// read the Change nodes that writes (package write) and git imports
// (package gitimport) record, in read transactions bounded by the call's
// deadline; every node a statement reads is compared with the bound
// tenant, and every name in a statement comes from the model.
package historytools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// Category groups the tools in a catalog.
const Category tools.Category = "history"

// Limits of one call.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	// MaxBuckets bounds the time buckets of get_change_statistics.
	MaxBuckets = 500
	// DefaultPeriod is the window of find_recently_modified_entities
	// when the call names none.
	DefaultPeriod = "last_7_days"
)

// historian runs the tools of one model.
type historian struct {
	m   *model.Model
	env tools.Env
	t   *change.Tracking
	// types are the tracked entities' names; ents the same entities with
	// their names quoted.
	types []string
	ents  map[string]*tracked
	// conds checks a call's conditions as query_entities' are checked,
	// and plan compiles them (planner.Planner.Select).
	conds *tools.Conditions
	plan  *planner.Planner
}

// The history tools come after the application's own tools, when the
// options ask for them (tools.Env.History, ragforge-plan --history): a
// catalog pays for them only then.
func init() {
	tools.RegisterHandlers(tools.Handlers{Name: "history", Rank: 60, Build: func(m *model.Model, env tools.Env) ([]tools.CustomTool, error) {
		if !env.History {
			return nil, nil
		}
		return New(m, env)
	}})
}

// New returns the change-history tools of m, none when m tracks no
// changes. Conditions may test env.Computed's fields (nil: New compiles
// them); relative periods count from env.Now.
func New(m *model.Model, env tools.Env) ([]tools.CustomTool, error) {
	t, err := change.New(m)
	if err != nil || t == nil {
		return nil, err
	}
	env = env.WithDefaults()
	p, err := planner.New(m, planner.Options{Computed: env.Computed, Now: env.Now})
	if err != nil {
		return nil, err
	}
	h := &historian{m: m, env: env, t: t, types: t.Entities, ents: map[string]*tracked{}, conds: tools.NewConditions(m), plan: p}
	for _, name := range t.Entities {
		if h.ents[name], err = newTracked(m, name); err != nil {
			return nil, err
		}
	}
	return []tools.CustomTool{h.entityHistory(), h.recentlyModified(), h.mostModified(), h.statistics(), h.compareVersions()}, nil
}

// tool wraps a read-only tool's handler: the tenant bound to the call,
// the arguments decoded into A (numbers in untyped values, such as the
// values of conditions, as json.Number, which tools.Conditions reads).
// The input schema carries the condition grammar's $defs, which its
// conditions argument refers to.
func tool[A any](h *historian, name, description string, in *tools.Schema, run func(ctx context.Context, tn string, a A) (any, error)) tools.CustomTool {
	in.Defs = h.conds.Defs()
	return tools.CustomTool{
		Name: name, Category: Category, Description: description, Input: in, ReadOnly: true,
		Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			tn, err := tenant.Required(ctx, h.m.Tenant != nil)
			if err != nil {
				return nil, err
			}
			var a A
			dec := json.NewDecoder(bytes.NewReader(args))
			dec.UseNumber()
			if err := dec.Decode(&a); err != nil {
				return nil, tools.Fail(name, "", nil, "the arguments do not fit the tool's schema: %v", err)
			}
			return run(ctx, tn, a)
		},
	}
}

// read runs work in a read transaction within the call's deadline.
func (h *historian) read(ctx context.Context, work func(tx neo4j.ManagedTransaction) (any, error)) (any, error) {
	return neo4jtx.Read(ctx, h.env.Driver, h.env.Database, h.env.Timeout, work)
}

// rows runs one statement and returns its records.
func rows(ctx context.Context, tx neo4j.ManagedTransaction, q string, params map[string]any) ([]*neo4j.Record, error) {
	res, err := tx.Run(ctx, q, params)
	if err != nil {
		return nil, err
	}
	return res.Collect(ctx)
}

// timeOf is a time column in the result's form.
func timeOf(v any) string {
	if t, ok := v.(time.Time); ok {
		return t.UTC().Format(time.RFC3339Nano)
	}
	s, _ := neo4jvalue.Value(v).(string)
	return s
}

// tenantWhere is the WHERE comparing the node v with the tenant ("" when
// the config has none).
func (h *historian) tenantWhere(v string) string {
	if h.t.TenantField == "" {
		return ""
	}
	return " WHERE " + v + "." + h.t.Q.Tenant + " = $tenant"
}

// truncated says a list shows n of total.
func truncated(n int, total int64) string {
	return fmt.Sprintf("showing the newest %d of %d changes; raise limit (at most %d) for more", n, total, MaxLimit)
}

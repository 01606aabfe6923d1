package analytics

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// Limits of one call.
const (
	// DefaultLimit and MaxLimit bound the ranked entities or the clusters
	// a call returns.
	DefaultLimit = 10
	MaxLimit     = 50
	// DefaultMembers and MaxMembers bound the top members shown per
	// cluster.
	DefaultMembers = 5
	MaxMembers     = 25
)

// Analytics holds the analytics tools of one model.
type Analytics struct {
	m     *model.Model
	env   tools.Env
	tools []tools.CustomTool
	// concurrency is the GDS workers of every algorithm
	// (DefaultConcurrency).
	concurrency int
}

// The analytics tools come after the history tools, when the config
// declares analytics and the server has GDS.
func init() {
	tools.RegisterHandlers(tools.Handlers{Name: "analytics", Rank: 70, Build: func(m *model.Model, env tools.Env) ([]tools.CustomTool, error) {
		return New(m, env).Tools(), nil
	}})
}

// New prepares the analytics tools of m: none when m declares no
// analytics or the server has no GDS (env.Capabilities.GDS).
func New(m *model.Model, env tools.Env) *Analytics {
	a := &Analytics{m: m, env: env.WithDefaults(), concurrency: DefaultConcurrency}
	if m == nil || m.Analytics == nil || !env.Capabilities.GDS {
		return a
	}
	for _, g := range m.Analytics.Importance {
		a.tools = append(a.tools, a.importanceTool(a.graph(g)))
	}
	for _, c := range m.Analytics.Clusters {
		a.tools = append(a.tools, a.clustersTool(a.graph(&c.AnalyticsGraph), c))
	}
	return a
}

// Tools returns the tools for the catalog: the importance tools, then
// the cluster tools, in config order.
func (a *Analytics) Tools() []tools.CustomTool { return a.tools }

// ImportanceToolName is the PageRank tool of an entity.
func ImportanceToolName(entity string) string { return "find_important_" + model.SnakeCase(entity) }

// ClustersToolName is the community tool of an entity.
func ClustersToolName(entity string) string { return "find_" + model.SnakeCase(entity) + "_clusters" }

// graph is one configured graph with what its calls need of the model.
type graph struct {
	g *model.AnalyticsGraph
	e *model.Entity
	// tenantField is the config's tenant field, "" when it has none.
	tenantField string
	maxNodes    int
}

func (a *Analytics) graph(g *model.AnalyticsGraph) *graph {
	gr := &graph{g: g, e: a.m.Entity(g.Entity), maxNodes: a.m.Analytics.MaxNodes}
	if a.m.Tenant != nil {
		gr.tenantField = a.m.Tenant.Field
	}
	return gr
}

// over describes the projected graph in a tool's description.
func (gr *graph) over() string {
	s := fmt.Sprintf("%s nodes and their %s relationships", gr.e.Name, strings.Join(gr.g.Relationships, ", "))
	if gr.g.Weight != "" {
		s += fmt.Sprintf(", weighted by %s (1 where unset)", gr.g.Weight)
	}
	return s
}

// commonProps are the arguments both tools take.
func (gr *graph) commonProps(limitWhat string) []tools.Prop {
	return []tools.Prop{
		{Name: "limit", Schema: &tools.Schema{Type: "integer", Description: limitWhat, Default: DefaultLimit, Minimum: tools.Num(1), Maximum: tools.Num(MaxLimit),
			Narrow: tools.LimitNarrows()}},
		{Name: "relationships", Schema: &tools.Schema{Type: "array", Description: "Relationship types to follow (default: all of them)",
			MinItems: tools.Count(1), UniqueItems: true, Items: &tools.Schema{Type: "string", Enum: gr.g.Relationships}}},
	}
}

// call is what every call checks and binds before it runs: its arguments
// decoded, its tenant, its relationship types.
type call struct {
	// tenant is the bound tenant (nil when the config has none).
	tenant any
	// types are the relationship types of the call, in config order.
	types []string
}

// begin decodes raw into args and resolves what every call needs; the
// error is a CallError for bad arguments, tenant.ErrUnbound or
// neo4jtx.ErrNoDriver.
func (a *Analytics) begin(ctx context.Context, tool string, gr *graph, raw json.RawMessage, args any, relationships *[]string) (*call, error) {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, args); err != nil {
		return nil, tools.Fail(tool, "", nil, "arguments do not fit the tool's schema: %v", err)
	}
	c := &call{types: gr.g.Relationships}
	if len(*relationships) > 0 {
		c.types = nil
		for i, t := range *relationships {
			if !slices.Contains(gr.g.Relationships, t) {
				return nil, tools.Fail(tool, fmt.Sprintf("/relationships/%d", i), gr.g.Relationships, "%q is not a relationship type of this graph", t)
			}
		}
		for _, t := range gr.g.Relationships {
			if slices.Contains(*relationships, t) {
				c.types = append(c.types, t)
			}
		}
	}
	if a.m.Tenant != nil {
		v, err := tenant.Required(ctx, true)
		if err != nil {
			return nil, err
		}
		c.tenant = v
	}
	if a.env.Driver == nil {
		return nil, neo4jtx.ErrNoDriver
	}
	return c, nil
}

// clamp keeps n within 1..most, with def for 0 (not given).
func clamp(n, def, most int) int {
	if n == 0 {
		n = def
	}
	return min(max(n, 1), most)
}

package explore

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

// ToolName is the explore tool's name.
const ToolName = "explore"

// Category groups the explore tool in a catalog.
const Category tools.Category = "memory"

// Limits of one call.
const (
	// DefaultThreshold is the least similarity (0..1) a vector hit needs
	// when the query gives none.
	DefaultThreshold = 0.3
	// fallbackTop is the per-entity count when the config sets neither
	// top nor default_top.
	fallbackTop = 5
	// MaxTop bounds a per-entity top, from the config or the call.
	MaxTop = 50
	// MaxQueries and MaxTextMatches bound the searches of one call.
	MaxQueries     = 5
	MaxTextMatches = 10
	// TopEdges is how many edges the call ranks by relevance, then date.
	TopEdges = 10
	// NeighboursPerHit and MaxNeighbours bound the neighbours returned.
	NeighboursPerHit = 3
	MaxNeighbours    = 30
	// MaxEdges bounds the edges between hits and from the owner.
	MaxEdges = 100
)

// explorer runs the explore tool of one model.
type explorer struct {
	m   *model.Model
	env tools.Env
	// ents are the model's entities with what explore needs of each, in
	// config order.
	ents []*entityInfo
	// rels describes the declared relationship types.
	rels *relInfo
}

// explore comes after traverse: a memory graph's explore block, read in
// its own read transaction.
func init() {
	tools.RegisterHandlers(tools.Handlers{Name: "explore", Rank: 40, Build: func(m *model.Model, env tools.Env) ([]tools.CustomTool, error) {
		return New(m, env), nil
	}})
}

// New returns the explore tool of m, or none when m declares no explore
// block. The catalog checks its arguments against the schema; the
// handler checks the rest. env.Embedder embeds the queries; without
// one, explore searches by name only (its schema has no queries).
func New(m *model.Model, env tools.Env) []tools.CustomTool {
	if m == nil || m.Explore == nil {
		return nil
	}
	x := newExplorer(m, env)
	return []tools.CustomTool{{
		Name: ToolName, Category: Category, Description: x.describe(), Input: x.schema(),
		Handler: x.handle, ReadOnly: true,
		Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
	}}
}

// newExplorer prepares the explore tool of m, which declares explore.
func newExplorer(m *model.Model, env tools.Env) *explorer {
	x := &explorer{m: m, env: env.WithDefaults(), rels: newRelInfo(m)}
	for _, e := range m.Entities {
		x.ents = append(x.ents, newEntityInfo(m, e))
	}
	return x
}

// vectorSearch reports whether queries can run: an embedder and at least
// one vector index.
func (x *explorer) vectorSearch() bool {
	return x.env.Embedder != nil && slices.ContainsFunc(x.ents, func(ei *entityInfo) bool { return len(ei.e.VectorIndexes) > 0 })
}

// describe writes the tool's description: what it searches, how it
// ranks, what it returns, each as the code does it (no more). The hits
// kept per entity are the schema's top defaults.
func (x *explorer) describe() string {
	var b strings.Builder
	b.WriteString("The user's memories matching ")
	if x.vectorSearch() {
		b.WriteString("queries by meaning and ")
	}
	b.WriteString("text_matches by name (typos tolerated), ranked by salience = match score × connectedness")
	if ex := x.m.Explore; ex.RecencyField != "" {
		fmt.Fprintf(&b, " × recency (halved every %g days)", halfLife(ex))
	}
	b.WriteString(". Returns the top hits per entity, edges between them, ")
	if x.m.Explore.OwnerEntity != "" {
		b.WriteString("the user's own node and its edges to them, ")
	}
	fmt.Fprintf(&b, "up to %d neighbours per hit and the %d most relevant edges.", NeighboursPerHit, TopEdges)
	var only []string
	for _, ei := range x.ents {
		if ei.text == textNone && len(ei.e.VectorIndexes) == 0 {
			only = append(only, ei.e.Name)
		}
	}
	if len(only) > 0 {
		fmt.Fprintf(&b, " %s: only as neighbours.", strings.Join(only, ", "))
	}
	return b.String()
}

// schema is the tool's input schema.
func (x *explorer) schema() *tools.Schema {
	in := tools.Object()
	if x.vectorSearch() {
		query := tools.Object(
			tools.Prop{Name: "query", Schema: &tools.Schema{Type: "string", MinLength: tools.Count(1), MaxLength: tools.Count(2000)}},
			tools.Prop{Name: "threshold", Schema: &tools.Schema{Type: "number", Description: "Least similarity", Default: DefaultThreshold, Minimum: tools.Num(0), Maximum: tools.Num(1)}},
		).Require("query")
		in.Props = append(in.Props, tools.Prop{Name: "queries", Schema: &tools.Schema{Type: "array", MaxItems: tools.Count(MaxQueries), Items: query}})
	}
	// The entity names are checked by the handler (an unknown one is
	// refused at its path), so the defaults go in one line rather than a
	// property each.
	var defaults []string
	for _, ei := range x.ents {
		defaults = append(defaults, fmt.Sprintf("%s %d", ei.e.Name, ei.top))
	}
	in.Props = append(in.Props,
		tools.Prop{Name: "text_matches", Schema: &tools.Schema{Type: "array", MaxItems: tools.Count(MaxTextMatches),
			Items: &tools.Schema{Type: "string", MinLength: tools.Count(1), MaxLength: tools.Count(200)}}},
		tools.Prop{Name: "top", Schema: &tools.Schema{Type: "object",
			Description: fmt.Sprintf("Hits kept per entity, at most %d (defaults: %s)", MaxTop, strings.Join(defaults, ", ")),
			Values:      &tools.Schema{Type: "integer", Minimum: tools.Num(1)},
			Narrow:      tools.Narrows(tools.NarrowReach, "smaller counts per entity")}},
		tools.Prop{Name: "explanations", Schema: &tools.Schema{Type: "boolean", Description: "Adds counts (hits per source and entity, dropped by threshold or top) and score parts"}})
	return in
}

// Query is one meaning search of a call.
type Query struct {
	Query string `json:"query"`
	// Threshold is the least similarity a hit needs (DefaultThreshold if
	// nil).
	Threshold *float64 `json:"threshold"`
}

// Args are the explore tool's arguments.
type Args struct {
	Queries      []Query        `json:"queries"`
	TextMatches  []string       `json:"text_matches"`
	Explanations bool           `json:"explanations"`
	Top          map[string]int `json:"top"`
}

func (x *explorer) handle(ctx context.Context, raw json.RawMessage) (any, error) {
	var a Args
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, tools.Fail(ToolName, "", nil, "arguments do not fit the tool's schema: %v", err)
	}
	return x.run(ctx, a)
}

// run checks the arguments, embeds the queries, reads and ranks.
func (x *explorer) run(ctx context.Context, a Args) (*Result, error) {
	if err := x.check(a); err != nil {
		return nil, err
	}
	var tn any
	if x.m.Tenant != nil {
		v, err := tenant.Required(ctx, true)
		if err != nil {
			return nil, err
		}
		tn = v
	}
	if x.env.Driver == nil {
		return nil, neo4jtx.ErrNoDriver
	}
	tops := x.tops(a.Top)
	srcs, err := x.sources(ctx, a, tops)
	if err != nil {
		return nil, err
	}
	return x.read(ctx, a, tn, srcs, tops)
}

// check refuses what the schema cannot: an empty call, queries without an
// embedder, blank strings, unknown entities in top.
func (x *explorer) check(a Args) error {
	if len(a.Queries) == 0 && len(a.TextMatches) == 0 {
		if x.vectorSearch() {
			return tools.Fail(ToolName, "", nil, "give queries (what to look for, by meaning) or text_matches (names), or both")
		}
		return tools.Fail(ToolName, "", nil, "give text_matches (names or words to look for)")
	}
	if len(a.Queries) > 0 && !x.vectorSearch() {
		return tools.Fail(ToolName, "/queries", nil, "search by meaning is not available here (no embedder or no vector index); use text_matches")
	}
	for i, q := range a.Queries {
		if strings.TrimSpace(q.Query) == "" {
			return tools.Fail(ToolName, fmt.Sprintf("/queries/%d/query", i), nil, "the query is blank")
		}
		if t := q.Threshold; t != nil && (*t < 0 || *t > 1) {
			return tools.Fail(ToolName, fmt.Sprintf("/queries/%d/threshold", i), nil, "threshold is %v; it must be within 0..1", *t)
		}
	}
	for i, s := range a.TextMatches {
		if len(words(s)) == 0 {
			return tools.Fail(ToolName, fmt.Sprintf("/text_matches/%d", i), nil, "the text has no letters or digits to match")
		}
	}
	for name := range a.Top {
		if x.m.Entity(name) == nil {
			return tools.Fail(ToolName, "/top/"+name, x.m.EntityNames(), "not an entity")
		}
	}
	return nil
}

// tops returns the hits kept per entity: the call's override, else the
// config's, clamped to 1..MaxTop.
func (x *explorer) tops(override map[string]int) map[string]int {
	out := map[string]int{}
	for _, ei := range x.ents {
		n := ei.top
		if v, ok := override[ei.e.Name]; ok {
			n = v
		}
		out[ei.e.Name] = min(max(n, 1), MaxTop)
	}
	return out
}

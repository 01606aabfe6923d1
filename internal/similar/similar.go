// Package similar is find_similar_<entity>: the entities most like a given
// node, for each entity the config's similarity block names (model.Similar).
//
// Three modes compare the node n with the other nodes m of its label (and
// tenant):
//
//   - semantic: n's own stored vector is the query of the entity's vector
//     index (nearest neighbours, n excluded); the score is the index's
//     similarity, 0..1. No embedder is needed: the vectors are stored.
//   - structural: the neighbours n and m share over the configured
//     relationship types (either direction): Jaccard |N(n)∩N(m)| /
//     |N(n)∪N(m)|, or Adamic–Adar Σ 1/ln|N(z)| over the shared neighbours
//     z, which weighs a rare shared neighbour above a hub.
//   - hybrid: both, each divided by its best value among the candidates,
//     then weighted (semantic_weight, default 0.5).
//
// The work is bounded (docs/design.md, invariant 10): at most
// MaxNeighbours neighbours of n, MaxFanout candidates through each, every
// neighbour count capped at MaxDegree, and a note says which cap was hit.
// Every node a statement reads is compared with the bound tenant
// (invariant 8), and every label, type and property comes from the model
// (invariant 1).
package similar

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// Category groups the find_similar tools in a catalog.
const Category tools.Category = "similarity"

// Limits of one call.
const (
	// DefaultTopK and MaxTopK bound the similar entities returned.
	DefaultTopK = 10
	MaxTopK     = 50
	// MaxNeighbours is how many neighbours of the node structural mode
	// compares through.
	MaxNeighbours = 100
	// MaxFanout is how many candidates one neighbour contributes.
	MaxFanout = 100
	// MaxDegree caps every neighbour count (of the node, of a candidate,
	// of a shared neighbour), so a hub costs no more than this.
	MaxDegree = 1000
	// SemanticPool is how many nearest neighbours hybrid mode adds to the
	// structural candidates.
	SemanticPool = 50
	// DefaultSemanticWeight is hybrid's weight of the semantic score.
	DefaultSemanticWeight = 0.5
)

// The modes and measures, as the schema offers them.
const (
	Semantic   = "semantic"
	Structural = "structural"
	Hybrid     = "hybrid"
	Jaccard    = "jaccard"
	AdamicAdar = "adamic_adar"
)

// ToolName is the find_similar tool of an entity (Scope →
// find_similar_scope).
func ToolName(entity string) string { return "find_similar_" + model.SnakeCase(entity) }

// finder runs one entity's tool.
type finder struct {
	m   *model.Model
	env tools.Env
	e   *model.Entity
	// vi is the vector index of semantic mode, nil without one.
	vi *model.VectorIndex
	// via are the relationship types of structural mode.
	via   []string
	modes []string
	name  string
}

// The find_similar tools come last.
func init() {
	tools.RegisterHandlers(tools.Handlers{Name: "similar", Rank: 80, Build: func(m *model.Model, env tools.Env) ([]tools.CustomTool, error) {
		return New(m, env), nil
	}})
}

// New returns the find_similar tool of every entity m's similarity block
// names, in config order. The stored vectors semantic mode compares are
// the ones env.Embedder made, so when it does not capture meaning
// (env.EmbedderCaveat) the description and every semantic or hybrid
// result say so.
func New(m *model.Model, env tools.Env) []tools.CustomTool {
	if m == nil {
		return nil
	}
	env = env.WithDefaults()
	var out []tools.CustomTool
	for _, s := range m.Similarity {
		e := m.Entity(s.Entity)
		if e == nil {
			continue
		}
		f := &finder{m: m, env: env, e: e, via: s.Via, name: ToolName(e.Name)}
		for _, vi := range e.VectorIndexes {
			if vi.Name == s.Index {
				f.vi = vi
			}
		}
		if f.vi != nil {
			f.modes = append(f.modes, Semantic)
		}
		if len(f.via) > 0 {
			f.modes = append(f.modes, Structural)
		}
		if len(f.modes) == 2 {
			f.modes = append(f.modes, Hybrid)
		}
		if len(f.modes) == 0 {
			continue
		}
		out = append(out, tools.CustomTool{
			Name: f.name, Category: Category, Description: f.describe(), Input: f.schema(),
			Handler: f.handle, ReadOnly: true,
			Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true},
		})
	}
	return out
}

// defaultMode is hybrid when both are offered, else the one offered.
func (f *finder) defaultMode() string { return f.modes[len(f.modes)-1] }

// describe writes the tool's description: what it compares, the modes
// and their caps, in few words (every catalog carries it).
func (f *finder) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s entities most like one %s, best first.", f.e.Name, f.e.Name)
	if f.vi != nil {
		fmt.Fprintf(&b, " semantic: nearest by its stored %s vector.", f.vi.Field)
		if c := f.env.EmbedderCaveat(); c != "" {
			b.WriteString(" " + c)
		}
	}
	if len(f.via) > 0 {
		fmt.Fprintf(&b, " structural: shared neighbours over %s (≤%d neighbours, ≤%d candidates each).", strings.Join(f.via, ", "), MaxNeighbours, MaxFanout)
	}
	if slices.Contains(f.modes, Hybrid) {
		b.WriteString(" hybrid: both, scaled to the best, weighted.")
	}
	return b.String()
}

// schema is the tool's input schema; id takes the unique field's type.
func (f *finder) schema() *tools.Schema {
	idType := "string"
	if uf := f.e.Field(f.e.UniqueField); uf != nil && uf.Type == "integer" {
		idType = "integer"
	}
	in := tools.Object(
		tools.Prop{Name: "id", Schema: &tools.Schema{Type: idType, Description: "its " + f.e.UniqueField}},
		tools.Prop{Name: "mode", Schema: &tools.Schema{Type: "string", Enum: f.modes, Default: f.defaultMode()}},
	).Require("id")
	if len(f.via) > 0 {
		in.Props = append(in.Props, tools.Prop{Name: "measure", Schema: &tools.Schema{Type: "string", Enum: []string{Jaccard, AdamicAdar}, Default: Jaccard}})
	}
	if slices.Contains(f.modes, Hybrid) {
		in.Props = append(in.Props, tools.Prop{Name: "semantic_weight", Schema: &tools.Schema{Type: "number", Minimum: tools.Num(0), Maximum: tools.Num(1), Default: DefaultSemanticWeight}})
	}
	in.Props = append(in.Props, tools.Prop{Name: "top_k", Schema: &tools.Schema{Type: "integer", Minimum: tools.Num(1), Maximum: tools.Num(MaxTopK), Default: DefaultTopK,
		Narrow: tools.Narrows(tools.NarrowResults, "a smaller top_k")}})
	return in
}

// Args are a find_similar tool's arguments.
type Args struct {
	ID             any      `json:"id"`
	Mode           string   `json:"mode"`
	Measure        string   `json:"measure"`
	TopK           int      `json:"top_k"`
	SemanticWeight *float64 `json:"semantic_weight"`
}

// Result is what a find_similar tool returns.
type Result struct {
	Entity  string `json:"entity_type"`
	ID      any    `json:"id"`
	Mode    string `json:"mode"`
	Measure string `json:"measure,omitempty"`
	Similar []Hit  `json:"similar"`
	// Notes say which cap was hit, or why a mode found nothing.
	Notes []string `json:"notes,omitempty"`
}

// Hit is one similar entity: its unique field's value, its score and the
// parts it was made of, and its fields.
type Hit struct {
	ID    any     `json:"id"`
	Score float64 `json:"score"`
	// Semantic and Structural are the mode's raw scores (hybrid shows
	// both); Shared is how many neighbours it shares.
	Semantic   *float64       `json:"semantic,omitempty"`
	Structural *float64       `json:"structural,omitempty"`
	Shared     int            `json:"shared,omitempty"`
	Fields     map[string]any `json:"fields,omitempty"`
}

package traverse

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/model"
)

// embeddingLen is the length from which a list of numbers is taken for an
// embedding and left out: vectors cost thousands of tokens and mean
// nothing to an agent.
const embeddingLen = 32

// converter turns Neo4j values into JSON-friendly ones for one call:
// nodes and relationships become their property maps without the tenant
// field and embeddings, temporal and spatial values as package neo4jvalue
// writes them, non-finite floats strings.
type converter struct {
	tenantField string
	vectors     []string
	dropped     map[string]bool
}

func newConverter(m *model.Model) *converter {
	c := &converter{tenantField: m.Tenant.Field, dropped: map[string]bool{}}
	for _, e := range m.Entities {
		for _, vi := range e.VectorIndexes {
			c.vectors = append(c.vectors, vi.Property)
		}
	}
	return c
}

// props converts an entity's properties, leaving out the tenant field and
// embedding vectors.
func (c *converter) props(p map[string]any) map[string]any {
	out := make(map[string]any, len(p))
	for k, v := range p {
		if k == c.tenantField {
			continue
		}
		if slices.Contains(c.vectors, k) || isVector(v) {
			c.dropped[k] = true
			continue
		}
		out[k] = c.value(v)
	}
	return out
}

func (c *converter) value(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x)
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, y := range x {
			out[i] = c.value(y)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, y := range x {
			out[k] = c.value(y)
		}
		return out
	case neo4j.Node:
		return c.props(x.Props)
	case neo4j.Relationship:
		return c.props(x.Props)
	case neo4j.Path:
		nodes := make([]any, len(x.Nodes))
		for i, n := range x.Nodes {
			nodes[i] = c.props(n.Props)
		}
		rels := make([]any, len(x.Relationships))
		for i, r := range x.Relationships {
			rels[i] = map[string]any{"type": r.Type, "properties": c.props(r.Props)}
		}
		return map[string]any{"nodes": nodes, "relationships": rels}
	}
	if t, ok := neo4jvalue.Temporal(v); ok {
		return t
	}
	return v
}

// isVector reports whether v is a list of numbers long enough to be an
// embedding.
func isVector(v any) bool {
	switch x := v.(type) {
	case []float64:
		return len(x) >= embeddingLen
	case []any:
		return len(x) >= embeddingLen && !slices.ContainsFunc(x, func(y any) bool {
			switch y.(type) {
			case int64, float64:
				return false
			}
			return true
		})
	}
	return false
}

// notes say what the conversion left out.
func (c *converter) notes() []string {
	if len(c.dropped) == 0 {
		return nil
	}
	names := make([]string, 0, len(c.dropped))
	for k := range c.dropped {
		names = append(names, k)
	}
	sort.Strings(names)
	return []string{fmt.Sprintf("embedding vectors left out: %v", names)}
}

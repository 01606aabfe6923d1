package engine

import (
	"math"
	"unicode/utf8"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
)

// embeddingMinLen is the length from which a list of numbers is taken for an
// embedding and left out of results: vectors cost thousands of tokens and
// mean nothing to an agent.
const embeddingMinLen = 32

// droppedValue marks a value left out of a result.
type droppedValue struct{}

var dropped = droppedValue{}

// value converts a Neo4j value to a JSON-friendly one, recording shortened
// strings and dropped vectors under name: temporal values become ISO-8601
// strings, points {latitude, longitude} (WGS-84) or {x, y[, z], srid},
// non-finite floats the strings "NaN", "Infinity", "-Infinity", nodes and
// relationships their properties.
func (sh *shaper) value(name string, v any) any {
	switch x := v.(type) {
	case nil, bool, int64:
		return x
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		}
		return x
	case string:
		if max := sh.e.opts.MaxString; !sh.verbose && max > 0 && utf8.RuneCountInString(x) > max {
			sh.shortened[name] = true
			n := 0
			for i := range x {
				if n == max {
					return x[:i] + "…"
				}
				n++
			}
		}
		return x
	case []any:
		if len(x) >= embeddingMinLen && allNumbers(x) {
			sh.dropped[name] = true
			return dropped
		}
		out := make([]any, 0, len(x))
		for _, y := range x {
			if c := sh.value(name, y); c != dropped {
				out = append(out, c)
			}
		}
		return out
	case []float64:
		if len(x) >= embeddingMinLen {
			sh.dropped[name] = true
			return dropped
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, y := range x {
			if c := sh.value(k, y); c != dropped {
				out[k] = c
			}
		}
		return out
	case neo4j.Node:
		return sh.value(name, x.Props)
	case neo4j.Relationship:
		return sh.value(name, x.Props)
	case neo4j.Path:
		nodes := make([]any, len(x.Nodes))
		for i, n := range x.Nodes {
			nodes[i] = sh.value(name, n.Props)
		}
		return map[string]any{"nodes": nodes, "length": len(x.Relationships)}
	}
	if t, ok := neo4jvalue.Temporal(v); ok {
		return t
	}
	return v
}

func allNumbers(xs []any) bool {
	for _, x := range xs {
		switch x.(type) {
		case int64, float64:
		default:
			return false
		}
	}
	return true
}

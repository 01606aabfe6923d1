// Package neo4jvalue is the one conversion of the values Neo4j returns into
// what a tool result shows: the generated tools, run_cypher, traverse and
// explore all convert through it, so a date, a point, a node, a path or an
// infinite float reads the same whichever tool returned it.
//
// The forms, for encoding/json:
//
//   - null, booleans, integers, finite floats and strings as they are;
//   - NaN, +Inf and -Inf as the strings "NaN", "Infinity" and "-Infinity",
//     the words Cypher's own toString() writes (JSON has no number for
//     them);
//   - a datetime as RFC 3339 with its offset, a date as YYYY-MM-DD, a local
//     datetime, a local time and a time ISO-8601 without (or with) their
//     offset, a duration as Neo4j writes it (P1M2DT3S);
//   - a WGS-84 point as {latitude, longitude[, height]}, any other point
//     as {x, y[, z], srid};
//   - a node or a relationship as its properties;
//   - a path as {nodes: [properties…], relationships: [{type, properties}…],
//     length}, the keys of find_paths' paths;
//   - lists and maps element by element.
//
// A [Converter] adds what one result leaves out: embeddings (lists of 32
// numbers or more but the model's list fields, and the model's
// vector-index properties), the tenant
// field in traverse's nodes, and long strings cut to a length; it
// remembers what it left out for the result's [Converter.Notes].
package neo4jvalue

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/ragforge/ragforge/model"
)

// embeddingMinLen is the length from which a list of numbers is taken for
// an embedding and left out of results: vectors cost thousands of tokens
// and mean nothing to an agent.
const embeddingMinLen = 32

// Converter converts the values of one result. The zero Converter leaves
// out embeddings and nothing else; a nil *Converter leaves out nothing
// ([Value]).
type Converter struct {
	// MaxString, when positive, cuts longer strings to MaxString
	// characters and an ellipsis.
	MaxString int
	// Hidden are properties left out of nodes and relationships without a
	// note: the vectors' text hashes ([HashProperties]), bookkeeping of
	// `ragforge-plan embed`, and traverse's tenant field, the same on
	// every node it may read.
	Hidden []string
	// Vectors are properties left out of nodes and relationships as
	// embeddings whatever their value: the model's vector-index
	// properties ([VectorProperties]).
	Vectors []string
	// Lists are the declared list fields ([ListProperties]), never left
	// out as embeddings.
	Lists []string
	// Whole is a property never shortened: the page of a text a call
	// asked for, which its statement bounds.
	Whole string
	// ReadWhole, when set, says how to read a shortened text whole; the
	// note of shortened text ends with it.
	ReadWhole string

	shortened, dropped map[string]bool
}

// New returns the converter of a result over m's graph: it leaves out m's
// vector-index properties, their text hashes and embedding-like lists,
// and cuts strings to maxString characters when maxString is positive and
// ctx does not ask for them whole ([WithWhole]: the host's verbose call),
// so that every tool honours verbose the same way.
func New(ctx context.Context, m *model.Model, maxString int) *Converter {
	if Whole(ctx) {
		maxString = 0
	}
	return &Converter{MaxString: maxString, Vectors: VectorProperties(m), Hidden: HashProperties(m), Lists: ListProperties(m)}
}

// VectorProperties are the properties m's vector indexes embed, sorted.
func VectorProperties(m *model.Model) []string {
	return indexProperties(m, (*model.VectorIndex).VectorProperty)
}

// HashProperties are the properties beside m's vectors that hold the hash
// of the text each was made from, sorted.
func HashProperties(m *model.Model) []string {
	return indexProperties(m, (*model.VectorIndex).HashProperty)
}

// indexProperties are the distinct properties name gives m's vector
// indexes, sorted.
func indexProperties(m *model.Model, name func(*model.VectorIndex) string) []string {
	var out []string
	for _, e := range m.Entities {
		for _, vi := range e.VectorIndexes {
			if p := name(vi); !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Value converts v with no policy: nothing is cut or left out.
func Value(v any) any {
	out, _ := (*Converter)(nil).Value("", v)
	return out
}

// Reset forgets what the converter cut and left out (a retried
// transaction converts its rows again).
func (c *Converter) Reset() {
	c.shortened, c.dropped = nil, nil
}

// Value converts v, read from the column or property name (which the
// notes name). ok is false when v is left out: an embedding-like list.
func (c *Converter) Value(name string, v any) (out any, ok bool) {
	switch x := v.(type) {
	case nil, bool, int64:
		return x, true
	case float64:
		return float(x), true
	case string:
		return c.str(name, x), true
	case []any:
		if c.embeddingLike(name, x) {
			c.drop(name)
			return nil, false
		}
		out := make([]any, 0, len(x))
		for _, y := range x {
			if cy, ok := c.Value(name, y); ok {
				out = append(out, cy)
			}
		}
		return out, true
	case []float64:
		if c != nil && len(x) >= embeddingMinLen {
			c.drop(name)
			return nil, false
		}
		out := make([]any, len(x))
		for i, f := range x {
			out[i] = float(f)
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, y := range x {
			if cy, ok := c.Value(k, y); ok {
				out[k] = cy
			}
		}
		return out, true
	case dbtype.Node:
		return c.Props(x.Props), true
	case dbtype.Relationship:
		return c.Props(x.Props), true
	case dbtype.Path:
		nodes := make([]any, len(x.Nodes))
		for i, n := range x.Nodes {
			nodes[i] = c.Props(n.Props)
		}
		rels := make([]any, len(x.Relationships))
		for i, r := range x.Relationships {
			rels[i] = map[string]any{"type": r.Type, "properties": c.Props(r.Props)}
		}
		return map[string]any{"nodes": nodes, "relationships": rels, "length": len(rels)}, true
	}
	if t, ok := temporal(v); ok {
		return t, true
	}
	return v, true
}

// Props converts the properties of a node or a relationship (or a map
// projected from one): nulls (absent properties) and Hidden properties are
// left out, Vectors and embedding-like lists left out and noted.
func (c *Converter) Props(p map[string]any) map[string]any {
	out := make(map[string]any, len(p))
	for k, v := range p {
		if v == nil {
			continue
		}
		if c != nil {
			if slices.Contains(c.Hidden, k) {
				continue
			}
			if slices.Contains(c.Vectors, k) {
				c.drop(k)
				continue
			}
		}
		if cv, ok := c.Value(k, v); ok {
			out[k] = cv
		}
	}
	return out
}

// Shortened reports whether the converter cut a string, so a tool can
// say how to get it whole.
func (c *Converter) Shortened() bool { return c != nil && len(c.shortened) > 0 }

// Notes say what the converter cut and left out, naming the columns and
// properties.
func (c *Converter) Notes() []string {
	if c == nil {
		return nil
	}
	var notes []string
	if len(c.shortened) > 0 {
		note := fmt.Sprintf("long text shortened to %d characters in %s (searches still match the whole text)", c.MaxString, joinSorted(c.shortened))
		if c.ReadWhole != "" {
			note += "; " + c.ReadWhole
		}
		notes = append(notes, note)
	}
	if len(c.dropped) > 0 {
		notes = append(notes, "embedding vectors left out: "+joinSorted(c.dropped))
	}
	return notes
}

// float converts a float: NaN and the infinities, which JSON cannot
// write, become the strings Cypher's toString() gives them.
func float(x float64) any {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	return x
}

func (c *Converter) str(name, s string) string {
	if c == nil || c.MaxString <= 0 || name == c.Whole && name != "" || utf8.RuneCountInString(s) <= c.MaxString {
		return s
	}
	if c.shortened == nil {
		c.shortened = map[string]bool{}
	}
	c.shortened[name] = true
	n := 0
	for i := range s {
		if n == c.MaxString {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

func (c *Converter) drop(name string) {
	if c.dropped == nil {
		c.dropped = map[string]bool{}
	}
	c.dropped[name] = true
}

// embedding reports whether xs is a list of numbers long enough to be an
// embedding.
func embedding(xs []any) bool {
	if len(xs) < embeddingMinLen {
		return false
	}
	for _, x := range xs {
		switch x.(type) {
		case int64, float64:
		default:
			return false
		}
	}
	return true
}

// temporal converts a temporal or spatial value; ok is false for any
// other value.
func temporal(v any) (out any, ok bool) {
	switch x := v.(type) {
	case time.Time:
		return x.Format(time.RFC3339Nano), true
	case dbtype.Date:
		return x.Time().Format(time.DateOnly), true
	case dbtype.LocalDateTime:
		return x.Time().Format("2006-01-02T15:04:05.999999999"), true
	case dbtype.LocalTime:
		return x.Time().Format("15:04:05.999999999"), true
	case dbtype.Time:
		return x.Time().Format("15:04:05.999999999Z07:00"), true
	case dbtype.Duration:
		return x.String(), true
	case dbtype.Point2D:
		if x.SpatialRefId == 4326 {
			return map[string]any{"latitude": x.Y, "longitude": x.X}, true
		}
		return map[string]any{"x": x.X, "y": x.Y, "srid": int64(x.SpatialRefId)}, true
	case dbtype.Point3D:
		if x.SpatialRefId == 4979 {
			return map[string]any{"latitude": x.Y, "longitude": x.X, "height": x.Z}, true
		}
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z, "srid": int64(x.SpatialRefId)}, true
	}
	return nil, false
}

func joinSorted(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

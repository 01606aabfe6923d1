// Package schemaapply creates the indexes and constraints a config
// declares: a uniqueness constraint on each unique_field (it brings the
// field's range index), a range index (a point index for point fields) for
// every other `indexed: true` field and relationship property, and each
// entity's full-text and vector indexes.
// Materialized computed fields' indexes are not here: `materialize apply`
// creates them once the values are stored.
//
// Apply is idempotent: it reads the graph's indexes first and leaves alone
// one that exists, by name or — for range, point and uniqueness — as an
// equivalent definition under another name (Neo4j refuses a second
// equivalent index anyway). A full-text or vector index that exists under
// another name is a conflict, not a match: the tools query those by the
// config's name. A name taken by a different definition is a conflict too,
// and so is data that refuses a constraint (duplicate values); apply never
// drops or changes anything. Then it waits until every index it needs is
// online.
package schemaapply

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/graphschema/introspect"
	"github.com/ragforge/ragforge/model"
)

// Kind is what an item creates.
type Kind string

// The kinds of schema items a config declares.
const (
	RangeIndex    Kind = "range_index"
	PointIndex    Kind = "point_index"
	FullTextIndex Kind = "fulltext_index"
	VectorIndex   Kind = "vector_index"
	Uniqueness    Kind = "uniqueness_constraint"
)

// Item is one index or constraint the config declares.
type Item struct {
	Kind Kind `json:"kind"`
	// Name is the config's name (full-text, vector) or one derived from the
	// label and property.
	Name string `json:"name"`
	// Relationship is true for an index on a relationship type's property.
	Relationship bool `json:"relationship,omitempty"`
	// LabelOrType is the entity's label or the relationship type.
	LabelOrType string   `json:"label_or_type"`
	Properties  []string `json:"properties"`
	// Analyzer, Dimensions and Similarity configure full-text and vector
	// indexes.
	Analyzer   string    `json:"analyzer,omitempty"`
	Dimensions int       `json:"dimensions,omitempty"`
	Similarity string    `json:"similarity,omitempty"`
	Pos        model.Pos `json:"-"`
}

// String names the item for progress and summaries:
// `range index ragforge_Scope_name on (:Scope {name})`.
func (it Item) String() string {
	pattern := "(:" + it.LabelOrType + " {" + strings.Join(it.Properties, ", ") + "})"
	if it.Relationship {
		pattern = "()-[:" + it.LabelOrType + " {" + strings.Join(it.Properties, ", ") + "}]-()"
	}
	return strings.ReplaceAll(string(it.Kind), "_", " ") + " " + it.Name + " on " + pattern
}

// Declared lists the model's indexes and constraints, constraints first.
// A uniqueness constraint brings its own range index, so an `indexed: true`
// on the unique field adds nothing (a separate range index there would
// stand in the constraint's way).
func Declared(m *model.Model) []Item {
	var constraints, indexes []Item
	for _, e := range m.Entities {
		constraints = append(constraints, Item{Kind: Uniqueness, Name: name("unique", e.Name, e.UniqueField), LabelOrType: e.Name, Properties: []string{e.UniqueField}, Pos: e.Pos})
		for _, f := range e.Fields {
			if f.Indexed && f.Name != e.UniqueField {
				indexes = append(indexes, fieldIndex(e.Name, f, false))
			}
		}
		for _, r := range e.Relationships {
			for _, p := range r.Properties {
				if p.Indexed {
					indexes = append(indexes, fieldIndex(r.Type, p, true))
				}
			}
		}
		if ft := e.FullTextIndex; ft != nil {
			indexes = append(indexes, Item{Kind: FullTextIndex, Name: ft.Name, LabelOrType: e.Name, Properties: ft.Fields, Analyzer: ft.Analyzer, Pos: ft.Pos})
		}
		for _, v := range e.VectorIndexes {
			indexes = append(indexes, Item{Kind: VectorIndex, Name: v.Name, LabelOrType: e.Name, Properties: []string{v.Property},
				Dimensions: v.Dimensions, Similarity: v.Similarity, Pos: v.Pos})
		}
	}
	if ct := m.ChangeTracking; ct != nil {
		// A Change is found by its key (an import's rerun) and read by
		// time; a declared Change entity may declare the same items.
		c := ct.Resolved()
		constraints = append(constraints, Item{Kind: Uniqueness, Name: name("unique", c.Label, c.Fields.Key), LabelOrType: c.Label, Properties: []string{c.Fields.Key}, Pos: c.Pos})
		indexes = append(indexes, Item{Kind: RangeIndex, Name: name("idx", c.Label, c.Fields.Timestamp), LabelOrType: c.Label, Properties: []string{c.Fields.Timestamp}, Pos: c.Pos})
	}
	return dedupe(append(constraints, indexes...))
}

func fieldIndex(owner string, f *model.Field, rel bool) Item {
	kind := RangeIndex
	if f.Type == model.Point {
		kind = PointIndex
	}
	return Item{Kind: kind, Name: name("idx", owner, f.Name), Relationship: rel, LabelOrType: owner, Properties: []string{f.Name}, Pos: f.Pos}
}

// dedupe drops repeated items: a relationship type's indexed property
// declared by both of its entities is one index.
func dedupe(items []Item) []Item {
	var out []Item
	for _, it := range items {
		if !slices.ContainsFunc(out, func(o Item) bool { return o.Name == it.Name && o.Kind == it.Kind }) {
			out = append(out, it)
		}
	}
	return out
}

// name derives an index or constraint name from its label and property,
// `ragforge_idx_Scope_name`; a name over the identifier limit keeps a
// prefix and a hash of the whole.
func name(prefix, owner, property string) string {
	n := "ragforge_" + prefix + "_" + owner + "_" + property
	if len(n) <= 100 {
		return n
	}
	sum := sha256.Sum256([]byte(n))
	return n[:83] + "_" + hex.EncodeToString(sum[:8])
}

// existing finds what in the graph already provides the item: its name
// when an index or constraint of the same definition exists (under any
// name where the name does not matter), or a conflict error.
func existing(s *introspect.Schema, it Item) (string, error) {
	entityType := "NODE"
	if it.Relationship {
		entityType = "RELATIONSHIP"
	}
	switch it.Kind {
	case Uniqueness:
		if s.UniqueProperty(it.LabelOrType) == it.Properties[0] {
			for _, c := range s.Constraints {
				if slices.Equal(c.LabelsOrTypes, []string{it.LabelOrType}) && slices.Equal(c.Properties, it.Properties) {
					return c.Name, nil
				}
			}
		}
		if ix := s.FindIndex("NODE", it.LabelOrType, it.Properties, "RANGE"); ix != nil {
			return "", fmt.Errorf("%s: the range index %s on the same property stands in the way (Neo4j backs the constraint with its own index); drop it and apply again", it, ix.Name)
		}
	case RangeIndex, PointIndex:
		if ix := s.FindIndex(entityType, it.LabelOrType, it.Properties, strings.ToUpper(strings.TrimSuffix(string(it.Kind), "_index"))); ix != nil {
			return ix.Name, nil
		}
	case FullTextIndex, VectorIndex:
		typ := strings.ToUpper(strings.TrimSuffix(string(it.Kind), "_index"))
		if ix := s.IndexNamed(it.Name); ix != nil {
			if ix.Type == typ && slices.Equal(ix.LabelsOrTypes, []string{it.LabelOrType}) && sameSet(ix.Properties, it.Properties) {
				return ix.Name, nil
			}
			return "", fmt.Errorf("%s: the name %s is taken by a %s index on %v %v; drop it or rename the config's index", it, it.Name, ix.Type, ix.LabelsOrTypes, ix.Properties)
		}
		for _, ix := range s.Indexes {
			if ix.Type == typ && slices.Equal(ix.LabelsOrTypes, []string{it.LabelOrType}) && sameSet(ix.Properties, it.Properties) {
				return "", fmt.Errorf("%s: the graph has the same index named %s, and the tools query it by the config's name: rename it in the config to %s", it, ix.Name, ix.Name)
			}
		}
		return "", nil
	}
	if ix := s.IndexNamed(it.Name); ix != nil {
		return "", fmt.Errorf("%s: the name %s is taken by a %s index on %v %v; drop it and apply again", it, it.Name, ix.Type, ix.LabelsOrTypes, ix.Properties)
	}
	return "", nil
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// statement is the item's CREATE … IF NOT EXISTS, with its options as
// parameters; every name goes through ident.Quote.
func statement(it Item) (string, map[string]any, error) {
	q, err := quoteAll(append([]string{it.Name, it.LabelOrType}, it.Properties...))
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", it, err)
	}
	name, owner, props := q[0], q[1], q[2:]
	pattern := "(n:" + owner + ")"
	if it.Relationship {
		pattern = "()-[n:" + owner + "]-()"
	}
	switch it.Kind {
	case Uniqueness:
		return "CREATE CONSTRAINT " + name + " IF NOT EXISTS FOR " + pattern + " REQUIRE n." + props[0] + " IS UNIQUE", nil, nil
	case RangeIndex:
		return "CREATE RANGE INDEX " + name + " IF NOT EXISTS FOR " + pattern + " ON (n." + props[0] + ")", nil, nil
	case PointIndex:
		return "CREATE POINT INDEX " + name + " IF NOT EXISTS FOR " + pattern + " ON (n." + props[0] + ")", nil, nil
	case FullTextIndex:
		on := make([]string, len(props))
		for i, p := range props {
			on[i] = "n." + p
		}
		stmt := "CREATE FULLTEXT INDEX " + name + " IF NOT EXISTS FOR " + pattern + " ON EACH [" + strings.Join(on, ", ") + "]"
		if it.Analyzer == "" {
			return stmt, nil, nil
		}
		return stmt + " OPTIONS {indexConfig: {`fulltext.analyzer`: $analyzer}}", map[string]any{"analyzer": it.Analyzer}, nil
	case VectorIndex:
		return "CREATE VECTOR INDEX " + name + " IF NOT EXISTS FOR " + pattern + " ON (n." + props[0] + ")" +
				" OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: $similarity}}",
			map[string]any{"dimensions": int64(it.Dimensions), "similarity": it.Similarity}, nil
	}
	return "", nil, fmt.Errorf("%s: unknown kind", it)
}

func quoteAll(names []string) ([]string, error) {
	out := make([]string, len(names))
	for i, n := range names {
		q, err := ident.Quote(n)
		if err != nil {
			return nil, err
		}
		out[i] = q
	}
	return out, nil
}

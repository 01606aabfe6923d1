// Package introspect reads the schema of a live Neo4j graph: its labels with
// their node counts and the stored types of their properties, its
// relationship types with their properties and the labels they actually
// connect, and its indexes and constraints.
//
// `ragforge-plan vet --uri` compares a config with it, `schema apply` looks
// in it for indexes that already exist under another name, and `init`
// drafts a config from it. Property types come from
// db.schema.nodeTypeProperties() and db.schema.relTypeProperties(); the
// endpoints of a relationship type come from the count store (cheap) and are
// confirmed one pair at a time, because the count store alone pairs every
// label that has the type outgoing with every label that has it incoming.
//
// Reading is read-only. Names read from the graph are written into the few
// statements that need them only through ident.Quote; a label or type that
// does not follow the identifier rules (no config could name it) is listed
// without counts or endpoints.
package introspect

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
)

// Schema is what a graph holds, keyed by label and relationship type name.
type Schema struct {
	// Nodes is the number of nodes in the database.
	Nodes    int64
	Labels   map[string]*Label
	RelTypes map[string]*RelType
	// Indexes lists every index except the token lookup ones.
	Indexes     []Index
	Constraints []Constraint
}

// Label is a node label in use: db.labels() also lists labels that only an
// index or constraint names, which Read leaves out.
type Label struct {
	Name  string
	Count int64
	// Properties are every property some node with the label holds.
	Properties map[string]*Property
}

// RelType is a relationship type in use.
type RelType struct {
	Name       string
	Count      int64
	Properties map[string]*Property
	// Endpoints are the (start label, end label) pairs at least one
	// relationship of the type connects, sorted.
	Endpoints []Endpoint
}

// Endpoint is a start and an end label one relationship type connects:
// (From)-[:TYPE]->(To).
type Endpoint struct {
	From, To string
}

// Property is a property key with the Neo4j types its values have, such as
// String, Long, Double, Boolean, DateTime, LocalDateTime, Date, Point or
// StringArray (sorted, no repeats).
type Property struct {
	Name  string
	Types []string
}

// Index is one index as SHOW INDEXES lists it.
type Index struct {
	Name string
	// Type is RANGE, TEXT, POINT, FULLTEXT or VECTOR.
	Type string
	// EntityType is NODE or RELATIONSHIP.
	EntityType    string
	LabelsOrTypes []string
	Properties    []string
	// State is ONLINE, POPULATING or FAILED.
	State             string
	PopulationPercent float64
	FailureMessage    string
	// OwningConstraint names the constraint the index backs, or "".
	OwningConstraint string
	// Config is the index configuration (analyzer, dimensions, similarity).
	Config map[string]any
}

// Constraint is one constraint as SHOW CONSTRAINTS lists it.
type Constraint struct {
	Name string
	// Type is UNIQUENESS, NODE_KEY, NODE_PROPERTY_EXISTENCE and so on.
	Type          string
	EntityType    string
	LabelsOrTypes []string
	Properties    []string
}

// internalPrefix starts the labels ragforge and its test harness keep
// their own state in (_RagforgeMaterialization, _RagforgeLock,
// _RagforgeUsage, _RagforgeTestServer, …).
const internalPrefix = "_Ragforge"

// Internal reports whether a label is one of ragforge's own, which no
// config describes: a database holding only those has no data yet.
func Internal(label string) bool { return strings.HasPrefix(label, internalPrefix) }

// DataLabels lists the labels in use that are not ragforge's own, sorted.
func (s *Schema) DataLabels() []string {
	var out []string
	for _, l := range s.LabelNames() {
		if !Internal(l) {
			out = append(out, l)
		}
	}
	return out
}

// Label returns the label with the given name, or nil.
func (s *Schema) Label(name string) *Label { return s.Labels[name] }

// LabelNames lists the labels, sorted: the choices an error message names.
func (s *Schema) LabelNames() []string { return sortedKeys(s.Labels) }

// RelTypeNames lists the relationship types, sorted.
func (s *Schema) RelTypeNames() []string { return sortedKeys(s.RelTypes) }

// PropertyNames lists a label's (or relationship type's) properties, sorted.
func PropertyNames(props map[string]*Property) []string { return sortedKeys(props) }

// Connects reports whether some relationship of the type goes from a node
// with label from to a node with label to.
func (r *RelType) Connects(from, to string) bool {
	return slices.Contains(r.Endpoints, Endpoint{from, to})
}

func sortedKeys[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Read reads the schema of the database ("" for the server's default).
func Read(ctx context.Context, d neo4j.DriverWithContext, database string) (*Schema, error) {
	r := reader{d: d, db: database}
	s := &Schema{Labels: map[string]*Label{}, RelTypes: map[string]*RelType{}}
	steps := []func(context.Context, *Schema) error{r.counts, r.nodeProperties, r.relProperties, r.endpoints, r.indexes, r.constraints}
	for _, step := range steps {
		if err := step(ctx, s); err != nil {
			return nil, fmt.Errorf("introspect: %w", err)
		}
	}
	return s, nil
}

// ReadIndexes reads only the indexes and constraints: what `schema apply`
// needs, without reading every node's properties.
func ReadIndexes(ctx context.Context, d neo4j.DriverWithContext, database string) (*Schema, error) {
	r := reader{d: d, db: database}
	s := &Schema{Labels: map[string]*Label{}, RelTypes: map[string]*RelType{}}
	if err := r.indexes(ctx, s); err != nil {
		return nil, fmt.Errorf("introspect: %w", err)
	}
	if err := r.constraints(ctx, s); err != nil {
		return nil, fmt.Errorf("introspect: %w", err)
	}
	return s, nil
}

// reader runs read-only statements on one database.
type reader struct {
	d  neo4j.DriverWithContext
	db string
}

func (r reader) query(ctx context.Context, cypher string, params map[string]any) ([]*neo4j.Record, error) {
	return neo4jtx.Query(ctx, r.d, r.db, neo4j.AccessModeRead, cypher, params)
}

// count runs a statement returning one integer.
func (r reader) count(ctx context.Context, cypher string) (int64, error) {
	recs, err := r.query(ctx, cypher, nil)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	n, _ := recs[0].Values[0].(int64)
	return n, nil
}

// counts lists labels and relationship types in use with their sizes (from
// the count store).
func (r reader) counts(ctx context.Context, s *Schema) error {
	var err error
	if s.Nodes, err = r.count(ctx, "MATCH (n) RETURN count(n)"); err != nil {
		return err
	}
	labels, err := r.query(ctx, "CALL db.labels() YIELD label RETURN label", nil)
	if err != nil {
		return err
	}
	for _, rec := range labels {
		name, _ := rec.Values[0].(string)
		l := &Label{Name: name, Properties: map[string]*Property{}}
		if q, err := ident.Quote(name); err == nil {
			if l.Count, err = r.count(ctx, "MATCH (n:"+q+") RETURN count(n)"); err != nil {
				return err
			}
			if l.Count == 0 {
				continue // a label an index or constraint names, on no node
			}
		}
		s.Labels[name] = l
	}
	types, err := r.query(ctx, "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType", nil)
	if err != nil {
		return err
	}
	for _, rec := range types {
		name, _ := rec.Values[0].(string)
		t := &RelType{Name: name, Properties: map[string]*Property{}}
		if q, err := ident.Quote(name); err == nil {
			if t.Count, err = r.count(ctx, "MATCH ()-[r:"+q+"]->() RETURN count(r)"); err != nil {
				return err
			}
			if t.Count == 0 {
				continue
			}
		}
		s.RelTypes[name] = t
	}
	return nil
}

// nodeProperties reads every label's properties and their stored types; a
// node with several labels lends its properties to each.
func (r reader) nodeProperties(ctx context.Context, s *Schema) error {
	recs, err := r.query(ctx, "CALL db.schema.nodeTypeProperties() YIELD nodeLabels, propertyName, propertyTypes RETURN nodeLabels, propertyName, propertyTypes", nil)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		name, _ := rec.Values[1].(string)
		if name == "" {
			continue
		}
		for _, l := range stringList(rec.Values[0]) {
			if label := s.Labels[l]; label != nil {
				addTypes(label.Properties, name, stringList(rec.Values[2]))
			}
		}
	}
	return nil
}

// relProperties reads every relationship type's properties.
func (r reader) relProperties(ctx context.Context, s *Schema) error {
	recs, err := r.query(ctx, "CALL db.schema.relTypeProperties() YIELD relType, propertyName, propertyTypes RETURN relType, propertyName, propertyTypes", nil)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		name, _ := rec.Values[1].(string)
		typ, _ := rec.Values[0].(string) // ":`TYPE`"
		if name == "" {
			continue
		}
		for _, t := range s.RelTypes {
			if q, err := ident.Quote(t.Name); err == nil && ":"+q == typ {
				addTypes(t.Properties, name, stringList(rec.Values[2]))
			}
		}
	}
	return nil
}

func addTypes(props map[string]*Property, name string, types []string) {
	p := props[name]
	if p == nil {
		p = &Property{Name: name}
		props[name] = p
	}
	for _, t := range types {
		if !slices.Contains(p.Types, t) {
			p.Types = append(p.Types, t)
		}
	}
	sort.Strings(p.Types)
}

// endpoints finds, per relationship type, the label pairs it connects: the
// candidates are the labels with the type outgoing times the labels with it
// incoming (count store), each confirmed by finding one relationship.
func (r reader) endpoints(ctx context.Context, s *Schema) error {
	for _, t := range s.RelTypes {
		qt, err := ident.Quote(t.Name)
		if err != nil {
			continue
		}
		var from, to []string
		for _, l := range s.LabelNames() {
			ql, err := ident.Quote(l)
			if err != nil {
				continue
			}
			out, err := r.count(ctx, "MATCH (:"+ql+")-[r:"+qt+"]->() RETURN count(r)")
			if err != nil {
				return err
			}
			in, err := r.count(ctx, "MATCH ()-[r:"+qt+"]->(:"+ql+") RETURN count(r)")
			if err != nil {
				return err
			}
			if out > 0 {
				from = append(from, ql)
			}
			if in > 0 {
				to = append(to, ql)
			}
		}
		for _, a := range from {
			for _, b := range to {
				recs, err := r.query(ctx, "MATCH (:"+a+")-[:"+qt+"]->(:"+b+") RETURN 1 LIMIT 1", nil)
				if err != nil {
					return err
				}
				if len(recs) > 0 {
					t.Endpoints = append(t.Endpoints, Endpoint{unquote(a), unquote(b)})
				}
			}
		}
	}
	return nil
}

// unquote undoes ident.Quote for a name that follows the identifier rules
// (which allow no backtick, so only the outer pair is removed).
func unquote(q string) string { return q[1 : len(q)-1] }

func (r reader) indexes(ctx context.Context, s *Schema) error {
	recs, err := r.query(ctx, `SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, state, populationPercent, failureMessage, owningConstraint, options
		WHERE type <> 'LOOKUP' RETURN *`, nil)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		m := rec.AsMap()
		ix := Index{
			Name: str(m["name"]), Type: str(m["type"]), EntityType: str(m["entityType"]),
			LabelsOrTypes: stringList(m["labelsOrTypes"]), Properties: stringList(m["properties"]),
			State: str(m["state"]), FailureMessage: str(m["failureMessage"]), OwningConstraint: str(m["owningConstraint"]),
		}
		ix.PopulationPercent, _ = m["populationPercent"].(float64)
		if opts, ok := m["options"].(map[string]any); ok {
			ix.Config, _ = opts["indexConfig"].(map[string]any)
		}
		s.Indexes = append(s.Indexes, ix)
	}
	return nil
}

func (r reader) constraints(ctx context.Context, s *Schema) error {
	recs, err := r.query(ctx, "SHOW CONSTRAINTS YIELD name, type, entityType, labelsOrTypes, properties RETURN *", nil)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		m := rec.AsMap()
		s.Constraints = append(s.Constraints, Constraint{
			Name: str(m["name"]), Type: str(m["type"]), EntityType: str(m["entityType"]),
			LabelsOrTypes: stringList(m["labelsOrTypes"]), Properties: stringList(m["properties"]),
		})
	}
	return nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

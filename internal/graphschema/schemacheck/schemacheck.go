// Package schemacheck compares a config with the graph it describes, so
// that `ragforge-plan vet --uri` finds, at the config line that declares
// them, the names and types the graph does not have.
//
// What is an error and what is a warning follows from what the tools would
// do. A name the graph does not have — a label, a property on a label, a
// relationship type, a relationship between the declared labels in the
// declared direction — and a declared type the stored values do not have
// are errors, and so are enum values none of which the graph holds: the
// generated Cypher runs and silently returns nothing (or fails on a list),
// and an agent concludes the data is not there. Stored values an enum does
// not list (on some nodes) are a warning. A missing
// or unready index is a warning: queries still answer, only slower (the
// label is scanned), or, for full-text and vector indexes that the tools
// query by name, fail loudly with Neo4j's error; `ragforge-plan schema
// apply` creates them. A vector index whose dimensions differ from the
// config's is an error: every semantic_search call would fail. What the
// graph holds and the config leaves out — a label, a relationship type, a
// property of a declared label or type — is a warning with how many nodes
// or relationships hold it: the tools answer, but that data looks absent.
//
// A database without nodes (other than ragforge's own) is not checked (one warning says so): a config
// is usually written before its data is loaded. Likewise a change history
// not recorded yet: when the graph has neither the change_tracking label
// nor its relationship type (nor a name close to either, which would be a
// misspelling), the Change entity and the relationships to it are a
// warning each, naming what records them (`ragforge-plan history import`,
// the write tools); once either exists, they are checked as any other.
package schemacheck

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/internal/graphschema/introspect"
	"github.com/ragforge/ragforge/model"
)

// Severity says whether a finding makes vet fail.
type Severity string

// The severities of findings.
const (
	// Error: the tools would silently return nothing or fail; vet exits 1.
	Error Severity = "error"
	// Warning: the tools answer, but slower or only partly; vet exits 0.
	Warning Severity = "warning"
)

// Finding is one difference between the config and the graph, at the
// position of the config value that declares what the graph lacks.
type Finding struct {
	Severity Severity
	Pos      model.Pos
	// Path is the dotted path of the config value, such as
	// entities.0.searchable_fields.3.name, as config.ConfigError has it.
	Path string
	Msg  string
}

// Owner is the label or relationship type the finding is about (the
// entity or relationship its path is under), or "" for one about the
// whole config.
func (f Finding) Owner(m *model.Model) string {
	var i, j int
	var rest string
	if n, _ := fmt.Sscanf(f.Path, "entities.%d.relationships.%d%s", &i, &j, &rest); n >= 2 && i < len(m.Entities) && j < len(m.Entities[i].Relationships) {
		return m.Entities[i].Relationships[j].Type
	}
	if n, _ := fmt.Sscanf(f.Path, "entities.%d%s", &i, &rest); n >= 1 && i < len(m.Entities) {
		return m.Entities[i].Name
	}
	return ""
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: %s", f.Pos, f.Severity, f.Msg)
}

// sampleSize bounds how many nodes the value checks (ISO strings, epoch
// units, enum values) read per property.
const sampleSize = 200

// Check reads the graph's schema and reports every difference from the
// config cm was compiled from, sorted by position. It takes the compiled
// computed fields so `vet` compiles its model once. The error is for a
// failure to read the graph.
func Check(ctx context.Context, d neo4j.DriverWithContext, database string, cm *computed.Model) ([]Finding, error) {
	return check(ctx, d, database, cm, true)
}

// Contradictions is Check's errors only, without counting what the config
// leaves out (which reads every undeclared property): what `serve` and
// `call` refuse to start with, since their answers would be silently
// wrong (docs/design.md, invariant 11).
func Contradictions(ctx context.Context, d neo4j.DriverWithContext, database string, cm *computed.Model) ([]Finding, error) {
	all, err := check(ctx, d, database, cm, false)
	return slices.DeleteFunc(all, func(f Finding) bool { return f.Severity != Error }), err
}

func check(ctx context.Context, d neo4j.DriverWithContext, database string, cm *computed.Model, undeclared bool) ([]Finding, error) {
	m := cm.Model()
	s, err := introspect.Read(ctx, d, database)
	if err != nil {
		return nil, err
	}
	c := &checker{ctx: ctx, d: d, db: database, s: s, unrecorded: unrecordedHistory(m.ChangeTracking, s), suggested: map[string]bool{}}
	if len(s.DataLabels()) == 0 {
		var pos model.Pos
		if len(m.Entities) > 0 {
			pos.File = m.Entities[0].Pos.File
		}
		c.add(Warning, pos, "", "the database holds no nodes besides ragforge's own, so labels, properties and relationships were not checked against it")
		return c.out, nil
	}
	for i, e := range m.Entities {
		c.entity(fmt.Sprintf("entities.%d", i), e, cm.Entity(e.Name))
	}
	if undeclared {
		c.undeclared(m, cm)
	}
	slices.SortStableFunc(c.out, func(a, b Finding) int { return a.Pos.Compare(b.Pos) })
	return c.out, c.err
}

// checker collects findings; err is the first failure to sample values.
type checker struct {
	ctx context.Context
	d   neo4j.DriverWithContext
	db  string
	s   *introspect.Schema
	// unrecorded is the config's change tracking when the graph holds no
	// change history yet (unrecordedHistory), else nil.
	unrecorded *model.ChangeTracking
	out        []Finding
	err        error
	// suggested holds what a "did you mean" named (didYouMean).
	suggested map[string]bool
}

// unrecordedHistory returns ct (resolved) when the graph has neither its
// Change label nor its relationship type, nor a name close to either: no
// change was recorded yet, which is how every graph starts.
func unrecordedHistory(ct *model.ChangeTracking, s *introspect.Schema) *model.ChangeTracking {
	if ct == nil {
		return nil
	}
	r := ct.Resolved()
	if s.Label(r.Label) != nil || s.RelTypes[r.Relationship] != nil ||
		computed.Suggest(r.Label, s.DataLabels()) != "" || computed.Suggest(r.Relationship, s.RelTypeNames()) != "" {
		return nil
	}
	return &r
}

// notRecordedYet says what records a change history that is not there yet.
func (c *checker) notRecordedYet() string {
	return fmt.Sprintf("no change is recorded yet: change_tracking writes %s nodes and %s relationships "+
		"(`ragforge-plan history import --git DIR` for a repository's commits, the write tools for their writes); until then the history tools and relationships to %s find nothing",
		c.unrecorded.Label, c.unrecorded.Relationship, c.unrecorded.Label)
}

func (c *checker) add(sev Severity, pos model.Pos, path, format string, args ...any) {
	c.out = append(c.out, Finding{Severity: sev, Pos: pos, Path: path, Msg: fmt.Sprintf(format, args...)})
}

func (c *checker) entity(path string, e *model.Entity, ce *computed.Entity) {
	label := c.s.Label(e.Name)
	if label == nil && c.unrecorded != nil && e.Name == c.unrecorded.Label {
		c.add(Warning, e.Pos, path+".name", "no node has the label %s: %s", e.Name, c.notRecordedYet())
		return
	}
	if label == nil {
		c.add(Error, e.Pos, path+".name", "no node has the label %s, so every tool returns nothing for it%s (labels: %s)",
			e.Name, c.didYouMean("", e.Name, c.s.DataLabels()), strings.Join(c.s.DataLabels(), ", "))
		return
	}
	for j, f := range e.Fields {
		fpath := fmt.Sprintf("%s.searchable_fields.%d", path, j)
		if c.property(fpath, f, e.Name+" node", label.Properties, e.Name, false) {
			switch {
			case f.StoredAs == model.Text:
				c.textValues(fpath, f, e.Name, false)
			case f.Type.Kind() == model.Datetime:
				c.datetimeValues(fpath, f, e.Name)
			case f.Type.Kind() == model.Enum:
				c.enumValues(fpath, f, e.Name)
			}
		}
		if f.Indexed {
			c.fieldIndex(fpath+".indexed", f, "NODE", e.Name)
		}
	}
	c.uniqueField(path+".unique_field", e)
	for j, r := range e.Relationships {
		c.relationship(fmt.Sprintf("%s.relationships.%d", path, j), e, r)
	}
	for j, v := range e.VectorIndexes {
		c.vectorIndex(fmt.Sprintf("%s.vector_indexes.%d", path, j), e, v, label)
	}
	if e.FullTextIndex != nil {
		c.fullTextIndex(path+".full_text_index", e, e.FullTextIndex)
	}
	for j, cf := range e.Computed {
		if cf.Index && cf.Materialized != model.Never && ce != nil {
			c.materializedIndex(fmt.Sprintf("%s.computed_fields.%d.index", path, j), e, cf, ce.Field(cf.Name).CacheProperty(), label)
		}
	}
}

// property checks that the owner (nodes of label name, or relationships
// of type name when rel) has the field's property and that its stored
// types fit the declared type; it reports whether the property exists.
func (c *checker) property(path string, f *model.Field, owner string, props map[string]*introspect.Property, name string, rel bool) bool {
	p := props[f.Name]
	if p == nil {
		names := introspect.PropertyNames(props)
		c.add(Error, f.Pos, path+".name", "no %s has the property %s, so filters on it match nothing%s (properties: %s)",
			owner, f.Name, c.didYouMean(owner, f.Name, names), orNone(names))
		return false
	}
	var fit, misfit []string
	for _, t := range p.Types {
		if fits(f, t) || c.onlyEmptyLists(f, t, name, rel) {
			fit = append(fit, t)
		} else {
			misfit = append(misfit, t)
		}
	}
	switch {
	case len(misfit) == 0:
	case len(fit) == 0:
		c.add(Error, f.Pos, path+".type", "%s is declared %s but every %s holds it as %s, so comparisons with it never match; %s",
			f.Name, declared(f), owner, strings.Join(misfit, " or "), advice(f, misfit[0]))
	default:
		c.add(Warning, f.Pos, path+".type", "%s is declared %s and %ss hold it as %s, but some as %s: those never match",
			f.Name, declared(f), owner, strings.Join(fit, " and "), strings.Join(misfit, " and "))
	}
	return true
}

// relationship checks that the type exists, connects the entity with each
// target in the declared direction, and has the declared properties.
func (c *checker) relationship(path string, e *model.Entity, r *model.Relationship) {
	t := c.s.RelTypes[r.Type]
	if t == nil && c.unrecorded != nil && r.Type == c.unrecorded.Relationship {
		c.add(Warning, r.Pos, path+".type", "no relationship has the type %s: %s", r.Type, c.notRecordedYet())
		return
	}
	if t == nil {
		names := c.s.RelTypeNames()
		c.add(Error, r.Pos, path+".type", "no relationship has the type %s, so explore_relationships finds nothing through it%s (types: %s)",
			r.Type, c.didYouMean("", r.Type, names), orNone(names))
		return
	}
	for _, target := range r.Targets {
		if c.s.Label(target) == nil {
			continue // reported at the target entity's own name
		}
		if connects(t, e.Name, target, r.Direction) {
			continue
		}
		msg := fmt.Sprintf("no %s relationship goes %s, so explore_relationships finds nothing there", r.Type, arrow(e.Name, r.Type, target, r.Direction))
		if reversed := reverse(r.Direction); reversed != "" && connects(t, e.Name, target, reversed) {
			msg += fmt.Sprintf("; the graph has %s: did you mean direction: %s?", arrow(e.Name, r.Type, target, reversed), reversed)
		} else {
			msg += fmt.Sprintf(" (%s connects %s)", r.Type, endpoints(t))
		}
		c.add(Error, r.Pos, path+".target", "%s", msg)
	}
	for k, p := range r.Properties {
		ppath := fmt.Sprintf("%s.properties.%d", path, k)
		if c.property(ppath, p, r.Type+" relationship", t.Properties, r.Type, true) && p.StoredAs == model.Text {
			c.textValues(ppath, p, r.Type, true)
		}
		if p.Indexed {
			c.fieldIndex(ppath+".indexed", p, "RELATIONSHIP", r.Type)
		}
	}
}

func connects(t *introspect.RelType, entity, target string, dir model.Direction) bool {
	switch dir {
	case model.Incoming:
		return t.Connects(target, entity)
	case model.Both:
		return t.Connects(entity, target) || t.Connects(target, entity)
	}
	return t.Connects(entity, target)
}

func reverse(dir model.Direction) model.Direction {
	switch dir {
	case model.Outgoing:
		return model.Incoming
	case model.Incoming:
		return model.Outgoing
	}
	return ""
}

func arrow(entity, typ, target string, dir model.Direction) string {
	switch dir {
	case model.Incoming:
		return fmt.Sprintf("(%s)<-[:%s]-(%s)", entity, typ, target)
	case model.Both:
		return fmt.Sprintf("(%s)-[:%s]-(%s)", entity, typ, target)
	}
	return fmt.Sprintf("(%s)-[:%s]->(%s)", entity, typ, target)
}

func endpoints(t *introspect.RelType) string {
	list := make([]string, len(t.Endpoints))
	for i, ep := range t.Endpoints {
		list[i] = fmt.Sprintf("(%s)->(%s)", ep.From, ep.To)
	}
	return orNone(list)
}

// didYouMean suggests the candidate closest to a name the graph lacks
// and remembers it under scope (the owner a property belongs to, "" for
// labels and types), so the warning about what the config leaves out does
// not name it a second time.
func (c *checker) didYouMean(scope, name string, candidates []string) string {
	if s := computed.Suggest(name, candidates); s != "" {
		c.suggested[scope+"\x00"+s] = true
		return fmt.Sprintf("; did you mean %s?", s)
	}
	return ""
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

// fieldIndexTypes are the index types that serve a field's filters.
func fieldIndexTypes(f *model.Field) []string {
	switch {
	case f.Type == model.Point:
		return []string{"POINT"}
	case f.Type.Kind() == model.String || f.Type == model.Enum:
		return []string{"RANGE", "TEXT"}
	}
	return []string{"RANGE"}
}

func (c *checker) fieldIndex(path string, f *model.Field, entityType, owner string) {
	ix := c.s.FindIndex(entityType, owner, []string{f.Name}, fieldIndexTypes(f)...)
	if ix == nil {
		c.add(Warning, f.Pos, path, "%s.%s is declared indexed but the graph has no %s index on it, so filters on it scan every %s; `ragforge-plan schema apply` creates it",
			owner, f.Name, strings.Join(fieldIndexTypes(f), " or "), owner)
		return
	}
	c.ready(path, f.Pos, ix)
}

// ready warns about an index that exists but does not serve queries yet.
func (c *checker) ready(path string, pos model.Pos, ix *introspect.Index) {
	switch ix.State {
	case "ONLINE":
	case "FAILED":
		c.add(Warning, pos, path, "index %s FAILED: %s; drop it and run `ragforge-plan schema apply`", ix.Name, ix.FailureMessage)
	default:
		c.add(Warning, pos, path, "index %s is %s (%.0f%%): queries scan until it is online", ix.Name, ix.State, ix.PopulationPercent)
	}
}

func (c *checker) uniqueField(path string, e *model.Entity) {
	if c.s.UniqueProperty(e.Name) == e.UniqueField {
		return
	}
	c.add(Warning, e.Pos, path, "no uniqueness constraint on %s.%s (unique_field): get_entity_by_id scans the label and duplicates go unnoticed; `ragforge-plan schema apply` creates it",
		e.Name, e.UniqueField)
}

func (c *checker) fullTextIndex(path string, e *model.Entity, ft *model.FullTextIndex) {
	ix := c.s.IndexNamed(ft.Name)
	if ix == nil {
		for _, other := range c.s.Indexes {
			if other.Type == "FULLTEXT" && slices.Equal(other.LabelsOrTypes, []string{e.Name}) && sameSet(other.Properties, ft.Fields) {
				c.add(Warning, ft.Pos, path+".name", "no full-text index is named %s, but %s covers the same properties: name it %s here (fulltext_search queries the index by name)",
					ft.Name, other.Name, other.Name)
				return
			}
		}
		c.add(Warning, ft.Pos, path+".name", "the full-text index %s does not exist: fulltext_search and the fuzzy mode fail until it does; `ragforge-plan schema apply` creates it", ft.Name)
		return
	}
	if ix.Type != "FULLTEXT" || !slices.Equal(ix.LabelsOrTypes, []string{e.Name}) || !sameSet(ix.Properties, ft.Fields) {
		c.add(Warning, ft.Pos, path+".name", "the index %s is a %s index on %s %v, not a full-text index on %s %v",
			ft.Name, ix.Type, strings.Join(ix.LabelsOrTypes, ", "), ix.Properties, e.Name, ft.Fields)
		return
	}
	c.ready(path+".name", ft.Pos, ix)
}

func (c *checker) vectorIndex(path string, e *model.Entity, v *model.VectorIndex, label *introspect.Label) {
	if p := label.Properties[v.Property]; p == nil {
		c.add(Warning, v.Pos, path+".property", "no %s node has the embedding property %s yet: semantic_search finds nothing until embeddings are stored", e.Name, v.Property)
	} else if misfit := slices.DeleteFunc(slices.Clone(p.Types), func(t string) bool { return t == "FloatArray" || t == "DoubleArray" }); len(misfit) > 0 {
		c.add(Error, v.Pos, path+".property", "the embedding property %s of %s holds %s, not lists of numbers", v.Property, e.Name, strings.Join(misfit, " and "))
	}
	ix := c.s.IndexNamed(v.Name)
	if ix == nil {
		c.add(Warning, v.Pos, path+".name", "the vector index %s does not exist: semantic_search fails until it does; `ragforge-plan schema apply` creates it", v.Name)
		return
	}
	if ix.Type != "VECTOR" || !slices.Equal(ix.LabelsOrTypes, []string{e.Name}) || !slices.Equal(ix.Properties, []string{v.Property}) {
		c.add(Warning, v.Pos, path+".name", "the index %s is a %s index on %s %v, not a vector index on %s [%s]",
			v.Name, ix.Type, strings.Join(ix.LabelsOrTypes, ", "), ix.Properties, e.Name, v.Property)
		return
	}
	if dims, ok := ix.Config["vector.dimensions"].(int64); ok && dims != int64(v.Dimensions) {
		c.add(Error, v.Pos, path+".dimensions", "the vector index %s holds %d dimensions, not %d: every semantic_search call would fail", v.Name, dims, v.Dimensions)
	}
	if sim, ok := ix.Config["vector.similarity_function"].(string); ok && !strings.EqualFold(sim, v.Similarity) {
		c.add(Warning, v.Pos, path+".similarity", "the vector index %s ranks by %s, not %s", v.Name, strings.ToLower(sim), v.Similarity)
	}
	c.ready(path+".name", v.Pos, ix)
}

// materializedIndex warns when a computed field's values are stored but
// not indexed; before they are stored the field is computed per query and
// needs no index.
func (c *checker) materializedIndex(path string, e *model.Entity, cf *model.ComputedField, property string, label *introspect.Label) {
	if label.Properties[property] == nil {
		return
	}
	ix := c.s.FindIndex("NODE", e.Name, []string{property}, "RANGE")
	if ix == nil {
		c.add(Warning, cf.Pos, path, "%s.%s is stored in %s but not indexed (index: true); `ragforge-plan materialize apply` creates the index", e.Name, cf.Name, property)
		return
	}
	c.ready(path, cf.Pos, ix)
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

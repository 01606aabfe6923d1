// Package schemadraft drafts a ragforge config from a live graph, for
// `ragforge-plan init`: every label becomes an entity, its properties
// fields typed from their stored values, its relationship types (with the
// labels they actually connect, both directions) relationships, and its
// full-text and vector indexes the config's.
//
// The draft is a starting point a person reviews — names are the graph's,
// descriptions are left for the reader to write — but it is valid as it
// stands: it loads, and `ragforge-plan vet --uri` finds nothing wrong with
// it on the graph it came from. What it cannot express it leaves out and
// says so in a comment: lists (a field holds one value), properties with
// types that disagree across nodes, names outside the identifier rules,
// labels without a property to identify a node by.
package schemadraft

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"go.yaml.in/yaml/v3"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/graphschema/introspect"
	"github.com/ragforge/ragforge/internal/textvalue"
)

// Options tune the draft.
type Options struct {
	// Database is the Neo4j database ("" for the server's default).
	Database string
	// EnumMax is the most distinct values a string property may have to be
	// drafted as an enum (20 when zero).
	EnumMax int
	// Sample is how many nodes per property are read to find enum values
	// and ISO date-times (10,000 when zero).
	Sample int
	// Source names the graph in the draft's header comment.
	Source string
}

// Draft reads the graph and returns the config as YAML.
func Draft(ctx context.Context, d neo4j.DriverWithContext, opts Options) ([]byte, error) {
	if opts.EnumMax <= 0 {
		opts.EnumMax = 20
	}
	if opts.Sample <= 0 {
		opts.Sample = 10000
	}
	s, err := introspect.Read(ctx, d, opts.Database)
	if err != nil {
		return nil, err
	}
	dr := &drafter{ctx: ctx, d: d, opts: opts, s: s}
	entities := seq()
	var skipped []string
	for _, name := range s.DataLabels() {
		if ident.Check(name) != nil {
			skipped = append(skipped, fmt.Sprintf("label %q: not a valid name", name))
			continue
		}
		e, why, err := dr.entity(s.Labels[name])
		if err != nil {
			return nil, err
		}
		if e == nil {
			skipped = append(skipped, fmt.Sprintf("label %s: %s", name, why))
			continue
		}
		dr.drafted = append(dr.drafted, name)
		dr.entities = append(dr.entities, e)
	}
	if len(dr.entities) == 0 {
		return nil, fmt.Errorf("schemadraft: the graph has no label to draft an entity from (%d nodes)", s.Nodes)
	}
	for _, e := range dr.entities {
		if err := dr.relationships(e); err != nil {
			return nil, err
		}
		entities.Content = append(entities.Content, e.node())
	}
	root := mapping()
	root.HeadComment = fmt.Sprintf("Drafted by ragforge-plan init from %s on %s.\nReview the types and enum values, and add descriptions: agents read them.",
		orDefault(opts.Source, "Neo4j"), time.Now().UTC().Format("2006-01-02"))
	if len(skipped) > 0 {
		root.HeadComment += "\nLeft out:\n  " + strings.Join(skipped, "\n  ")
	}
	add(root, "entities", entities)
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}})
	if err != nil {
		return nil, fmt.Errorf("schemadraft: %w", err)
	}
	return out, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

type drafter struct {
	ctx      context.Context
	d        neo4j.DriverWithContext
	opts     Options
	s        *introspect.Schema
	drafted  []string
	entities []*entity
}

// entity is one drafted entity before it becomes YAML.
type entity struct {
	label    *introspect.Label
	unique   string
	guessed  bool
	fields   []*yaml.Node
	rels     []*yaml.Node
	vectors  []*yaml.Node
	fullText *yaml.Node
	notes    []string
}

func (e *entity) node() *yaml.Node {
	n := mapping()
	add(n, "name", str(e.label.Name))
	n.Content[1].LineComment = fmt.Sprintf("%d nodes", e.label.Count)
	add(n, "unique_field", str(e.unique))
	if e.guessed {
		n.Content[len(n.Content)-2].LineComment = "no uniqueness constraint: guessed; `ragforge-plan schema apply` creates one"
	}
	add(n, "searchable_fields", seq(e.fields...))
	if len(e.rels) > 0 {
		add(n, "relationships", seq(e.rels...))
	}
	if len(e.vectors) > 0 {
		add(n, "vector_indexes", seq(e.vectors...))
	}
	if e.fullText != nil {
		add(n, "full_text_index", e.fullText)
	}
	if len(e.notes) > 0 {
		n.FootComment = strings.Join(e.notes, "\n")
	}
	return n
}

// entity drafts a label's fields, unique field and indexes; nil with the
// reason when the label has no property that can identify a node.
func (dr *drafter) entity(l *introspect.Label) (*entity, string, error) {
	e := &entity{label: l}
	var names []string
	for _, p := range introspect.PropertyNames(l.Properties) {
		f, note, err := dr.field(l.Name, l.Properties[p], "NODE")
		if err != nil {
			return nil, "", err
		}
		if f == nil {
			e.notes = append(e.notes, fmt.Sprintf("%s.%s left out: %s", l.Name, p, note))
			continue
		}
		e.fields = append(e.fields, f)
		names = append(names, p)
	}
	e.unique = dr.s.UniqueProperty(l.Name)
	if !slices.Contains(names, e.unique) {
		e.unique, e.guessed = guessUnique(names), true
	}
	if e.unique == "" {
		return nil, "no property to identify a node by", nil
	}
	dr.indexes(e)
	return e, "", nil
}

// guessUnique picks the property most likely to identify a node when no
// constraint says: a conventional key name, else the first property.
func guessUnique(names []string) string {
	for _, k := range []string{"uuid", "id", "key", "path", "name"} {
		if slices.Contains(names, k) {
			return k
		}
	}
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

// field drafts one property as a field, or returns why it cannot.
func (dr *drafter) field(owner string, p *introspect.Property, entityType string) (*yaml.Node, string, error) {
	if ident.Check(p.Name) != nil {
		return nil, "not a valid name", nil
	}
	if why := dr.embedding(owner, p, entityType); why != "" {
		return nil, why, nil
	}
	types, err := dr.arrayTypes(owner, p, entityType)
	if err != nil {
		return nil, "", err
	}
	typ := fieldType(types)
	if typ == "" {
		return nil, "stored as " + strings.Join(p.Types, " and ") + " (a field holds values of one type: one value, or a list of strings, integers or numbers)", nil
	}
	f := mapping()
	f.Style = yaml.FlowStyle
	add(f, "name", str(p.Name))
	if typ == "string" && entityType == "RELATIONSHIP" {
		texts, err := introspect.SampleRelationship(dr.ctx, dr.d, dr.opts.Database, owner, p.Name, dr.opts.Sample, textSample)
		if err != nil {
			return nil, "", err
		}
		if !typedText(f, p.Name, texts) {
			add(f, "type", str(typ))
		}
	} else if typ == "string" {
		first, err := introspect.Sample(dr.ctx, dr.d, dr.opts.Database, owner, p.Name, isoSample, isoSample)
		if err != nil {
			return nil, "", err
		}
		values, err := introspect.Sample(dr.ctx, dr.d, dr.opts.Database, owner, p.Name, dr.opts.Sample, dr.opts.EnumMax+1)
		if err != nil {
			return nil, "", err
		}
		texts, err := introspect.Sample(dr.ctx, dr.d, dr.opts.Database, owner, p.Name, dr.opts.Sample, textSample)
		if err != nil {
			return nil, "", err
		}
		switch {
		case isoStrings(first):
			add(f, "type", str("datetime"))
			add(f, "stored_as", str("iso_string"))
		case typedText(f, p.Name, texts):
		case dr.enum(values):
			add(f, "type", str("enum"))
			list := seq()
			list.Style = yaml.FlowStyle
			for _, v := range values {
				list.Content = append(list.Content, str(v.Value.(string)))
			}
			sort.Slice(list.Content, func(i, j int) bool { return list.Content[i].Value < list.Content[j].Value })
			add(f, "values", list)
		default:
			add(f, "type", str(typ))
		}
	} else {
		add(f, "type", str(typ))
	}
	if dr.s.FindIndex(entityType, owner, []string{p.Name}, "RANGE", "TEXT", "POINT") != nil {
		add(f, "indexed", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	return f, "", nil
}

// fieldType maps stored Neo4j types to a field type (arrays to the list
// types), "" when none fits them all.
func fieldType(types []string) string {
	kinds := map[string]string{
		"String": "string", "Long": "integer", "Double": "number", "Boolean": "boolean",
		"DateTime": "datetime", "LocalDateTime": "datetime", "Date": "datetime", "Point": "point",
	}
	var out []string
	for _, t := range types {
		k := kinds[t]
		if k == "" {
			k = listTypes[t]
		}
		if k == "" {
			return ""
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	switch {
	case len(out) == 1:
		return out[0]
	case slices.Equal(out, []string{"integer", "number"}):
		return "number"
	case slices.Equal(out, []string{"integer_list", "number_list"}):
		return "number_list"
	}
	return ""
}

// isoSample is how many values must all be RFC 3339 date-times for a
// string property to be drafted as a datetime stored as an ISO string.
const isoSample = 200

// isoStrings reports whether every sampled value is an RFC 3339 date-time.
func isoStrings(values []introspect.Value) bool {
	for _, v := range values {
		s, _ := v.Value.(string)
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return false
		}
	}
	return len(values) > 0
}

// textSample is how many distinct texts of a string property init reads
// to decide whether they are numbers or datetimes written as text.
const textSample = 1000

// keyLike matches property names whose digits are identifiers or codes,
// not quantities (orderID, shipPostalCode, phone), and leadingZero the
// texts that only a code has (007): such texts stay strings.
var (
	keyLike     = regexp.MustCompile(`(ID|Id|_id|^id)$|(?i:code|zip|postal|phone|fax)`)
	leadingZero = regexp.MustCompile(`^[+-]?0[0-9]`)
)

// typedText drafts the type and stored_as: text of string property name
// into f when every sampled text but the usual null markers reads as a
// number or a datetime (textvalue.Classify), with the markers met as
// null_values and a comment that says so; false, f untouched, otherwise.
func typedText(f *yaml.Node, name string, sampled []introspect.Value) bool {
	texts := make([]string, 0, len(sampled))
	for _, v := range sampled {
		s, ok := v.Value.(string)
		if !ok {
			return false
		}
		texts = append(texts, s)
	}
	typ, markers := textvalue.Classify(texts)
	if typ == "" || (typ != "datetime" && keyLike.MatchString(name)) {
		return false
	}
	for _, s := range texts {
		if typ != "datetime" && leadingZero.MatchString(s) {
			return false
		}
	}
	add(f, "type", str(typ))
	add(f, "stored_as", str("text"))
	what := map[string]string{"integer": "an integer", "number": "a number", "datetime": "a datetime"}[typ]
	f.LineComment = fmt.Sprintf("every sampled value is %s written as text", what)
	if len(markers) > 0 {
		list := seq()
		list.Style = yaml.FlowStyle
		quoted := make([]string, len(markers))
		for i, m := range markers {
			n := str(m)
			n.Style = yaml.DoubleQuotedStyle
			list.Content = append(list.Content, n)
			quoted[i] = fmt.Sprintf("%q", m)
		}
		add(f, "null_values", list)
		f.LineComment += " or " + strings.Join(quoted, ", ") + " (null)"
	}
	return true
}

// enum reports whether sampled string values look like a closed set: few
// distinct values, short, each held by several nodes on average.
func (dr *drafter) enum(values []introspect.Value) bool {
	if len(values) == 0 || len(values) > dr.opts.EnumMax {
		return false
	}
	var n int64
	for _, v := range values {
		s, _ := v.Value.(string)
		if s == "" || len(s) > 40 {
			return false
		}
		n += v.Count
	}
	return n >= 2*int64(len(values))
}

// indexes drafts the label's full-text index (the config has one per
// entity: the first over string fields only) and its vector indexes
// (those whose embedding property names the text field it embeds).
func (dr *drafter) indexes(e *entity) {
	strs := map[string]bool{}
	for _, f := range e.fields {
		if value(f, "type") == "string" {
			strs[value(f, "name")] = true
		}
	}
	for _, ix := range dr.s.Indexes {
		if !slices.Equal(ix.LabelsOrTypes, []string{e.label.Name}) || ix.EntityType != "NODE" || ident.Check(ix.Name) != nil {
			continue
		}
		switch ix.Type {
		case "FULLTEXT":
			if e.fullText != nil || !allIn(ix.Properties, strs) {
				e.notes = append(e.notes, fmt.Sprintf("full-text index %s left out: one per entity, over string fields", ix.Name))
				continue
			}
			ft := mapping()
			add(ft, "name", str(ix.Name))
			list := seq()
			list.Style = yaml.FlowStyle
			for _, p := range ix.Properties {
				list.Content = append(list.Content, str(p))
			}
			add(ft, "fields", list)
			if a, ok := ix.Config["fulltext.analyzer"].(string); ok && a != "" {
				add(ft, "analyzer", str(a))
			}
			e.fullText = ft
		case "VECTOR":
			prop := ix.Properties[0]
			field := embeddedField(prop, strs)
			dims, _ := ix.Config["vector.dimensions"].(int64)
			sim, _ := ix.Config["vector.similarity_function"].(string)
			if field == "" || dims <= 0 {
				e.notes = append(e.notes, fmt.Sprintf("vector index %s on %s left out: add it with the text field it embeds (field: …)", ix.Name, prop))
				continue
			}
			v := mapping()
			add(v, "name", str(ix.Name))
			add(v, "field", str(field))
			add(v, "property", str(prop))
			add(v, "dimensions", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(dims)})
			add(v, "similarity", str(strings.ToLower(sim)))
			e.vectors = append(e.vectors, v)
		}
	}
}

func allIn(list []string, set map[string]bool) bool {
	for _, x := range list {
		if !set[x] {
			return false
		}
	}
	return len(list) > 0
}

// embeddedField guesses the text field an embedding property holds the
// vector of, from the naming conventions source_embedding, sourceEmbedding
// and embedding_source; "" when none names a string field.
func embeddedField(prop string, strs map[string]bool) string {
	lower := strings.ToLower(prop)
	for f := range strs {
		l := strings.ToLower(f)
		if lower == l+"_embedding" || lower == l+"embedding" || lower == "embedding_"+l {
			return f
		}
	}
	return ""
}

// relationships drafts, for each relationship type touching the entity,
// one outgoing and one incoming relationship whose targets are the drafted
// labels at the other end.
func (dr *drafter) relationships(e *entity) error {
	for _, name := range dr.s.RelTypeNames() {
		t := dr.s.RelTypes[name]
		if ident.Check(name) != nil {
			continue
		}
		var out, in []string
		for _, ep := range t.Endpoints {
			if ep.From == e.label.Name && slices.Contains(dr.drafted, ep.To) && !slices.Contains(out, ep.To) {
				out = append(out, ep.To)
			}
			if ep.To == e.label.Name && slices.Contains(dr.drafted, ep.From) && !slices.Contains(in, ep.From) {
				in = append(in, ep.From)
			}
		}
		for _, side := range []struct {
			dir     string
			targets []string
		}{{"outgoing", out}, {"incoming", in}} {
			if len(side.targets) == 0 {
				continue
			}
			r := mapping()
			add(r, "type", str(name))
			add(r, "direction", str(side.dir))
			if len(side.targets) == 1 {
				add(r, "target", str(side.targets[0]))
			} else {
				list := seq()
				list.Style = yaml.FlowStyle
				for _, x := range side.targets {
					list.Content = append(list.Content, str(x))
				}
				add(r, "target", list)
			}
			props, err := dr.relProperties(t)
			if err != nil {
				return err
			}
			if len(props) > 0 {
				add(r, "properties", seq(props...))
			}
			e.rels = append(e.rels, r)
		}
	}
	return nil
}

// relProperties drafts a relationship type's properties; the error is a
// failure to read the graph (whether a list property holds strings).
func (dr *drafter) relProperties(t *introspect.RelType) ([]*yaml.Node, error) {
	var out []*yaml.Node
	for _, p := range introspect.PropertyNames(t.Properties) {
		f, _, err := dr.field(t.Name, t.Properties[p], "RELATIONSHIP")
		if err != nil {
			return nil, err
		}
		if f != nil {
			out = append(out, f)
		}
	}
	return out, nil
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Content: items}
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func add(m *yaml.Node, key string, value *yaml.Node) {
	m.Content = append(m.Content, str(key), value)
}

// value is the scalar value of a key of a drafted mapping, or "".
func value(m *yaml.Node, key string) string {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1].Value
		}
	}
	return ""
}

package tools

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// The graph is described once, in the overview query_entities carries:
// every entity with its unique field, every field with its type and
// description, every relationship with its properties. The other tools
// name the fields and relationships they offer and refer to it, so a
// catalog pays for each description once (issue 20).

// typeLabel renders a field's type for a description: the declared type,
// an enum's values, and for a computed field what it is computed from, so
// the agent knows line_count is endLine - startLine + 1 without reading the
// config.
func typeLabel(f *FieldOffer) string {
	t := string(f.Field.Type)
	if f.Field.Type == model.Enum {
		t = strings.Join(f.Field.Values, "|")
	}
	if f.Computed != nil {
		if f.Computed.Expression != "" {
			t += " = " + f.Computed.Expression
		} else {
			t += " = a Cypher subquery"
		}
	}
	return t
}

// described records the fields the overview describes ("Entity.field",
// in order, with their kind), so a tool that offers a field the overview
// lacks (an entity query_entities does not offer) describes it itself,
// and a tool that offers every field of a kind says so.
type described struct {
	keys []string
	kind map[string]model.Type
}

func (d *described) add(e *model.Entity, f *model.Field) {
	k := e.Name + "." + f.Name
	d.keys = append(d.keys, k)
	d.kind[k] = f.Type.Kind()
}

func (d *described) has(e *model.Entity, f *model.Field) bool {
	_, ok := d.kind[e.Name+"."+f.Name]
	return ok
}

// leftOut lists the described fields of kind that offered (keys
// "Entity.field") leaves out: a name left out of every entity that has it
// once (entity_key), others with their entity (Scope.uuid).
func (d *described) leftOut(kind model.Type, offered map[string]bool) []string {
	somewhere := map[string]bool{}
	for _, k := range d.keys {
		if _, name, _ := strings.Cut(k, "."); d.kind[k] == kind && offered[k] {
			somewhere[name] = true
		}
	}
	var out []string
	for _, k := range d.keys {
		_, name, _ := strings.Cut(k, ".")
		switch {
		case d.kind[k] != kind || offered[k]:
		case somewhere[name]:
			out = append(out, k)
		case !slices.Contains(out, name):
			out = append(out, name)
		}
	}
	return out
}

// Overview describes the entities query_entities offers and the
// relationships between them. A field every entity has alike (name, type,
// operators, no two descriptions that differ) is written once for all; a
// field whose name, type and description repeat an earlier entity's is
// written without its description.
func (g *Generator) Overview(offers []*EntityOffer) string {
	_, odd := operatorSummary(offers)
	field := func(f *FieldOffer, describe bool) string {
		s := f.Field.Name + " " + typeLabel(f)
		if describe && f.Field.Description != "" {
			s += ": " + f.Field.Description
		}
		if odd[f] {
			s += " {operators " + strings.Join(f.Modes, ", ") + "}"
		}
		return s
	}
	shared := sharedFields(offers)
	var b strings.Builder
	b.WriteString(GraphSchemaTitle + " (the tools refer to it). Entities (unique id field) and fields (name type: description; type = expression: computed, read-only):\n")
	if len(offers) > 1 && len(shared) > 0 {
		var parts []string
		for _, f := range shared {
			parts = append(parts, field(f, true))
		}
		b.WriteString("Every entity has " + strings.Join(parts, "; ") + "\n")
	}
	said := map[string]bool{}
	for _, o := range offers {
		fmt.Fprintf(&b, "- %s (%s)", o.Entity.Name, o.Entity.UniqueField)
		if o.Entity.Description != "" {
			b.WriteString(": " + o.Entity.Description)
		}
		var parts []string
		for _, f := range o.Fields {
			g.described.add(o.Entity, f.Field)
			if len(offers) > 1 && slices.ContainsFunc(shared, func(s *FieldOffer) bool { return s.Field.Name == f.Field.Name }) {
				continue
			}
			key := f.Field.Name + " " + typeLabel(f) + ": " + f.Field.Description
			parts = append(parts, field(f, !said[key]))
			said[key] = true
		}
		if len(parts) > 0 {
			b.WriteString("\n  " + strings.Join(parts, "; "))
		}
		b.WriteByte('\n')
	}
	if len(g.c.edges) > 0 {
		b.WriteString(relationshipList(g.c.edges))
		g.edgesDescribed = true
	}
	b.WriteString(provenanceLine(g.m))
	return b.String()
}

// sharedFields lists the fields every offer has alike: the same name,
// type and operators, and at most one description (a field without one
// takes the others'). It returns the offer of the first entity that
// describes each, in the first entity's order.
func sharedFields(offers []*EntityOffer) []*FieldOffer {
	if len(offers) == 0 {
		return nil
	}
	var out []*FieldOffer
	for _, f := range offers[0].Fields {
		best, ok := f, true
		for _, o := range offers[1:] {
			h := o.Field(f.Field.Name)
			if h == nil || typeLabel(h) != typeLabel(f) || !slices.Equal(h.Modes, f.Modes) ||
				h.Field.Description != "" && best.Field.Description != "" && h.Field.Description != best.Field.Description {
				ok = false
				break
			}
			if best.Field.Description == "" {
				best = h
			}
		}
		if ok {
			out = append(out, best)
		}
	}
	return out
}

// provenanceLine says once, for every write tool, what a write records
// (source and confidence from its arguments, which the config may
// require) and returns.
func provenanceLine(m *model.Model) string {
	p := m.Provenance
	writes := false
	for _, e := range m.Entities {
		writes = writes || e.Writable.Any()
		for _, r := range e.Relationships {
			writes = writes || r.Writable
		}
	}
	if !writes {
		return ""
	}
	var args, fields []string
	if p != nil && p.SourceField != "" {
		args, fields = append(args, "source (where you learned it)"), append(fields, p.SourceField)
	}
	if p != nil && p.ConfidenceField != "" {
		args, fields = append(args, "confidence"), append(fields, p.ConfidenceField)
	}
	s := "Writes return {entity_key (of an entity), created, message}"
	if len(args) > 0 {
		s += " and record their " + strings.Join(args, " and ") + " as " + strings.Join(fields, " and ")
	}
	if p != nil && p.Required {
		s += " (both required)"
	}
	return s + ".\n"
}

// InGraphSchema reports whether the graph schema of m's catalog describes
// the entity (field "") or its field: whether query_entities offers it.
// Tools built outside this package (the write tools, traverse) refer to
// the schema for what it describes and describe the rest themselves.
func InGraphSchema(m *model.Model, entity, field string) bool {
	for _, o := range queryOffers(m) {
		if o.Entity.Name == entity {
			return field == "" || o.Field(field) != nil
		}
	}
	return false
}

// relationshipList renders every relationship once: the stored direction,
// its properties and description.
func relationshipList(edges []edge) string {
	var b strings.Builder
	props := "{properties}"
	if slices.ContainsFunc(edges, func(e edge) bool { return len(e.Computed) > 0 }) {
		props = "{properties; type = expression: computed, from.x/to.x read the arrow's ends}"
	}
	b.WriteString("Relationships (--> is the stored direction, -- undirected; " + props + "):\n")
	for _, e := range mergeTargets(edges) {
		b.WriteString("- " + e.String())
		if e.Description != "" {
			b.WriteString(": " + e.Description)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// GraphSchemaTitle opens the graph schema; tools refer to it by this name
// wherever it is (query_entities' description, an MCP server's
// instructions).
const GraphSchemaTitle = "Graph schema"

// RelationshipsRef is how a tool that follows relationships names them:
// nothing when the graph schema lists them (the agent always has it, as the
// server's instructions or in query_entities, and a relationship_types
// argument names them), else the list.
func (g *Generator) RelationshipsRef() string {
	if g.edgesDescribed {
		return ""
	}
	return relationshipList(g.c.edges)
}

// propertyLabel renders a relationship property: its type, an enum's
// values, a number's bounds.
func propertyLabel(f *model.Field) string {
	t := string(f.Type)
	if f.Type == model.Enum {
		t = strings.Join(f.Values, "|")
	}
	if f.Min != nil || f.Max != nil {
		t += " "
		if f.Min != nil {
			t += strconv.FormatFloat(*f.Min, 'f', -1, 64)
		}
		t += ".."
		if f.Max != nil {
			t += strconv.FormatFloat(*f.Max, 'f', -1, 64)
		}
	}
	return t
}

// UniqueFields renders the unique id fields of the entities given: the
// one name they all use ("entity_key"), "Movie.title, Person.name", or for
// more than two a reference to the graph schema when it names each one (it
// lists every entity with its unique field): a short list costs no more
// than the reference and saves the agent a look-up.
func (g *Generator) UniqueFields(entities []*model.Entity) string {
	parts := make([]string, len(entities))
	same, described := true, true
	for i, e := range entities {
		parts[i] = e.Name + "." + e.UniqueField
		same = same && e.UniqueField == entities[0].UniqueField
		_, ok := g.described.kind[parts[i]]
		described = described && ok
	}
	switch {
	case same && len(entities) > 1:
		return entities[0].UniqueField
	case described && len(entities) > 2:
		return "see the graph schema"
	}
	return strings.Join(parts, ", ")
}

// commonModes is the mode list most fields of a tool share; fields with
// another list (narrowed by tool_modes or exposed_tools, or without fuzzy
// support) are annotated with theirs.
func commonModes(offers []*EntityOffer) []string {
	var lists [][]string
	var counts []int
	for _, o := range offers {
		for _, f := range o.Fields {
			i := slices.IndexFunc(lists, func(l []string) bool { return slices.Equal(l, f.Modes) })
			if i < 0 {
				lists = append(lists, f.Modes)
				counts = append(counts, 0)
				i = len(lists) - 1
			}
			counts[i]++
		}
	}
	best := 0
	for i := range counts {
		if counts[i] > counts[best] {
			best = i
		}
	}
	if len(lists) == 0 {
		return nil
	}
	return lists[best]
}

// FieldList renders the fields of kind a specialized tool offers:
// "every string field but Scope.uuid" when the overview describes them
// all and that is shorter, else by entity ("Scope: name, file; File:
// path"), with type and description for a field the overview lacks; and a
// field's own modes when they differ from the common list.
func (g *Generator) FieldList(offers []*EntityOffer, kind model.Type, showModes bool) string {
	common := commonModes(offers)
	own := func(f *FieldOffer) string {
		if !showModes || slices.Equal(f.Modes, common) {
			return ""
		}
		return " [" + ownModes(f.Modes, common) + "]"
	}
	offered := map[string]bool{}
	all := true
	var odd []string
	for _, o := range offers {
		for _, f := range o.Fields {
			offered[o.Entity.Name+"."+f.Field.Name] = true
			all = all && g.described.has(o.Entity, f.Field)
			if m := own(f); m != "" {
				odd = append(odd, o.Entity.Name+"."+f.Field.Name+m)
			}
		}
	}
	if all {
		missing := g.described.leftOut(kind, offered)
		if len(missing) < len(offered) {
			s := "every " + string(kind) + " field"
			if len(missing) > 0 {
				s += " but " + strings.Join(missing, ", ")
			}
			if len(odd) > 0 {
				s += "; " + strings.Join(odd, ", ")
			}
			return s + "\n"
		}
	}
	var b strings.Builder
	for i, o := range offers {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(o.Entity.Name + ": ")
		for j, f := range o.Fields {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Field.Name)
			if !g.described.has(o.Entity, f.Field) {
				b.WriteString(" (" + typeLabel(f))
				if f.Field.Description != "" {
					b.WriteString(": " + f.Field.Description)
				}
				b.WriteString(")")
			}
			b.WriteString(own(f))
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// ownModes renders a field's modes beside the common list: the extra ones
// ("+fuzzy") when it offers all of the common list, else its own list.
func ownModes(modes, common []string) string {
	var extra []string
	for _, m := range common {
		if !slices.Contains(modes, m) {
			return strings.Join(modes, ", ")
		}
	}
	for _, m := range modes {
		if !slices.Contains(common, m) {
			extra = append(extra, "+"+m)
		}
	}
	return strings.Join(extra, ", ")
}

// PatternHelp and NumberHelp explain the modes of text_pattern_search
// and number_range_search that need it, for the modes a tool actually
// offers. They say nothing about which type has which modes: that mapping
// is the CUE schema's and is read from the model.
var (
	PatternHelp = map[string]string{
		"regex": "RE2, whole value",
		"glob":  "shell wildcards",
		"fuzzy": "up to 2 typos a word",
	}
	NumberHelp = map[string]string{
		"between":       "value..upper_value",
		"approximately": fmt.Sprintf("within tolerance (default %g%% of value)", DefaultTolerancePercent),
		"rounded_equal": "value once floored to round_to",
		"percentile":    "from the percentile-th percentile up",
		"outlier":       "beyond k standard deviations from the mean",
		"histogram":     "counts per bucket (buckets or bucket_width)",
	}
	// plainModes say what they do by their names (datetime_range_search's
	// description explains its modes itself), so no description repeats
	// them beside the schema's enum.
	plainModes = []string{"contains", "starts_with", "ends_with", "exact", "equal", "gt", "gte", "lt", "lte", "before", "after", "between", "relative", "in", "not_in", "within_distance", "is"}
)

// ModeNotes explains the modes of a specialized tool that need it (its
// input schema lists them all); a mode only some fields offer says so,
// and those fields show it in brackets.
func ModeNotes(offers []*EntityOffer, modes []string, helps map[string]string) string {
	common := commonModes(offers)
	var notes []string
	for _, m := range modes {
		h := helps[m]
		if !slices.Contains(common, m) {
			h = strings.TrimPrefix(h+", only where marked", ", ")
		}
		if h != "" {
			notes = append(notes, m+": "+h)
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return strings.Join(notes, "; ") + ".\n"
}

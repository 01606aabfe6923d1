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
func typeLabel(f *fieldOffer) string {
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

// overview describes the entities query_entities offers and the
// relationships between them. A field whose name, type and description
// repeat an earlier entity's is written without its description.
func (g *generator) overview(offers []*entityOffer, odd map[*fieldOffer]bool) string {
	var b strings.Builder
	b.WriteString(GraphSchemaTitle + " (the tools refer to it). Entities (unique id field) and fields (name type: description; type = expression: computed, read-only):\n")
	said := map[string]bool{}
	for _, o := range offers {
		fmt.Fprintf(&b, "- %s (%s)", o.Entity.Name, o.Entity.UniqueField)
		if o.Entity.Description != "" {
			b.WriteString(": " + o.Entity.Description)
		}
		b.WriteString("\n  ")
		for i, f := range o.Fields {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(f.Field.Name + " " + typeLabel(f))
			key := f.Field.Name + " " + typeLabel(f) + ": " + f.Field.Description
			if f.Field.Description != "" && !said[key] {
				b.WriteString(": " + f.Field.Description)
				said[key] = true
			}
			if odd[f] {
				b.WriteString(" {operators " + strings.Join(f.Modes, ", ") + "}")
			}
			g.described.add(o.Entity, f.Field)
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

// provenanceLine says once, for every write tool, what a write records
// (source and confidence from its arguments) and returns.
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
	var parts []string
	if p != nil && p.SourceField != "" {
		parts = append(parts, "source (where you learned it: a conversation, a document) as "+p.SourceField)
	}
	if p != nil && p.ConfidenceField != "" {
		parts = append(parts, "confidence (0 to 1) as "+p.ConfidenceField)
	}
	s := "Writes return {entity_key (of an entity), created, message}"
	if len(parts) > 0 {
		s += " and record " + strings.Join(parts, " and ")
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
			return field == "" || o.field(field) != nil
		}
	}
	return false
}

// relationshipList renders every relationship once: the stored direction,
// its properties and description.
func relationshipList(edges []edge) string {
	var b strings.Builder
	b.WriteString("Relationships (--> is the stored direction, -- undirected; {properties}):\n")
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

// relationshipsRef is how a tool that follows relationships names them:
// a reference to the graph schema when it has them, else the list.
func (g *generator) relationshipsRef() string {
	if g.edgesDescribed {
		return "Relationships: see the graph schema.\n"
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

// uniqueFields renders "Scope.uuid, File.path, …" for the entities given.
func uniqueFields(entities []*model.Entity) string {
	parts := make([]string, len(entities))
	for i, e := range entities {
		parts[i] = e.Name + "." + e.UniqueField
	}
	return strings.Join(parts, ", ")
}

// commonModes is the mode list most fields of a tool share; fields with
// another list (narrowed by tool_modes or exposed_tools, or without fuzzy
// support) are annotated with theirs.
func commonModes(offers []*entityOffer) []string {
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

// fieldList renders the fields of kind a specialized tool offers:
// "every string field but Scope.uuid" when the overview describes them
// all and that is shorter, else by entity ("Scope: name, file; File:
// path"), with type and description for a field the overview lacks; and a
// field's own modes when they differ from the common list.
func (g *generator) fieldList(offers []*entityOffer, kind model.Type, showModes bool) string {
	common := commonModes(offers)
	own := func(f *fieldOffer) string {
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
		// A field name left out of every entity that has it is named
		// once (entity_key), others with their entity (Scope.uuid).
		var missing []string
		out := map[string]int{}
		for _, k := range g.described.keys {
			_, name, _ := strings.Cut(k, ".")
			if g.described.kind[k] != kind {
				continue
			}
			if offered[k] {
				out[name] = -1 << 30
			} else {
				out[name]++
			}
		}
		for _, k := range g.described.keys {
			_, name, _ := strings.Cut(k, ".")
			switch {
			case g.described.kind[k] != kind || offered[k]:
			case out[name] > 0:
				if !slices.Contains(missing, name) {
					missing = append(missing, name)
				}
			default:
				missing = append(missing, k)
			}
		}
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

// patternHelp and numberHelp explain the modes of text_pattern_search
// and number_range_search that need it, for the modes a tool actually
// offers. They say nothing about which type has which modes: that mapping
// is the CUE schema's and is read from the model.
var (
	patternHelp = map[string]string{
		"regex": "RE2, matching the whole value",
		"glob":  "shell wildcards",
		"fuzzy": "tolerates typos (2 edits a word)",
	}
	numberHelp = map[string]string{
		"between":       "value..upper_value",
		"approximately": fmt.Sprintf("within tolerance, default %g%% of value", DefaultTolerancePercent),
		"rounded_equal": "x rounded down to round_to is value",
		"percentile":    "at or above the percentile-th percentile",
		"outlier":       "more than k standard deviations from the mean",
		"histogram":     "counts per bucket of buckets or bucket_width, not entities",
	}
	// plainModes say what they do by their names (datetime_range_search's
	// description explains its modes itself), so no description repeats
	// them beside the schema's enum.
	plainModes = []string{"contains", "starts_with", "ends_with", "exact", "equal", "gt", "gte", "lt", "lte", "before", "after", "between", "relative", "in", "not_in", "within_distance", "is"}
)

// modeNotes explains the modes of a specialized tool that need it (its
// input schema lists them all) and, when fields differ, which modes a
// field without brackets offers.
func modeNotes(offers []*entityOffer, modes []string, helps map[string]string) string {
	var help []string
	for _, m := range modes {
		if h, ok := helps[m]; ok {
			help = append(help, m+": "+h)
		}
	}
	var b strings.Builder
	if len(help) > 0 {
		b.WriteString(strings.Join(help, "; ") + ".\n")
	}
	common, union := commonModes(offers), unionModes(offers)
	var rest []string
	for _, m := range union {
		if !slices.Contains(common, m) {
			rest = append(rest, m)
		}
	}
	if len(rest) > 0 {
		b.WriteString("Fields without brackets offer every mode but " + strings.Join(rest, ", ") + ".\n")
	}
	return b.String()
}

package tools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// typeLabel renders a field's type for a description: the declared type,
// an enum's values, and for a computed field what it is computed from, so
// the agent knows line_count is endLine - startLine + 1 without reading the
// config.
func typeLabel(f *fieldOffer) string {
	t := string(f.Field.Type)
	if f.Field.Type == model.Enum {
		t = "enum: " + strings.Join(f.Field.Values, "|")
	}
	if f.Computed != nil {
		if f.Computed.Expression != "" {
			t += ", computed: " + f.Computed.Expression
		} else {
			t += ", computed by a Cypher subquery"
		}
	}
	return t
}

// fieldLine renders one field of an entity block.
func fieldLine(e *model.Entity, f *fieldOffer, extra string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  * %s (%s)", f.Field.Name, typeLabel(f))
	if f.Field.Description != "" {
		b.WriteString(" - " + f.Field.Description)
	}
	if f.Field.Name == e.UniqueField {
		b.WriteString(" [UNIQUE FIELD]")
	}
	b.WriteString(extra)
	return b.String()
}

// entityHeader renders an entity's heading line with its unique field.
func entityHeader(e *model.Entity) string {
	h := fmt.Sprintf("- %s (unique id: %s)", e.Name, e.UniqueField)
	if e.Description != "" {
		h += ": " + e.Description
	}
	return h
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

// specializedFieldList renders the "Available … fields" list of a
// specialized tool: Entity.field (type): description, with the field's
// modes when they differ from the common list.
func specializedFieldList(offers []*entityOffer, label string, showModes bool) string {
	all := commonModes(offers)
	var b strings.Builder
	for _, o := range offers {
		for _, f := range o.Fields {
			fmt.Fprintf(&b, "- %s.%s", o.Entity.Name, f.Field.Name)
			if f.Field.Type == model.Enum {
				fmt.Fprintf(&b, " [%s]", strings.Join(f.Field.Values, ", "))
			} else if f.Computed != nil {
				b.WriteString(" (" + typeLabel(f) + ")")
			} else if f.Field.Type != model.Type(label) {
				fmt.Fprintf(&b, " (%s)", f.Field.Type)
			}
			if f.Field.Description != "" {
				b.WriteString(": " + f.Field.Description)
			}
			if showModes && !slices.Equal(f.Modes, all) {
				fmt.Fprintf(&b, " [%s: %s]", modesWord(label), strings.Join(f.Modes, ", "))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// modesWord is what the seeds call a specialized tool's modes argument:
// number_range_search says operator, the others mode.
func modesWord(kind string) string {
	if kind == string(model.Number) {
		return "operators"
	}
	return "modes"
}

// modeHelp explains what each specialized-tool mode does, for the modes a
// tool actually offers. It says nothing about which type has which modes:
// that mapping is the CUE schema's and is read from the model.
var modeHelp = map[string]string{
	"contains":        "value contains pattern",
	"starts_with":     "value starts with pattern",
	"ends_with":       "value ends with pattern",
	"exact":           "value equals pattern",
	"regex":           "pattern is an RE2 regular expression matching the whole value (no backreferences or lookaround)",
	"glob":            "shell wildcards: * any run of characters, ? one character, [abc] one of",
	"fuzzy":           "tolerates typos (edit distance up to 2 per word)",
	"equal":           "= value",
	"gt":              "> value",
	"gte":             ">= value",
	"lt":              "< value",
	"lte":             "<= value",
	"between":         "value <= x <= upper_value",
	"approximately":   fmt.Sprintf("within tolerance of value (default tolerance: %g%% of value)", DefaultTolerancePercent),
	"rounded_equal":   fmt.Sprintf("rounds to value: floor(value/round_to)*round_to <= x < that + round_to (round_to default %g)", DefaultRoundTo),
	"percentile":      fmt.Sprintf("at or above the given percentile of the field's values (percentile, default %g)", DefaultPercentile),
	"outlier":         fmt.Sprintf("more than k standard deviations from the mean (k, default %g)", DefaultOutlierK),
	"histogram":       fmt.Sprintf("returns counts per bucket instead of entities (buckets, default %d, or bucket_width)", DefaultBuckets),
	"before":          "strictly before datetime",
	"after":           "strictly after datetime",
	"relative":        "within relative_period, up to now",
	"in":              "value is one of values",
	"not_in":          "value is none of values (exclude: true)",
	"within_distance": "within radius_km of latitude/longitude, nearest first",
	"is":              "value is the given boolean",
}

// modeLines renders "- mode: help" for the given modes.
func modeLines(modes []string) string {
	var b strings.Builder
	for _, m := range modes {
		if h, ok := modeHelp[m]; ok {
			fmt.Fprintf(&b, "- %s: %s\n", m, h)
		} else {
			fmt.Fprintf(&b, "- %s\n", m)
		}
	}
	return b.String()
}

// modesHeader introduces the mode list of a specialized tool, saying which
// modes a field without its own list offers.
func modesHeader(word string, offers []*entityOffer) string {
	common := commonModes(offers)
	if slices.Equal(common, unionModes(offers)) {
		return "\n" + word + " (a field offers all of them unless its own are listed):\n"
	}
	return "\n" + word + " (a field offers " + strings.Join(common, ", ") + " unless its own are listed):\n"
}

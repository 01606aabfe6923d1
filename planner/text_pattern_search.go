package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// TextPatternSearch matches string fields against a pattern.
const TextPatternSearch = "text_pattern_search"

func init() {
	register(declaration[TextPatternSearchArgs]{
		Kind:  tools.Kind{Name: TextPatternSearch, Category: tools.CategorySearch, Rank: 70, Offered: withSpecialized, Generate: generateTextPatternSearch},
		check: checkTextPattern,
		plan:  (*Planner).textPatternSearch,
	})
}

// TextPatternSearchArgs are text_pattern_search's arguments.
type TextPatternSearchArgs struct {
	EntityType    string `json:"entity_type"`
	Field         string `json:"field"`
	Pattern       string `json:"pattern"`
	Mode          string `json:"mode"`
	CaseSensitive bool   `json:"case_sensitive"`
	Limit         int    `json:"limit"`
}

// generateTextPatternSearch writes the tool that matches string fields
// against a pattern.
func generateTextPatternSearch(g *tools.Generator) *tools.Generated {
	offers := g.SpecializedOffers(TextPatternSearch, model.String, func(e *model.Entity, f *tools.FieldOffer, mode string) bool {
		return mode != "fuzzy" || g.FuzzySupported(e, f)
	})
	if len(offers) == 0 {
		return nil
	}
	modes := tools.UnionModes(offers)
	var b strings.Builder
	b.WriteString("Entities whose string field matches pattern per mode, ignoring case unless case_sensitive.\nFields: ")
	b.WriteString(g.FieldList(offers, model.String, true))
	b.WriteString(tools.ModeNotes(offers, modes, tools.PatternHelp))
	def := modes[0]
	if slices.Contains(modes, "contains") {
		def = "contains"
	}
	props := append(tools.SpecializedHead(offers),
		tools.Prop{Name: "pattern", Schema: &tools.Schema{Type: "string", MinLength: tools.Count(1), MaxLength: tools.Count(1000)}},
		tools.Prop{Name: "mode", Schema: &tools.Schema{Type: "string", Enum: modes, Default: def}},
		tools.Prop{Name: "case_sensitive", Schema: &tools.Schema{Type: "boolean"}},
		g.LimitProp(),
	)
	return &tools.Generated{Description: b.String(), Input: tools.Object(props...).Require("entity_type", "field", "pattern"), Offers: offers}
}

// checkTextPattern checks decoded arguments and fills their defaults.
func checkTextPattern(ck *tools.Checker, a *TextPatternSearchArgs) {
	a.Limit = ck.Limit(a.Limit)
	f := ck.Field(a.EntityType, a.Field, "/field")
	if f == nil {
		return
	}
	if a.Mode == "" {
		a.Mode = f.ModeOr("contains")
	}
	if !ck.Mode(f, a.Mode, "/mode") {
		return
	}
	switch a.Mode {
	case "regex", "glob":
		if _, err := tools.Matcher(a.Mode, a.Pattern, a.CaseSensitive); err != nil {
			ck.Add("/pattern", "%v", err)
		}
	case "fuzzy":
		if len(tools.Words(a.Pattern)) == 0 {
			ck.Add("/pattern", "fuzzy needs at least one word (letters or digits) in pattern")
		}
	}
}

// textPatternSearch plans text_pattern_search. contains, starts_with,
// ends_with and exact are Cypher string predicates on a parameter (case-
// insensitive through toLower on both sides); regex and glob read every
// candidate a literal prefilter leaves, chunk by chunk, for the engine to
// match in Go; fuzzy goes through the full-text index or APOC.
func (p *Planner) textPatternSearch(a *TextPatternSearchArgs, state model.State) (*Statement, error) {
	const tool = TextPatternSearch
	mode := a.Mode
	ci := !a.CaseSensitive
	side := func(x string) string {
		if ci {
			return "toLower(" + x + ")"
		}
		return x
	}
	val := func(b *builder, v string) string {
		if ci {
			return "toLower(" + b.param(v) + ")"
		}
		return b.param(v)
	}
	s := search{tool: tool, entity: a.EntityType, field: a.Field, limit: a.Limit}
	switch mode {
	case "contains", "starts_with", "ends_with", "exact":
		op := map[string]string{"contains": "CONTAINS", "starts_with": "STARTS WITH", "ends_with": "ENDS WITH", "exact": "="}[mode]
		s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
			return []string{side(x) + " " + op + " " + val(b, a.Pattern)}, nil
		}
	case "regex", "glob":
		return p.scanSearch(a, mode, state)
	case "fuzzy":
		return p.fuzzySearch(a, state)
	default:
		return nil, unplannable(tool, "mode", mode)
	}
	st, err := p.search(s, state)
	return st, err
}

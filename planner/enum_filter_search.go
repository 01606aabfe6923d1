package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// EnumFilterSearch keeps entities whose enum field is (or is not) one of
// some values.
const EnumFilterSearch = "enum_filter_search"

func init() {
	register(declaration[EnumFilterSearchArgs]{
		Kind:  tools.Kind{Name: EnumFilterSearch, Category: tools.CategorySearch, Rank: 100, Offered: withSpecialized, Generate: generateEnumFilterSearch},
		check: checkEnumFilter,
		plan:  (*Planner).enumFilterSearch,
	})
}

// EnumFilterSearchArgs are enum_filter_search's arguments.
type EnumFilterSearchArgs struct {
	EntityType string   `json:"entity_type"`
	Field      string   `json:"field"`
	Values     []string `json:"values"`
	Exclude    bool     `json:"exclude"`
	Limit      int      `json:"limit"`
}

// generateEnumFilterSearch writes the tool that keeps entities whose enum
// field is (or is not) one of some values.
func generateEnumFilterSearch(g *tools.Generator) *tools.Generated {
	offers := g.SpecializedOffers(EnumFilterSearch, model.Enum, nil)
	if len(offers) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Entities whose enum field has one of values (exclude: none of them).\nFields: ")
	b.WriteString(g.FieldList(offers, model.Enum, false))
	props := append(tools.SpecializedHead(offers),
		tools.Prop{Name: "values", Schema: &tools.Schema{Type: "array", Items: &tools.Schema{Type: "string"}, MinItems: tools.Count(1), UniqueItems: true}},
		tools.Prop{Name: "exclude", Schema: &tools.Schema{Type: "boolean"}},
		g.LimitProp(),
	)
	return &tools.Generated{Description: b.String(), Input: tools.Object(props...).Require("entity_type", "field", "values"), Offers: offers}
}

// checkEnumFilter checks decoded arguments and fills their defaults.
func checkEnumFilter(ck *tools.Checker, a *EnumFilterSearchArgs) {
	a.Limit = ck.Limit(a.Limit)
	f := ck.Field(a.EntityType, a.Field, "/field")
	if f == nil {
		return
	}
	for i, v := range a.Values {
		if !slices.Contains(f.Field.Values, v) {
			ck.Choose(tools.Pointer("values", i), f.Field.Values, "%q is not a value of %s.%s", v, a.EntityType, f.Field.Name)
		}
	}
	want := "in"
	if a.Exclude {
		want = "not_in"
	}
	if !slices.Contains(f.Modes, want) {
		ck.Add("/exclude", "%s.%s does not offer %s (its modes: %v)", a.EntityType, f.Field.Name, want, f.Modes)
	}
}

// enumFilterSearch plans enum_filter_search: the field IN the values (or,
// with exclude, NOT IN them; entities without a value match neither).
func (p *Planner) enumFilterSearch(a *EnumFilterSearchArgs, state model.State) (*Statement, error) {
	const tool = EnumFilterSearch
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	s := search{tool: tool, entity: e.Name, field: a.Field, limit: a.Limit}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		pred := x + " IN " + b.param(append([]string(nil), a.Values...))
		if a.Exclude {
			pred = "NOT " + pred
		}
		return []string{pred}, nil
	}
	st, err := p.search(s, state)
	return st, err
}

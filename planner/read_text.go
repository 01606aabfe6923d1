package planner

import (
	"fmt"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// ReadText reads one string field of one entity whole, a page at a time:
// results shorten long texts (Options.MaxString), and this is how an agent
// reads one in full.
const ReadText = "read_text"

// MaxTextPage is the most characters read_text returns in one call; a
// longer text is read in pages (offset).
const MaxTextPage = 20000

func init() {
	register(declaration[ReadTextArgs]{
		Kind: tools.Kind{Name: ReadText, Category: tools.CategoryQuery, Rank: 25, Generate: generateReadText,
			LongTextNote: fmt.Sprintf("%s reads one whole, up to %d characters a call", ReadText, MaxTextPage)},
		check: checkReadText,
		plan:  (*Planner).readText,
	})
}

// ReadTextArgs are read_text's arguments. IDValue is the entity's unique
// field, as for get_entity_by_id; Offset and Length count characters.
type ReadTextArgs struct {
	EntityType string `json:"entity_type"`
	IDValue    any    `json:"id_value"`
	Field      string `json:"field"`
	Offset     int    `json:"offset"`
	Length     int    `json:"length"`
}

// generateReadText writes the tool that reads one string field whole. Its
// offers are the string fields of the entities with a unique field.
func generateReadText(g *tools.Generator) *tools.Generated {
	var offers []*tools.EntityOffer
	for _, e := range g.Model().Entities {
		q := g.QueryOffer(e.Name)
		if !tools.Enabled(e, ReadText) || e.Field(e.UniqueField) == nil || q == nil {
			continue
		}
		o := &tools.EntityOffer{Entity: e}
		for _, f := range q.Fields {
			if f.Field.Type.Kind() == model.String {
				o.Fields = append(o.Fields, f)
			}
		}
		if len(o.Fields) > 0 {
			offers = append(offers, o)
		}
	}
	if len(offers) == 0 {
		return nil
	}
	desc := fmt.Sprintf("Read a string field of one entity (by its unique id) whole, which other results shorten: length characters (at most %d) from offset, with the text's total length and the next_offset to read from (null at the end).", MaxTextPage)
	in := tools.Object(
		tools.EntityTypeProp(tools.OfferEntities(offers)),
		tools.Prop{Name: "id_value", Schema: &tools.Schema{Types: []string{"string", "number"}}},
		tools.FieldProp("field"),
		tools.Prop{Name: "offset", Schema: &tools.Schema{Type: "integer", Minimum: tools.Num(0)}},
		tools.Prop{Name: "length", Schema: &tools.Schema{Type: "integer", Minimum: tools.Num(1), Maximum: tools.Num(MaxTextPage)}},
	).Require("entity_type", "id_value", "field")
	return &tools.Generated{Description: desc, Input: in, Offers: offers}
}

// checkReadText checks decoded arguments and fills their defaults.
func checkReadText(ck *tools.Checker, a *ReadTextArgs) {
	if a.Length == 0 {
		a.Length = MaxTextPage
	}
	o := ck.Entity(a.EntityType, "/entity_type")
	if o == nil {
		return
	}
	if v, ok := checkID(ck, o.Entity, a.IDValue, "/id_value"); ok {
		a.IDValue = v
	}
	ck.Field(a.EntityType, a.Field, "/field")
}

// readText plans read_text: the entity by its unique field, with only
// the field's page as its properties (or computed values) and the stats
// text_length and next_offset (null after the last page). The page is
// substring's, in characters, as the engine counts when it shortens.
func (p *Planner) readText(a *ReadTextArgs, state State) (*Statement, error) {
	e, err := p.entity(ReadText, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	b, err := p.newBuilder(ReadText, e, state)
	if err != nil {
		return nil, err
	}
	r, err := b.field(a.Field, "/field")
	if err != nil {
		return nil, err
	}
	if r.f.Type.Kind() != model.String {
		return nil, tools.Fail(ReadText, "/field", nil, "%s.%s is a %s, not a string", e.Name, r.f.Name, r.f.Type)
	}
	id, err := b.lookup(e, "n", "id", a.IDValue, "/id_value")
	if err != nil {
		return nil, err
	}
	b.match([]string{id})
	b.line("WITH n\nLIMIT 1")
	from, n := b.named("offset", int64(max(a.Offset, 0))), b.named("length", int64(clamp(a.Length, MaxTextPage, MaxTextPage)))
	b.page = &textPage{f: r.f, from: from, length: n}
	var stored, computed []fieldRef
	if r.c != nil {
		computed = append(computed, r)
	} else {
		stored = append(stored, r)
	}
	// The stats read the field after returnEntities computed it (a
	// computed field's variable).
	x := b.expr(r)
	stats := []string{"size(" + x + ") AS text_length", "CASE WHEN " + from + " + " + n + " < size(" + x + ") THEN " + from + " + " + n + " END AS next_offset"}
	if err := b.returnEntities(stored, computed, stats, nil); err != nil {
		return nil, err
	}
	return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: 1, Stats: []string{"text_length", "next_offset"}, Whole: r.f.Name, NotFound: notFound(e, a.IDValue)})
}

package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// GetEntityByID fetches one entity by its unique field, or reads one of
// its string fields whole, a page at a time (field).
const GetEntityByID = "get_entity_by_id"

// MaxTextPage is the most characters of a text get_entity_by_id's field
// returns in one call; a longer text is read in pages (offset).
const MaxTextPage = 20000

func init() {
	register(declaration[GetEntityByIDArgs]{
		Kind: tools.Kind{Name: GetEntityByID, Category: tools.CategoryQuery, Rank: 20, Generate: generateGetEntityByID,
			LongTextNote: fmt.Sprintf("%s with field reads one whole, %d characters a call from offset", GetEntityByID, MaxTextPage)},
		check: checkGetByID,
		plan:  (*Planner).getEntityByID,
	})
}

// GetEntityByIDArgs are get_entity_by_id's arguments. IDValue is a string,
// int64 or float64 per the unique field's type. Field, when set, names a
// string field to read whole instead of the entity: Length characters (not
// bytes) from Offset.
type GetEntityByIDArgs struct {
	EntityType string `json:"entity_type"`
	IDValue    any    `json:"id_value"`
	Field      string `json:"field"`
	Offset     int    `json:"offset"`
	Length     int    `json:"length"`
}

// generateGetEntityByID writes the tool that fetches one entity by its
// unique field. Its offers are the unique field, then the string fields
// field may read.
func generateGetEntityByID(g *tools.Generator) *tools.Generated {
	var offers []*tools.EntityOffer
	for _, e := range g.Model().Entities {
		if !tools.Enabled(e, GetEntityByID) {
			continue
		}
		f := e.Field(e.UniqueField)
		if f == nil {
			continue
		}
		o := &tools.EntityOffer{Entity: e, Fields: []*tools.FieldOffer{{Field: f}}}
		if q := g.QueryOffer(e.Name); q != nil {
			for _, fo := range q.Fields {
				if fo.Field.Type.Kind() == model.String && fo.Field != f {
					o.Fields = append(o.Fields, fo)
				}
			}
		}
		offers = append(offers, o)
	}
	if len(offers) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("One entity's properties by its unique id (" + g.UniqueFields(tools.EntitiesOf(offers)) + ").")
	b.WriteString(" field reads one string field whole, length characters a call from offset; stats: text_length, next_offset.")
	in := tools.Object(
		tools.EntityTypeProp(tools.OfferEntities(offers)),
		tools.Prop{Name: "id_value", Schema: &tools.Schema{Types: []string{"string", "number"}}},
		tools.FieldProp("field"),
		tools.Prop{Name: "offset", Schema: &tools.Schema{Type: "integer", Minimum: tools.Num(0), Least: tools.Least(0)}},
		tools.Prop{Name: "length", Schema: &tools.Schema{Type: "integer", Maximum: tools.Num(MaxTextPage)}},
	).Require("entity_type", "id_value")
	return &tools.Generated{Description: b.String(), Input: in, Offers: offers}
}

// checkGetByID checks decoded arguments and fills their defaults.
func checkGetByID(ck *tools.Checker, a *GetEntityByIDArgs) {
	o := ck.Entity(a.EntityType, "/entity_type")
	if o == nil {
		return
	}
	if v, ok := checkID(ck, o.Entity, a.IDValue, "/id_value"); ok {
		a.IDValue = v
	}
	var texts []string
	for _, f := range o.Fields {
		if f.Field.Type.Kind() == model.String {
			texts = append(texts, f.Field.Name)
		}
	}
	switch {
	case a.Field == "" && (a.Offset != 0 || a.Length != 0):
		ck.Choose("/field", texts, "offset and length page a text: give its field")
	case a.Field == "":
	case !slices.Contains(texts, a.Field):
		ck.Choose("/field", texts, "%q is not a string field of %s", a.Field, o.Entity.Name)
	case a.Length < 0:
		ck.Add("/length", "length counts the characters to read: at least 1 (default and most: %d)", MaxTextPage)
	case a.Length == 0:
		a.Length = MaxTextPage
	}
}

// checkID checks v, the unique field's value of entity e given at path,
// and returns it as the field's Go type.
func checkID(ck *tools.Checker, e *model.Entity, v any, path string) (any, bool) {
	f := e.Field(e.UniqueField)
	if f.Type.Kind() != model.Number {
		if _, ok := v.(string); !ok {
			ck.Add(path, "%s.%s is a %s; give it as a string", e.Name, f.Name, f.Type)
			return nil, false
		}
	}
	return ck.Value(f, v, path)
}

// getEntityByID plans get_entity_by_id: the entity with the unique field's
// value, every stored field and every computed field; with field, only
// that field's page (textPage).
func (p *Planner) getEntityByID(a *GetEntityByIDArgs, state model.State) (*Statement, error) {
	e, err := p.entity(GetEntityByID, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	b, err := p.newBuilder(GetEntityByID, e, state)
	if err != nil {
		return nil, err
	}
	id, err := b.lookup(e, "n", "id", a.IDValue, "/id_value")
	if err != nil {
		return nil, err
	}
	b.match([]string{id})
	b.line("WITH n\nLIMIT 1")
	shape := Shape{Kind: ShapeEntities, Entity: e.Name, Limit: 1, NotFound: notFound(e, a.IDValue), Pins: pin(e, e.UniqueField, a.IDValue)}
	if a.Field != "" {
		return b.textPage(a.Field, a.Offset, a.Length, shape)
	}
	if err := b.returnEntities(b.defaultStored(), b.allComputed(), nil, nil); err != nil {
		return nil, err
	}
	return b.statement(shape)
}

// textPage returns the entity in scope with only field's page as its
// property (or computed value): length characters from offset, clamped to
// MaxTextPage, counted as the engine counts when it shortens (substring's
// characters). The stats text_length and next_offset (null after the last
// page) say what is left.
func (b *builder) textPage(field string, offset, length int, shape Shape) (*Statement, error) {
	r, err := b.field(field, "/field")
	if err != nil {
		return nil, err
	}
	if r.f.Type.Kind() != model.String {
		return nil, tools.Fail(b.tool, "/field", nil, "%s.%s is a %s, not a string", b.e.Name, r.f.Name, r.f.Type)
	}
	from, n := b.named("offset", int64(max(offset, 0))), b.named("length", int64(clamp(length, MaxTextPage, MaxTextPage)))
	b.page = &textPage{f: r.f, from: from, length: n}
	var stored, computed []fieldRef
	if r.c != nil {
		computed = append(computed, r)
	} else {
		stored = append(stored, r)
	}
	// x is a computed field's variable, which returnEntities computes
	// before its RETURN.
	x := b.expr(r)
	stats := []string{"size(" + x + ") AS text_length", "CASE WHEN " + from + " + " + n + " < size(" + x + ") THEN " + from + " + " + n + " END AS next_offset"}
	if err := b.returnEntities(stored, computed, stats, nil); err != nil {
		return nil, err
	}
	shape.Stats, shape.Whole = []string{"text_length", "next_offset"}, r.f.Name
	return b.statement(shape)
}

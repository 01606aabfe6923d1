package planner

import (
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// GetEntityByID fetches one entity by its unique field.
const GetEntityByID = "get_entity_by_id"

func init() {
	register(declaration[GetEntityByIDArgs]{
		Kind:  tools.Kind{Name: GetEntityByID, Category: tools.CategoryQuery, Rank: 20, Generate: generateGetEntityByID},
		check: checkGetByID,
		plan:  (*Planner).getEntityByID,
	})
}

// GetEntityByIDArgs are get_entity_by_id's arguments. IDValue is a string,
// int64 or float64 per the unique field's type.
type GetEntityByIDArgs struct {
	EntityType string `json:"entity_type"`
	IDValue    any    `json:"id_value"`
}

// generateGetEntityByID writes the tool that fetches one entity by its
// unique field.
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
		offers = append(offers, &tools.EntityOffer{Entity: e, Fields: []*tools.FieldOffer{{Field: f}}})
	}
	if len(offers) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Get one entity's properties by its unique id: " + tools.UniqueFields(tools.EntitiesOf(offers)) + ".")
	in := tools.Object(
		tools.EntityTypeProp(tools.OfferEntities(offers)),
		tools.Prop{Name: "id_value", Schema: &tools.Schema{Types: []string{"string", "number"}}},
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
// value, every stored field and every computed field.
func (p *Planner) getEntityByID(a *GetEntityByIDArgs, state State) (*Statement, error) {
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
	if err := b.returnEntities(b.defaultStored(), b.allComputed(), nil, nil); err != nil {
		return nil, err
	}
	return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: 1, NotFound: notFound(e, a.IDValue)})
}

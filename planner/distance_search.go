package planner

import (
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// DistanceSearch finds entities near a place, for point fields.
const DistanceSearch = "distance_search"

func init() {
	register(declaration[DistanceSearchArgs]{
		Kind:  tools.Kind{Name: DistanceSearch, Category: tools.CategorySearch, Rank: 110, Offered: withSpecialized, Generate: generateDistanceSearch},
		check: checkDistanceSearch,
		plan:  (*Planner).distanceSearch,
	})
}

// DistanceSearchArgs are distance_search's arguments.
type DistanceSearchArgs struct {
	EntityType string  `json:"entity_type"`
	Field      string  `json:"field"`
	Latitude   float64 `json:"latitude"`
	Longitude  float64 `json:"longitude"`
	RadiusKm   float64 `json:"radius_km"`
	Limit      int     `json:"limit"`
}

// generateDistanceSearch writes the tool that finds entities near a place,
// for point fields.
func generateDistanceSearch(g *tools.Generator) *tools.Generated {
	offers := g.SpecializedOffers(DistanceSearch, model.Point, nil)
	if len(offers) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Find entities within radius_km of a place (WGS-84 latitude/longitude), nearest first, each with its distance in km.\nFields: ")
	b.WriteString(g.FieldList(offers, model.Point, false))
	props := append(tools.SpecializedHead(offers),
		tools.Prop{Name: "latitude", Schema: &tools.Schema{Type: "number", Minimum: tools.Num(-90), Maximum: tools.Num(90)}},
		tools.Prop{Name: "longitude", Schema: &tools.Schema{Type: "number", Minimum: tools.Num(-180), Maximum: tools.Num(180)}},
		tools.Prop{Name: "radius_km", Schema: &tools.Schema{Type: "number", ExclusiveMinimum: tools.Num(0), Maximum: tools.Num(20100)}},
		g.LimitProp(),
	)
	return &tools.Generated{Description: b.String(), Input: tools.Object(props...).Require("entity_type", "field", "latitude", "longitude", "radius_km"), Offers: offers}
}

// checkDistanceSearch checks decoded arguments and fills their defaults.
func checkDistanceSearch(ck *tools.Checker, a *DistanceSearchArgs) {
	a.Limit = ck.Limit(a.Limit)
	ck.Field(a.EntityType, a.Field, "/field")
}

// distanceSearch plans distance_search: point.distance in the WHERE (which
// a point index serves), nearest first, with each entity's distance in km.
func (p *Planner) distanceSearch(a *DistanceSearchArgs, state State) (*Statement, error) {
	const tool = DistanceSearch
	var here string
	s := search{tool: tool, entity: a.EntityType, field: a.Field, limit: a.Limit, extraNames: []string{"distance_km"}}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		here = "point({latitude: " + b.named("latitude", a.Latitude) + ", longitude: " + b.named("longitude", a.Longitude) + "})"
		return []string{"point.distance(" + x + ", " + here + ") <= " + b.named("radius_m", a.RadiusKm*1000)}, nil
	}
	s.orders = func(b *builder, x string) []order {
		return []order{{expr: "point.distance(" + x + ", " + here + ")", key: &SortKey{Name: "distance_km", Column: "distance_km"}}}
	}
	s.extra = func(b *builder, x string) []string {
		return []string{"point.distance(" + x + ", " + here + ") / 1000.0 AS distance_km"}
	}
	st, err := p.search(s, state)
	return st, err
}

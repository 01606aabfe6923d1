package planner

import (
	"github.com/ragforge/ragforge/tools"
)

// distanceSearch plans distance_search: point.distance in the WHERE (which
// a point index serves), nearest first, with each entity's distance in km.
func (p *Planner) distanceSearch(a *tools.DistanceSearchArgs, state State) (*Statement, error) {
	const tool = tools.DistanceSearch
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

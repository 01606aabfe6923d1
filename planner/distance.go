package planner

import (
	"math"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// distanceSearch plans distance_search: point.distance in the WHERE (which
// a point index serves), nearest first, with each entity's distance in km.
func (p *Planner) distanceSearch(a *tools.DistanceSearchArgs, state State) (*Statement, error) {
	const tool = tools.DistanceSearch
	for _, v := range []float64{a.Latitude, a.Longitude, a.RadiusKm} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, callError(tool, "", nil, "latitude, longitude and radius_km must be finite")
		}
	}
	if a.Latitude < -90 || a.Latitude > 90 || a.Longitude < -180 || a.Longitude > 180 {
		return nil, callError(tool, "", nil, "latitude must be within ±90 and longitude within ±180")
	}
	if a.RadiusKm <= 0 {
		return nil, callError(tool, "/radius_km", nil, "radius_km must be greater than 0")
	}
	var here string
	s := search{tool: tool, entity: a.EntityType, field: a.Field, limit: a.Limit, extraNames: []string{"distance_km"}}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		if r.f.Type.Kind() != model.Point {
			return nil, callError(tool, "/field", nil, "%s is not a point field", r.f.Name)
		}
		here = "point({latitude: " + b.named("latitude", a.Latitude) + ", longitude: " + b.named("longitude", a.Longitude) + "})"
		return []string{"point.distance(" + x + ", " + here + ") <= " + b.named("radius_m", a.RadiusKm*1000)}, nil
	}
	s.orders = func(b *builder, x string) []order {
		return []order{{expr: "point.distance(" + x + ", " + here + ")"}}
	}
	s.extra = func(b *builder, x string) []string {
		return []string{"point.distance(" + x + ", " + here + ") / 1000.0 AS distance_km"}
	}
	st, err := p.search(s, state)
	return st, err
}

package planner

import (
	"slices"
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

// DistanceSearchArgs are distance_search's arguments: the place is either
// Latitude and Longitude or From, an entity.
type DistanceSearchArgs struct {
	EntityType string          `json:"entity_type"`
	Field      string          `json:"field"`
	Latitude   *float64        `json:"latitude"`
	Longitude  *float64        `json:"longitude"`
	From       *DistanceOrigin `json:"from"`
	RadiusKm   float64         `json:"radius_km"`
	Limit      int             `json:"limit"`
}

// DistanceOrigin is the entity a distance_search measures from, by its
// unique field. Parse sets Field to its point field: the one named like
// the searched field, else its only stored point field.
type DistanceOrigin struct {
	EntityType string `json:"entity_type"`
	IDValue    any    `json:"id_value"`
	Field      string `json:"-"`
}

// generateDistanceSearch writes the tool that finds entities near a place,
// for point fields.
func generateDistanceSearch(g *tools.Generator) *tools.Generated {
	offers := g.SpecializedOffers(DistanceSearch, model.Point, nil)
	if len(offers) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Find entities within radius_km of a place, nearest first, each with its distance in km. The place is latitude/longitude (WGS-84) or from: an entity by its unique id, measured from its point field (the one named field, else its only one) and left out.\nFields: ")
	b.WriteString(g.FieldList(offers, model.Point, false))
	from := tools.Object(tools.Prop{Name: "entity_type", Schema: &tools.Schema{Type: "string"}}, tools.Prop{Name: "id_value", Schema: &tools.Schema{Types: []string{"string", "number"}}}).Require("entity_type", "id_value")
	props := append(tools.SpecializedHead(offers),
		tools.Prop{Name: "latitude", Schema: &tools.Schema{Type: "number", Minimum: tools.Num(-90), Maximum: tools.Num(90)}},
		tools.Prop{Name: "longitude", Schema: &tools.Schema{Type: "number", Minimum: tools.Num(-180), Maximum: tools.Num(180)}},
		tools.Prop{Name: "from", Schema: from},
		tools.Prop{Name: "radius_km", Schema: &tools.Schema{Type: "number", ExclusiveMinimum: tools.Num(0), Maximum: tools.Num(20100)}},
		g.LimitProp(),
	)
	return &tools.Generated{Description: b.String(), Input: tools.Object(props...).Require("entity_type", "field", "radius_km"), Offers: offers}
}

// checkDistanceSearch checks decoded arguments and fills their defaults:
// exactly one place, and an origin with a unique id of the right type and
// a stored point field to measure from.
func checkDistanceSearch(ck *tools.Checker, a *DistanceSearchArgs) {
	a.Limit = ck.Limit(a.Limit)
	ck.Field(a.EntityType, a.Field, "/field")
	coords := a.Latitude != nil || a.Longitude != nil
	switch {
	case a.From == nil && (a.Latitude == nil || a.Longitude == nil):
		ck.Add("", "give the place: latitude and longitude, or from (an entity's entity_type and id_value)")
		return
	case a.From != nil && coords:
		ck.Add("/from", "give the place one way: latitude and longitude, or from, not both")
		return
	case a.From == nil:
		return
	}
	o := ck.Entity(a.From.EntityType, "/from/entity_type")
	if o == nil {
		return
	}
	if v, ok := checkID(ck, o.Entity, a.From.IDValue, "/from/id_value"); ok {
		a.From.IDValue = v
	}
	var stored []string
	for _, f := range o.Fields {
		if f.Computed == nil {
			stored = append(stored, f.Field.Name)
		}
	}
	switch {
	case slices.Contains(stored, a.Field):
		a.From.Field = a.Field
	case len(stored) == 1:
		a.From.Field = stored[0]
	default:
		ck.Choose("/field", stored, "%s has no stored point field %q to measure from, and not just one other", o.Entity.Name, a.Field)
	}
}

// distanceSearch plans distance_search: point.distance in the WHERE (which
// a point index serves), nearest first, with each entity's distance in km.
//
// From an entity, the statement first looks the origin up by its unique
// field (an index seek, inside the tenant, with its point set) and leaves
// it out of the answer. Its point is carried as a variable (here): Neo4j
// seeks the point index with point.distance(n.location, here) but scans
// it with o.location in the predicate
// (TestDistanceFromAnEntitySeeksBothIndexes). A second part, after UNION ALL, returns one row
// that only carries the Missing column when there is no such origin, so
// the result can tell "no such entity" from "nothing within the radius".
func (p *Planner) distanceSearch(a *DistanceSearchArgs, state model.State) (*Statement, error) {
	const tool = DistanceSearch
	var here string
	s := search{tool: tool, entity: a.EntityType, field: a.Field, limit: a.Limit, extraNames: []string{"distance_km"}}
	var origin []string
	var oe *model.Entity
	if a.From != nil {
		var err error
		if oe, err = p.entity(tool, a.From.EntityType, "/from/entity_type"); err != nil {
			return nil, err
		}
		f := oe.Field(a.From.Field)
		if f == nil || f.Type.Kind() != model.Point || p.tenantField(f.Name) {
			return nil, tools.Fail(tool, "/field", nil, "%s has no point field %q to measure from", oe.Name, a.From.Field)
		}
		s.before = func(b *builder) error {
			id, err := b.lookup(oe, "o", "from_id", a.From.IDValue, "/from/id_value")
			if err != nil {
				return err
			}
			at := b.prop("o", f.Name)
			origin = b.scoped("o", []string{id, at + " IS NOT NULL"})
			b.line("MATCH (o:%s)\nWHERE %s\nWITH o, %s AS here\nLIMIT 1", b.q(oe.Name), strings.Join(origin, " AND "), at)
			b.scope = append(b.scope, "o", "here")
			here = "here"
			return nil
		}
	}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		if a.From != nil {
			return []string{"point.distance(" + x + ", " + here + ") <= " + b.named("radius_m", a.RadiusKm*1000), "n <> o"}, nil
		}
		here = "point({latitude: " + b.named("latitude", *a.Latitude) + ", longitude: " + b.named("longitude", *a.Longitude) + "})"
		return []string{"point.distance(" + x + ", " + here + ") <= " + b.named("radius_m", a.RadiusKm*1000)}, nil
	}
	s.orders = func(b *builder, x string) []order {
		return []order{{expr: "point.distance(" + x + ", " + here + ")", key: &SortKey{Name: "distance_km", Column: "distance_km"}}}
	}
	s.extra = func(b *builder, x string) []string {
		out := []string{"point.distance(" + x + ", " + here + ") / 1000.0 AS distance_km"}
		if a.From != nil {
			out = append(out, "false AS "+colMissing)
		}
		return out
	}
	if a.From != nil {
		s.after = func(b *builder) {
			b.line("UNION ALL\nOPTIONAL MATCH (o:%s)\nWHERE %s\nWITH count(o) AS found\nWHERE found = 0", b.q(oe.Name), strings.Join(origin, " AND "))
			b.line("RETURN null AS %s, null AS %s, null AS %s, null AS distance_km, true AS %s", ColID, ColProperties, ColComputed, colMissing)
		}
	}
	st, err := p.search(s, state)
	if err != nil || a.From == nil {
		return st, err
	}
	st.Shape.Missing, st.Shape.NotFound = colMissing, notFound(oe, a.From.IDValue)+" with a "+a.From.Field
	return st, nil
}

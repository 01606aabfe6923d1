package planner

import (
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// ColRelated is the column of entity rows that holds the include lists:
// a map from relationship type to the related entities' fields.
const ColRelated = "related"

// RelatedList is one include list of a statement's rows: the relationship
// type that keys it and the most entities the call asked for (the
// statement fetches one more, so the engine can tell a list was cut).
type RelatedList struct {
	Via   string `json:"via"`
	Limit int    `json:"limit"`
}

// include renders the related column of the include argument, an item of
// the RETURN that follows the page:
//
//	{`TYPE`: COLLECT { MATCH (n)-[r0:TYPE]->(m0) WHERE m0:Label AND <tenant of m0>
//	                  WITH DISTINCT m0 ORDER BY m0.unique LIMIT $include_0
//	                  RETURN m0 {.field, computed: <expression over m0>, …} }, …} AS related
//
// One subquery per entity returned, so it never multiplies rows nor
// changes their order; DISTINCT lists an entity reached by parallel
// relationships once; the order by unique field makes the list, and where
// the limit cuts it, the same on every call. The column is returnEntities'
// extra item, none when the call includes nothing.
func (b *builder) include(incs []tools.Include) ([]string, []RelatedList, error) {
	if len(incs) == 0 {
		return nil, nil, nil
	}
	items := make([]string, 0, len(incs))
	lists := make([]RelatedList, 0, len(incs))
	for i, in := range incs {
		at := "/include/" + itoa(i)
		h, err := b.related(b.mainScope(), tools.Related{Via: in.Via, Direction: in.Direction, Entity: in.Entity}, at, 0, false)
		if err != nil {
			return nil, nil, err
		}
		if h.entity == nil {
			return nil, nil, tools.Fail(b.tool, at+"/entity", b.p.rels.Reachable(b.e.Name, []string{in.Via}, in.Direction, 1), "%s --[%s]-- (%s) reaches several entity types; name one", b.e.Name, in.Via, in.Direction)
		}
		proj, err := b.relatedProjection(scope{v: h.m, e: h.entity, name: h.entity.Name}, in.Fields, at+"/fields/")
		if err != nil {
			return nil, nil, err
		}
		limit := clamp(in.Limit, tools.DefaultIncludeLimit, tools.MaxIncludeLimit)
		items = append(items, b.q(in.Via)+": COLLECT { MATCH "+h.pattern+" WHERE "+joinAnd(h.base)+
			" WITH DISTINCT "+h.m+" ORDER BY "+b.prop(h.m, h.entity.UniqueField)+" LIMIT "+b.named("include_"+itoa(i), int64(limit+1))+
			" RETURN "+proj+" }")
		lists = append(lists, RelatedList{Via: in.Via, Limit: limit})
	}
	return []string{"{" + strings.Join(items, ", ") + "} AS " + ColRelated}, lists, nil
}

// relatedProjection renders the map of the named fields of related scope
// s: its stored fields projected as query_entities' are, its computed
// expression fields inline over its variable (string values cut alike).
func (b *builder) relatedProjection(s scope, names []string, at string) (string, error) {
	var stored []*model.Field
	var computed []string
	for j, name := range names {
		r, err := s.field(b, name, at+itoa(j))
		if err != nil {
			return "", err
		}
		if r.inline == "" {
			stored = append(stored, r.f)
		} else {
			computed = append(computed, b.q(name)+": "+b.cut(r.f, r.inline))
		}
	}
	items := append(b.projectionItems(s.v, stored), computed...)
	return s.v + " {" + strings.Join(items, ", ") + "}", nil
}

package handwritten

import (
	"fmt"

	"github.com/ragforge/ragforge/planner"
)

// quietDepartures is the fewest departures the pinned airport of the
// nested pins has: a few, so the answer is not empty, and far fewer than
// a hub's, so starting from the pin is what a person would do.
const quietDepartures = 3

// airlineProps is what ragforge returns of an Airline by default, strings
// cut as scopeProps says.
const airlineProps = "n {name: left(n.name, 501), country: left(n.country, 501)}"

// pinnedWorkloads are issue 31's nested pins and aggregates on the
// airline graph (item 6). pin2_airlines is a relationship test nested in
// another whose innermost conditions pin an entity by its unique field,
// which ragforge starts from (planner's builder.walk) where EXISTS in
// EXISTS would be tested on every entity of the label; at is the airport
// it names (g.quiet). pinagg_airlines is a pinned aggregate along a path
// (aggregate_entities' over.path, grouped by a field of the far end): the
// flights per airline departing busy, an airport pinned by its unique
// code, from which both sides start; pinagg_last asks it from the
// airlines, the airport pinned in the path's last hop, which ragforge
// matches from the pin (planner's pinnedPath). rank_departures and rank_delay rank
// every airport by an aggregate of its departing flights (query_entities'
// aggregate test and order_by of its key): the count, and the average
// delay (null, so last, for an airport without departures).
func pinnedWorkloads(at, busy Airport) []Workload {
	return []Workload{{
		Key: "pin2_airlines", Name: fmt.Sprintf("airlines flying a flight FROM %s (two-hop pin, nested relationship test)", at.Code),
		Call: call(planner.QueryEntities, map[string]any{"entity_type": "Airline", "conditions": []any{
			map[string]any{"via": "OPERATED_BY", "direction": "incoming", "entity": "Flight", "conditions": []any{
				map[string]any{"via": "FROM", "entity": "Airport", "conditions": []any{map[string]any{"field": "code", "operator": "=", "value": at.Code}}},
			}},
		}, "limit": Limit}),
		Hand: `MATCH (:Airport {code: $code})<-[:FROM]-(:Flight)-[:OPERATED_BY]->(n:Airline)
WITH DISTINCT n
RETURN n.code AS id, ` + airlineProps + ` AS properties
ORDER BY n.code LIMIT $limit`,
		HandParams: map[string]any{"code": at.Code, "limit": Limit},
		Cols:       []string{"id"},
	}, {
		Key: "pinagg_airlines", Name: fmt.Sprintf("flights per airline departing %s, top 10 (aggregate along a two-hop path from a pin)", busy.Code),
		Call: call(planner.AggregateEntities, map[string]any{"entity_type": "Airport", "operation": "COUNT",
			"conditions": []any{map[string]any{"field": "code", "operator": "=", "value": busy.Code}},
			"over": map[string]any{"path": []any{
				map[string]any{"via": "FROM", "direction": "incoming", "entity": "Flight"},
				map[string]any{"via": "OPERATED_BY", "entity": "Airline"},
			}, "group_by_related": "code", "each": "relationship"}, "limit": 10}),
		Hand: `MATCH (:Airport {code: $code})<-[:FROM]-(:Flight)-[:OPERATED_BY]->(a:Airline)
RETURN a.code AS group, count(*) AS value
ORDER BY value DESC, group LIMIT 10`,
		HandParams: map[string]any{"code": busy.Code},
		Cols:       []string{"group", "value"},
	}, {
		Key: "pinagg_last", Name: fmt.Sprintf("flights per airline departing %s, top 10 (aggregate along a two-hop path pinned in its last hop)", busy.Code),
		Call: call(planner.AggregateEntities, map[string]any{"entity_type": "Airline", "operation": "COUNT", "group_by": "code",
			"over": map[string]any{"path": []any{
				map[string]any{"via": "OPERATED_BY", "direction": "incoming", "entity": "Flight"},
				map[string]any{"via": "FROM", "entity": "Airport", "conditions": []any{map[string]any{"field": "code", "operator": "=", "value": busy.Code}}},
			}, "each": "relationship"}, "limit": 10}),
		Hand: `MATCH (:Airport {code: $code})<-[:FROM]-(:Flight)-[:OPERATED_BY]->(a:Airline)
RETURN a.code AS group, count(*) AS value
ORDER BY value DESC, group LIMIT 10`,
		HandParams: map[string]any{"code": busy.Code},
		Cols:       []string{"group", "value"},
	},
		rankAirports("rank_departures", "airports by departing flights, most first (ranking by a related COUNT)",
			"COUNT", "count_FROM", "WITH n, COUNT { (n)<-[:FROM]-(:Flight) } AS v", "v DESC"),
		rankAirports("rank_delay", "airports by the average delay of their departing flights, highest first (ranking by a related AVG)",
			"AVG delay_minutes", "avg_FROM_delay_minutes", "OPTIONAL MATCH (n)<-[:FROM]-(f:Flight)\nWITH n, avg(f.delay_minutes) AS v", "v IS NULL, v DESC"),
	}
}

// rankAirports ranks every airport by aggregate of its departing flights,
// highest first, top Limit (query_entities' aggregate test, ordered by its
// key). By hand, value computes v per airport and order sorts on it (an
// AVG is null for an airport without departures, last, as ragforge puts
// it); ties go by code.
func rankAirports(key, name, aggregate, sortKey, value, order string) Workload {
	return Workload{
		Key: key, Name: name,
		Call: call(planner.QueryEntities, map[string]any{"entity_type": "Airport", "conditions": []any{
			map[string]any{"via": "FROM", "direction": "incoming", "entity": "Flight", "aggregate": aggregate},
		}, "order_by": []any{map[string]any{"field": sortKey, "direction": "DESC"}}, "limit": Limit}),
		Hand: "MATCH (n:Airport)\n" + value + "\nORDER BY " + order + ", n.code LIMIT $limit\n" +
			"RETURN n.code AS id, v AS " + sortKey + ", " + airportOf("n") + " AS properties\nORDER BY " + order + ", n.code",
		HandParams: map[string]any{"limit": Limit},
		Cols:       []string{"id", sortKey},
	}
}

// quiet returns the airport with the fewest departures, at least
// quietDepartures of them, first by code among ties.
func (g *Graph) quiet() Airport {
	departures := make([]int, len(g.Airports))
	for _, f := range g.Flights {
		departures[f.From]++
	}
	best := -1
	for i, n := range departures {
		if n >= quietDepartures && (best < 0 || n < departures[best] || n == departures[best] && g.Airports[i].Code < g.Airports[best].Code) {
			best = i
		}
	}
	if best < 0 {
		panic("handwritten: no airport of the generated graph has a few departures")
	}
	return g.Airports[best]
}

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

// pinnedWorkloads are issue 31's nested pins on the airline graph: a
// relationship test nested in another whose innermost conditions pin an
// entity by its unique field, which ragforge starts from (planner's
// builder.walk) where EXISTS in EXISTS would be tested on every entity of
// the label. at is the airport the pin names (g.quiet).
//
// Issue 31 item 6 also asks for a pinned aggregate along a path
// (aggregate_entities' over with several steps, branch pathagg) and a
// ranking by a related aggregate (query_entities' order_by of an
// aggregate, branch rankagg); their workloads belong here, beside
// pin2_airlines, once those forms exist.
func pinnedWorkloads(at Airport) []Workload {
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
	}}
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

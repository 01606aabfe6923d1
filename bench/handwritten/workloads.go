// Package handwritten measures ragforge's statements against the best
// Cypher a person would write for the same questions: for every workload,
// a ragforge tool call (run by engine.Execute, and its statement from
// engine.Plan run on the Go driver) and a hand-written statement, whose
// rows [Check] proves equal before [Measure] PROFILEs both (db hits) and
// times both. The workloads are the five code questions of bench/peers on
// the net/http fixture and the questions of [AirlineWorkloads] on a graph
// this package generates ([Generate]): airports with power-law route
// degrees, aircraft rotations as flights, datetimes, points and
// relationship properties. docs/performance.md holds the last measured table.
package handwritten

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ragforge/ragforge/bench/peers"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/planner"
)

// Graph names of a workload: which config's engine runs its call.
const (
	CodeGraph    = "code"
	AirlineGraph = "airline"
)

// Workload is one question asked both ways.
type Workload struct {
	// Key is a short name (table, metrics); Name says what is asked.
	Key, Name string
	// Graph is CodeGraph or AirlineGraph.
	Graph string
	// Call is ragforge's tool call.
	Call engine.Call
	// Hand and HandParams are the hand-written statement.
	Hand       string
	HandParams map[string]any
	// Cols are what the rows are compared on: columns of the hand-written
	// statement, and the same parts of ragforge's result (see rowValue).
	Cols []string
	// Unordered compares the rows as sets: the question has no order
	// (the shortest paths find_paths returns, all of one length).
	Unordered bool
}

// call builds a tool call from literal arguments.
func call(tool string, args map[string]any) engine.Call {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err) // the arguments are literals of this file
	}
	return engine.Call{Name: tool, Arguments: b}
}

// The hand-written projections return the fields ragforge returns by
// default (an explored target's labels too: explore_relationships returns
// them, since it may reach several types) and cut every string field at
// 501 characters, as ragforge's
// statements do (engine.DefaultMaxString + 1, the text_cut parameter), so
// neither sends more text than the other, whatever the data holds; the
// cut reads the property in the projection, which PROFILE counts as db
// hits on both sides alike.
const scopeProps = "n {name: left(n.name, 501), .type, file: left(n.file, 501), signature: left(n.signature, 501), source: left(n.source, 501), .startLine, .endLine}"

// CodeWorkloads are bench/peers' five questions on the net/http fixture
// (peers.Workloads, the same calls), each with the statement a person
// would write. ragforge runs them after peers.Prepare, which materializes
// and indexes Scope.line_count (the auto policy on 4,312 Scopes): the
// hand-written statements read that stored, indexed property as a person
// tuning the database would, so the comparison is with the best plan.
func CodeWorkloads() []Workload {
	p := peers.ParamsFor(peers.NetHTTP)
	hand := map[string]Workload{
		"top10": {Hand: `MATCH (n:Scope) WHERE n.line_count IS NOT NULL
RETURN n.uuid AS id, n.line_count AS line_count, left(n.name, 501) AS name, left(n.file, 501) AS file
ORDER BY n.line_count DESC, n.uuid LIMIT 10`, Cols: []string{"id", "line_count"}},
		"prefix": {Hand: `MATCH (n:Scope) WHERE n.name STARTS WITH $prefix
RETURN n.uuid AS id, ` + scopeProps + ` AS properties
ORDER BY n.uuid LIMIT $limit`, HandParams: map[string]any{"prefix": p.Prefix, "limit": peers.Limit}, Cols: []string{"id"}},
		"range": {Hand: `MATCH (n:Scope) WHERE n.line_count >= $low AND n.line_count <= $high
RETURN n.uuid AS id, n.line_count AS line_count, ` + scopeProps + ` AS properties
ORDER BY n.line_count, n.uuid LIMIT $limit`, HandParams: map[string]any{"low": p.Low, "high": p.High, "limit": peers.Limit}, Cols: []string{"id", "line_count"}},
		"byid": {Hand: `MATCH (n:File {path: $path})
RETURN n.path AS id, n {name: left(n.name, 501), extension: left(n.extension, 501), .language, .size, .lines} AS properties`, HandParams: map[string]any{"path": p.File}, Cols: []string{"id"}},
		"hop": {Hand: `MATCH (:File {path: $path})-[:CONTAINS]->(n:Scope)
RETURN n.uuid AS id, labels(n) AS labels, ` + scopeProps + ` AS properties
ORDER BY n.uuid LIMIT $limit`, HandParams: map[string]any{"path": p.File, "limit": peers.Limit}, Cols: []string{"id"}},
	}
	var out []Workload
	for _, w := range peers.Workloads(p) {
		h, ok := hand[w.Key]
		if !ok {
			panic("handwritten: no hand-written statement for bench/peers workload " + w.Key)
		}
		h.Key, h.Name, h.Graph, h.Call = w.Key, w.Name, CodeGraph, w.Call
		out = append(out, h)
	}
	return out
}

// The projections the hand-written airline statements return: the fields
// ragforge returns by default for each entity, strings cut as scopeProps
// says.
const (
	flightProps  = "n {number: left(n.number, 501), .departure, .arrival, .delay_minutes, .distance_km, .status, tail: left(n.tail, 501)}"
	airportProps = "{name: left(%[1]s.name, 501), city: left(%[1]s.city, 501), country: left(%[1]s.country, 501), location: %[1]s.location, elevation_m: %[1]s.elevation_m}"
	routeProps   = "r {.flights_per_week, .distance_km}"
)

func airportOf(v string) string { return fmt.Sprintf(airportProps, v) }

// Limit is the page size of the airline list workloads.
const Limit = 50

// AirlineWorkloads are the questions on the generated airline graph, with
// arguments chosen from g (its hubs, leaves and schedule) so that every
// answer is non-empty: date ranges, relationship tests, explore at depth
// 1–3 from a hub and from a leaf, shortest paths, aggregates with groups
// and a datetime bucket, distance, regex, number ranges, lookups by id.
func AirlineWorkloads(g *Graph) []Workload {
	hub, hub2 := g.hub(0), g.hub(1)
	leaf := g.leaf()
	far, farN := g.farLeaf(leaf)
	hubFar, hubFarN := g.farLeaf(hub)
	window := 2 * time.Hour
	if g.Scale == Small {
		window = 24 * time.Hour
	}
	from := Start.Add(48*time.Hour + 6*time.Hour)
	to := from.Add(window)
	day := Start.Add(48 * time.Hour)
	iso := func(t time.Time) string { return t.Format(time.RFC3339) }
	code := func(i int) string { return g.Airports[i].Code }
	flight := g.Flights[len(g.Flights)/3]
	busy := g.routeThreshold(hub)
	big := g.Airlines[0]
	low, high := g.distanceRange()
	h := g.Airports[hub]

	ws := []Workload{
		{
			Key: "dt_range", Name: fmt.Sprintf("flights departing %s to %s (datetime_range_search)", iso(from), iso(to)),
			Call: call(planner.DatetimeRangeSearch, map[string]any{"entity_type": "Flight", "field": "departure", "mode": "between",
				"start_datetime": iso(from), "end_datetime": iso(to), "limit": Limit}),
			Hand: `MATCH (n:Flight) WHERE n.departure >= $from AND n.departure <= $to
RETURN n.id AS id, n.departure AS departure, ` + flightProps + ` AS properties
ORDER BY n.departure DESC, n.id LIMIT $limit`,
			HandParams: map[string]any{"from": from, "to": to, "limit": Limit},
			Cols:       []string{"id", "departure"},
		},
		{
			Key: "dt_late", Name: "flights departing in the window, 30+ minutes late, by departure (query_entities)",
			Call: call(planner.QueryEntities, map[string]any{"entity_type": "Flight", "conditions": []any{
				map[string]any{"field": "departure", "operator": ">=", "value": iso(from)},
				map[string]any{"field": "departure", "operator": "<=", "value": iso(to)},
				map[string]any{"field": "delay_minutes", "operator": ">=", "value": 30},
			}, "order_by": map[string]any{"field": "departure", "direction": "ASC"}, "limit": Limit}),
			Hand: `MATCH (n:Flight) WHERE n.departure >= $from AND n.departure <= $to AND n.delay_minutes >= 30
RETURN n.id AS id, n.departure AS departure, n.delay_minutes AS delay_minutes, ` + flightProps + ` AS properties
ORDER BY n.departure, n.id LIMIT $limit`,
			HandParams: map[string]any{"from": from, "to": to, "limit": Limit},
			Cols:       []string{"id", "departure", "delay_minutes"},
		},
		{
			Key: "from_hub", Name: fmt.Sprintf("first flights FROM hub %s (relationship test)", h.Code),
			Call: call(planner.QueryEntities, map[string]any{"entity_type": "Flight", "conditions": []any{
				map[string]any{"via": "FROM", "entity": "Airport", "conditions": []any{map[string]any{"field": "code", "operator": "=", "value": h.Code}}},
			}, "order_by": map[string]any{"field": "departure", "direction": "ASC"}, "limit": Limit}),
			// A hub has a fifth of all flights: walking the departure
			// index in order and testing each flight's FROM finds the
			// first 50 after a few hundred (1,734 db hits at full scale)
			// where expanding the hub's 20,000 flights and sorting them
			// costs 40,850.
			Hand: `MATCH (n:Flight) WHERE n.departure IS NOT NULL AND EXISTS { (n)-[:FROM]->(:Airport {code: $code}) }
RETURN n.id AS id, n.departure AS departure, ` + flightProps + ` AS properties
ORDER BY n.departure, n.id LIMIT $limit`,
			HandParams: map[string]any{"code": h.Code, "limit": Limit},
			Cols:       []string{"id", "departure"},
		},
		{
			Key: "from_to", Name: fmt.Sprintf("first flights FROM %s TO %s (two relationship tests)", h.Code, code(hub2)),
			Call: call(planner.QueryEntities, map[string]any{"entity_type": "Flight", "conditions": []any{
				map[string]any{"via": "FROM", "entity": "Airport", "conditions": []any{map[string]any{"field": "code", "operator": "=", "value": h.Code}}},
				map[string]any{"via": "TO", "entity": "Airport", "conditions": []any{map[string]any{"field": "code", "operator": "=", "value": code(hub2)}}},
			}, "order_by": map[string]any{"field": "departure", "direction": "ASC"}, "limit": Limit}),
			Hand: `MATCH (:Airport {code: $from})<-[:FROM]-(n:Flight)-[:TO]->(:Airport {code: $to})
RETURN n.id AS id, n.departure AS departure, ` + flightProps + ` AS properties
ORDER BY n.departure, n.id LIMIT $limit`,
			HandParams: map[string]any{"from": h.Code, "to": code(hub2), "limit": Limit},
			Cols:       []string{"id", "departure"},
		},
		{
			Key: "late_from_hub", Name: fmt.Sprintf("flights FROM %s on %s an hour or more late, latest first (relationship, datetime and number)", h.Code, day.Format(time.DateOnly)),
			Call: call(planner.QueryEntities, map[string]any{"entity_type": "Flight", "conditions": []any{
				map[string]any{"via": "FROM", "entity": "Airport", "conditions": []any{map[string]any{"field": "code", "operator": "=", "value": h.Code}}},
				map[string]any{"field": "departure", "operator": ">=", "value": iso(day)},
				map[string]any{"field": "departure", "operator": "<", "value": iso(day.Add(24 * time.Hour))},
				map[string]any{"field": "delay_minutes", "operator": ">=", "value": 60},
			}, "order_by": map[string]any{"field": "delay_minutes", "direction": "DESC"}, "limit": Limit}),
			// The day's departures (a range seek), then the delay and the
			// FROM test: 8,385 db hits at full scale where starting from
			// the hub's 20,000 flights costs 21,389.
			Hand: `MATCH (n:Flight)
WHERE n.departure >= $from AND n.departure < $to AND n.delay_minutes >= 60 AND EXISTS { (n)-[:FROM]->(:Airport {code: $code}) }
RETURN n.id AS id, n.delay_minutes AS delay_minutes, ` + flightProps + ` AS properties
ORDER BY n.delay_minutes DESC, n.id LIMIT $limit`,
			HandParams: map[string]any{"code": h.Code, "from": day, "to": day.Add(24 * time.Hour), "limit": Limit},
			Cols:       []string{"id", "delay_minutes"},
		},
		{
			Key: "busy_routes", Name: fmt.Sprintf("airports with a ROUTE to %s of %d+ flights a week (relationship property)", h.Code, busy),
			Call: call(planner.QueryEntities, map[string]any{"entity_type": "Airport", "conditions": []any{
				map[string]any{"via": "ROUTE", "direction": "outgoing", "entity": "Airport",
					"conditions":              []any{map[string]any{"field": "code", "operator": "=", "value": h.Code}},
					"relationship_conditions": []any{map[string]any{"field": "flights_per_week", "operator": ">=", "value": busy}}},
			}, "limit": Limit}),
			Hand: `MATCH (n:Airport)-[r:ROUTE]->(:Airport {code: $code}) WHERE r.flights_per_week >= $busy
RETURN n.code AS id, ` + airportOf("n") + ` AS properties
ORDER BY n.code LIMIT $limit`,
			HandParams: map[string]any{"code": h.Code, "busy": busy, "limit": Limit},
			Cols:       []string{"id"},
		},
	}
	for _, s := range []struct {
		key, what string
		at        int
	}{{"hub", "hub", hub}, {"leaf", "leaf", leaf}} {
		for depth := 1; depth <= 3; depth++ {
			ws = append(ws, exploreRoutes(fmt.Sprintf("explore_%s_%d", s.key, depth), s.what, code(s.at), depth))
		}
	}
	ws = append(ws,
		Workload{
			Key: "next_legs", Name: fmt.Sprintf("the next three legs of flight %s's aircraft (explore NEXT, depth 3)", flight.ID),
			Call: call(planner.ExploreRelationships, map[string]any{"start_entity_type": "Flight",
				"start_conditions":  []any{map[string]any{"field": "id", "operator": "=", "value": flight.ID}},
				"relationship_type": "NEXT", "direction": "outgoing", "depth": 3, "limit": Limit}),
			Hand: `MATCH (s:Flight) WHERE s.id = $flight
MATCH p = (s)-[:NEXT*1..3]->(n:Flight)
RETURN n.id AS id, labels(n) AS labels, length(p) AS depth, [r IN relationships(p) | r {.turnaround_minutes}] AS path, ` + flightProps + ` AS properties
ORDER BY depth, id LIMIT $limit`,
			// Written {id: $id}, the start is found by an index scan and a
			// filter (1,800 db hits at the small scale) rather than the
			// unique seek; as WHERE on another parameter it is the seek.
			HandParams: map[string]any{"flight": flight.ID, "limit": Limit},
			Cols:       []string{"id", "depth"},
		},
		findPaths("paths_leaf_leaf", code(leaf), code(far), farN),
		findPaths("paths_hub_leaf", code(hub), code(hubFar), hubFarN),
		Workload{
			Key: "agg_day", Name: "flights per departure day, busiest first (aggregate, datetime bucket)",
			Call: call(planner.AggregateEntities, map[string]any{"entity_type": "Flight", "operation": "COUNT",
				"group_by": "departure", "bucket": "day"}),
			Hand: `MATCH (n:Flight)
RETURN toString(date(n.departure)) AS group, count(*) AS value
ORDER BY value DESC, group LIMIT 10`,
			Cols: []string{"group", "value"},
		},
		Workload{
			Key: "agg_status", Name: "average delay per status (aggregate, group_by)",
			Call: call(planner.AggregateEntities, map[string]any{"entity_type": "Flight", "operation": "AVG", "field": "delay_minutes",
				"group_by": "status"}),
			Hand: `MATCH (n:Flight)
RETURN n.status AS group, avg(n.delay_minutes) AS value, count(n.delay_minutes) AS count
ORDER BY value DESC, group LIMIT 10`,
			Cols: []string{"group", "value", "count"},
		},
		Workload{
			Key: "agg_country", Name: "airports per country, top 10 (aggregate, group_by)",
			Call: call(planner.AggregateEntities, map[string]any{"entity_type": "Airport", "operation": "COUNT",
				"group_by": "country", "limit": 10}),
			Hand: `MATCH (n:Airport)
RETURN n.country AS group, count(*) AS value
ORDER BY value DESC, group LIMIT 10`,
			Cols: []string{"group", "value"},
		},
		Workload{
			Key: "distance", Name: fmt.Sprintf("airports within 800 km of %s, nearest first (distance_search)", h.Code),
			Call: call(planner.DistanceSearch, map[string]any{"entity_type": "Airport", "field": "location",
				"latitude": h.Lat, "longitude": h.Lon, "radius_km": 800, "limit": 20}),
			Hand: `WITH point({latitude: $lat, longitude: $lon}) AS here
MATCH (n:Airport) WHERE point.distance(n.location, here) <= $radius
WITH n, point.distance(n.location, here) AS d
RETURN n.code AS id, d / 1000.0 AS distance_km, ` + airportOf("n") + ` AS properties
ORDER BY d, n.code LIMIT 20`,
			HandParams: map[string]any{"lat": h.Lat, "lon": h.Lon, "radius": 800_000.0},
			Cols:       []string{"id", "distance_km"},
		},
		Workload{
			Key: "regex_number", Name: fmt.Sprintf("flights numbered %s1 followed by two digits (regex, literal prefix)", big.Code),
			Call: call(planner.TextPatternSearch, map[string]any{"entity_type": "Flight", "field": "number",
				"pattern": big.Code + "1[0-9]{2}", "mode": "regex", "case_sensitive": true, "limit": Limit}),
			Hand: `MATCH (n:Flight) WHERE n.number STARTS WITH $prefix AND n.number =~ $re
RETURN n.id AS id, ` + flightProps + ` AS properties
ORDER BY n.id LIMIT $limit`,
			HandParams: map[string]any{"prefix": big.Code + "1", "re": big.Code + "1[0-9]{2}", "limit": Limit},
			Cols:       []string{"id"},
		},
		Workload{
			Key: "regex_name", Name: "airports named like .*(regional|municipal).*, any case (regex, no literal)",
			Call: call(planner.TextPatternSearch, map[string]any{"entity_type": "Airport", "field": "name",
				"pattern": ".*(regional|municipal).*", "mode": "regex", "case_sensitive": false, "limit": Limit}),
			Hand: `MATCH (n:Airport) WHERE n.name =~ '(?i).*(regional|municipal).*'
RETURN n.code AS id, ` + airportOf("n") + ` AS properties
ORDER BY n.code LIMIT $limit`,
			HandParams: map[string]any{"limit": Limit},
			Cols:       []string{"id"},
		},
		Workload{
			Key: "top_delay", Name: "the 20 most delayed flights (number_range_search, desc)",
			Call: call(planner.NumberRangeSearch, map[string]any{"entity_type": "Flight", "field": "delay_minutes",
				"operator": "gte", "value": 0, "order": "desc", "limit": 20}),
			Hand: `MATCH (n:Flight) WHERE n.delay_minutes >= 0
RETURN n.id AS id, n.delay_minutes AS delay_minutes, ` + flightProps + ` AS properties
ORDER BY n.delay_minutes DESC, n.id LIMIT 20`,
			Cols: []string{"id", "delay_minutes"},
		},
		Workload{
			Key: "distance_between", Name: fmt.Sprintf("flights of %d to %d km, shortest first (number_range_search, between)", low, high),
			Call: call(planner.NumberRangeSearch, map[string]any{"entity_type": "Flight", "field": "distance_km",
				"operator": "between", "value": low, "upper_value": high, "order": "asc", "limit": Limit}),
			Hand: `MATCH (n:Flight) WHERE n.distance_km >= $low AND n.distance_km <= $high
RETURN n.id AS id, n.distance_km AS distance_km, ` + flightProps + ` AS properties
ORDER BY n.distance_km, n.id LIMIT $limit`,
			HandParams: map[string]any{"low": low, "high": high, "limit": Limit},
			Cols:       []string{"id", "distance_km"},
		},
		Workload{
			Key: "byid_flight", Name: fmt.Sprintf("flight %s (get_entity_by_id)", flight.ID),
			Call: call(planner.GetEntityByID, map[string]any{"entity_type": "Flight", "id_value": flight.ID}),
			Hand: `MATCH (n:Flight {id: $id})
RETURN n.id AS id, n.number AS number, ` + flightProps + ` AS properties`,
			HandParams: map[string]any{"id": flight.ID},
			Cols:       []string{"id", "number"},
		},
		Workload{
			Key: "byid_airport", Name: fmt.Sprintf("airport %s (get_entity_by_id)", h.Code),
			Call: call(planner.GetEntityByID, map[string]any{"entity_type": "Airport", "id_value": h.Code}),
			Hand: `MATCH (n:Airport {code: $code})
RETURN n.code AS id, n.name AS name, ` + airportOf("n") + ` AS properties`,
			HandParams: map[string]any{"code": h.Code},
			Cols:       []string{"id", "name"},
		},
		Workload{
			Key: "enum_diverted", Name: "diverted flights (enum_filter_search)",
			Call: call(planner.EnumFilterSearch, map[string]any{"entity_type": "Flight", "field": "status", "values": []string{"diverted"}, "limit": Limit}),
			Hand: `MATCH (n:Flight) WHERE n.status = 'diverted'
RETURN n.id AS id, n.status AS status, ` + flightProps + ` AS properties
ORDER BY n.id LIMIT $limit`,
			HandParams: map[string]any{"limit": Limit},
			Cols:       []string{"id", "status"},
		},
	)
	ws = append(ws, pinnedWorkloads(g.quiet(), g.Airports[hub2])...)
	for i := range ws {
		ws[i].Graph = AirlineGraph
	}
	return ws
}

// exploreRoutes is explore_relationships over ROUTE from one airport at a
// depth. By hand, depth 1 is one expansion. Deeper, each airport once at
// its shortest depth is what min(length(p)) per airport asks, which Neo4j
// plans as a pruning breadth-first expand (VarLengthExpand(Pruning,BFS)):
// no path is enumerated twice. One shortest path to each airport of the
// page (ragforge returns one) is then a shortestPath per row.
func exploreRoutes(key, what, code string, depth int) Workload {
	w := Workload{
		Key: key, Name: fmt.Sprintf("airports within %d ROUTE hop%s of %s %s (explore_relationships)", depth, map[bool]string{true: "s"}[depth > 1], what, code),
		Call: call(planner.ExploreRelationships, map[string]any{"start_entity_type": "Airport",
			"start_conditions":  []any{map[string]any{"field": "code", "operator": "=", "value": code}},
			"relationship_type": "ROUTE", "direction": "outgoing", "depth": depth, "limit": Limit}),
		HandParams: map[string]any{"code": code, "limit": Limit},
		Cols:       []string{"id", "depth"},
	}
	if depth == 1 {
		w.Hand = `MATCH (:Airport {code: $code})-[r:ROUTE]->(t:Airport)
RETURN t.code AS id, labels(t) AS labels, 1 AS depth, ` + routeProps + ` AS relationship, ` + airportOf("t") + ` AS properties
ORDER BY id LIMIT $limit`
		return w
	}
	w.Hand = fmt.Sprintf(`MATCH (n:Airport {code: $code})
MATCH p = (n)-[:ROUTE*1..%[1]d]->(t:Airport) WHERE t <> n
WITH n, t, min(length(p)) AS depth
ORDER BY depth, t.code LIMIT $limit
MATCH q = shortestPath((n)-[:ROUTE*1..%[1]d]->(t))
RETURN t.code AS id, labels(t) AS labels, depth, [r IN relationships(q) | %[2]s] AS path, %[3]s AS properties
ORDER BY depth, id`, depth, routeProps, airportOf("t"))
	return w
}

// findPaths is find_paths between two airports over ROUTE, every shortest
// path; n is how many there are, at most the call's limit so that both
// sides return them all.
func findPaths(key, from, to string, n int) Workload {
	return Workload{
		Key: key, Name: fmt.Sprintf("all shortest ROUTE paths %s → %s (%d, find_paths)", from, to, n),
		Call: call(planner.FindPaths, map[string]any{"from_entity_type": "Airport", "from_id": from, "to_entity_type": "Airport", "to_id": to,
			"relationship_types": []string{"ROUTE"}, "direction": "outgoing", "all": true, "max_length": 6, "limit": maxPaths}),
		Hand: `MATCH (a:Airport {code: $from}), (b:Airport {code: $to})
MATCH p = allShortestPaths((a)-[:ROUTE*1..6]->(b))
RETURN [x IN nodes(p) | x.code] AS node_ids, [x IN nodes(p) | ` + airportOf("x") + `] AS nodes,
  [r IN relationships(p) | ` + routeProps + `] AS relationships, length(p) AS length`,
		HandParams: map[string]any{"from": from, "to": to},
		Cols:       []string{"node_ids", "length"},
		Unordered:  true,
	}
}

// maxPaths is find_paths' limit in the workloads; the airports are chosen
// with at most this many shortest paths between them.
const maxPaths = 10

// hub returns the airport with the rank-th most routes (ties by code).
func (g *Graph) hub(rank int) int {
	idx := make([]int, len(g.Airports))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := len(g.out[b]) - len(g.out[a]); c != 0 {
			return c
		}
		return strings.Compare(g.Airports[a].Code, g.Airports[b].Code)
	})
	return idx[rank]
}

// leaf returns the airport with one route whose code comes first.
func (g *Graph) leaf() int {
	best := -1
	for i, a := range g.Airports {
		if len(g.out[i]) == 1 && (best < 0 || a.Code < g.Airports[best].Code) {
			best = i
		}
	}
	if best < 0 {
		panic("handwritten: the generated graph has no airport with one route")
	}
	return best
}

// farLeaf returns the airport with one route, first by code, that is at
// least three ROUTE hops from start (or as far as any is) and has at most
// maxPaths shortest paths from it, with that number of paths.
func (g *Graph) farLeaf(start int) (int, int) {
	dist, count := g.bfs(start)
	best, bestD := -1, 0
	for i, a := range g.Airports {
		if i == start || len(g.out[i]) != 1 || dist[i] < 0 || count[i] > maxPaths {
			continue
		}
		d := min(dist[i], 3)
		if best < 0 || d > bestD || d == bestD && a.Code < g.Airports[best].Code {
			best, bestD = i, d
		}
	}
	if best < 0 {
		panic("handwritten: no leaf airport reachable from " + g.Airports[start].Code)
	}
	return best, count[best]
}

// bfs returns each airport's ROUTE distance from start (-1 unreachable)
// and its number of shortest paths from start.
func (g *Graph) bfs(start int) (dist, count []int) {
	dist = make([]int, len(g.Airports))
	count = make([]int, len(g.Airports))
	for i := range dist {
		dist[i] = -1
	}
	dist[start], count[start] = 0, 1
	queue := []int{start}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, ri := range g.out[a] {
			b := g.Routes[ri].To
			switch {
			case dist[b] < 0:
				dist[b], count[b] = dist[a]+1, count[a]
				queue = append(queue, b)
			case dist[b] == dist[a]+1:
				count[b] += count[a]
			}
		}
	}
	return dist, count
}

// routeThreshold returns the median weekly flights of the routes into
// airport a: about half of them pass the busy_routes test.
func (g *Graph) routeThreshold(a int) int64 {
	var fs []int64
	for _, rt := range g.Routes {
		if rt.To == a {
			fs = append(fs, rt.FlightsPerWeek)
		}
	}
	slices.Sort(fs)
	return fs[len(fs)/2]
}

// distanceRange returns a band of flight distances, whole hundreds of km
// from the 60th percentile up, wide enough to hold more flights than a
// page, so the order and the limit matter.
func (g *Graph) distanceRange() (low, high int) {
	ds := make([]float64, len(g.Flights))
	for i, f := range g.Flights {
		ds[i] = f.DistanceKm
	}
	slices.Sort(ds)
	low = int(ds[len(ds)*6/10]) / 100 * 100
	high = low + 100
	for {
		n := 0
		for _, d := range ds {
			if d >= float64(low) && d <= float64(high) {
				n++
			}
		}
		if n > Limit || float64(high) > ds[len(ds)-1] {
			return low, high
		}
		high += 100
	}
}

package handwritten

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// batchSize is the rows per UNWIND statement, as fixture.DefaultBatchSize
// measured for the code graph.
const batchSize = 5000

// Load writes g into an empty database, in batched UNWIND statements of
// batchSize rows, each its own write transaction (far below the server's
// per-transaction memory limit). It matches airports, airlines and
// flights by their unique fields, so the caller creates the uniqueness
// constraints first (schemaapply, from the config): without them every
// relationship batch would scan a label. It ends with every index
// resampled and the plan cache cleared. It returns the time taken.
func Load(ctx context.Context, d neo4j.DriverWithContext, db string, g *Graph, progress io.Writer) (time.Duration, error) {
	start := time.Now()
	s := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: db, AccessMode: neo4j.AccessModeWrite})
	defer s.Close(ctx)
	type phase struct {
		what, cypher string
		n            int
		row          func(i int) map[string]any
	}
	var codeshares, nexts [][2]int // flight, index of its codeshare or its next leg
	for i, f := range g.Flights {
		for j := range f.Codeshares {
			codeshares = append(codeshares, [2]int{i, j})
		}
		if f.Next >= 0 {
			nexts = append(nexts, [2]int{i, f.Next})
		}
	}
	phases := []phase{
		{"Airport nodes", `UNWIND $rows AS r
CREATE (:Airport {code: r.code, name: r.name, city: r.city, country: r.country,
  location: point({latitude: r.lat, longitude: r.lon}), elevation_m: r.elevation})`, len(g.Airports), func(i int) map[string]any {
			a := g.Airports[i]
			return map[string]any{"code": a.Code, "name": a.Name, "city": a.City, "country": a.Country, "lat": a.Lat, "lon": a.Lon, "elevation": a.ElevationM}
		}},
		{"Airline nodes", `UNWIND $rows AS r CREATE (:Airline {code: r.code, name: r.name, country: r.country})`, len(g.Airlines), func(i int) map[string]any {
			l := g.Airlines[i]
			return map[string]any{"code": l.Code, "name": l.Name, "country": l.Country}
		}},
		{"ROUTE relationships", `UNWIND $rows AS r
MATCH (a:Airport {code: r.from}) MATCH (b:Airport {code: r.to})
CREATE (a)-[:ROUTE {flights_per_week: r.fpw, distance_km: r.km}]->(b)`, len(g.Routes), func(i int) map[string]any {
			rt := g.Routes[i]
			return map[string]any{"from": g.Airports[rt.From].Code, "to": g.Airports[rt.To].Code, "fpw": rt.FlightsPerWeek, "km": rt.DistanceKm}
		}},
		{"Flight nodes with FROM, TO, OPERATED_BY", `UNWIND $rows AS r
MATCH (a:Airport {code: r.from}) MATCH (b:Airport {code: r.to}) MATCH (l:Airline {code: r.airline})
CREATE (f:Flight {id: r.id, number: r.number, tail: r.tail, departure: r.departure, arrival: r.arrival,
  delay_minutes: r.delay, distance_km: r.km, status: r.status})
CREATE (f)-[:FROM]->(a), (f)-[:TO]->(b), (f)-[:OPERATED_BY]->(l)`, len(g.Flights), func(i int) map[string]any {
			f := g.Flights[i]
			var dl any
			if f.DelayMinutes != nil {
				dl = *f.DelayMinutes
			}
			return map[string]any{"id": f.ID, "number": f.Number, "tail": f.Tail, "departure": f.Departure, "arrival": f.Arrival,
				"delay": dl, "km": f.DistanceKm, "status": f.Status,
				"from": g.Airports[f.From].Code, "to": g.Airports[f.To].Code, "airline": g.Airlines[f.Airline].Code}
		}},
		{"MARKETED_BY relationships", `UNWIND $rows AS r
MATCH (f:Flight {id: r.flight}) MATCH (l:Airline {code: r.airline})
CREATE (f)-[:MARKETED_BY {flight_number: r.number}]->(l)`, len(codeshares), func(i int) map[string]any {
			f := g.Flights[codeshares[i][0]]
			c := f.Codeshares[codeshares[i][1]]
			return map[string]any{"flight": f.ID, "airline": g.Airlines[c.Airline].Code, "number": c.FlightNumber}
		}},
		{"NEXT relationships", `UNWIND $rows AS r
MATCH (f:Flight {id: r.from}) MATCH (n:Flight {id: r.to})
CREATE (f)-[:NEXT {turnaround_minutes: r.turn}]->(n)`, len(nexts), func(i int) map[string]any {
			f := g.Flights[nexts[i][0]]
			return map[string]any{"from": f.ID, "to": g.Flights[nexts[i][1]].ID, "turn": f.Turnaround}
		}},
	}
	for _, p := range phases {
		t := time.Now()
		for lo := 0; lo < p.n; lo += batchSize {
			hi := min(lo+batchSize, p.n)
			rows := make([]any, 0, hi-lo)
			for i := lo; i < hi; i++ {
				rows = append(rows, p.row(i))
			}
			_, err := s.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
				res, err := tx.Run(ctx, p.cypher, map[string]any{"rows": rows})
				if err != nil {
					return nil, err
				}
				return res.Consume(ctx)
			})
			if err != nil {
				return time.Since(start), fmt.Errorf("loading %s, rows %d-%d: %w", p.what, lo, hi, err)
			}
		}
		if progress != nil {
			fmt.Fprintf(progress, "handwritten: %s: %d in %.1fs\n", p.what, p.n, time.Since(t).Seconds())
		}
	}
	// The indexes were created on an empty graph: their samples (the
	// planner's estimate of each index's selectivity) are stale until a
	// background resample, whose timing differs from machine to machine,
	// and plans cached for another graph would outlive the load. Both
	// decide which index a statement seeks, so a measurement is only
	// reproducible once every index is resampled and the plan cache
	// cleared.
	res, err := s.Run(ctx, "CALL db.prepareForReplanning()", nil)
	if err == nil {
		_, err = res.Consume(ctx)
	}
	if err != nil {
		return time.Since(start), fmt.Errorf("resampling the indexes: %w", err)
	}
	return time.Since(start), nil
}

package engine_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
)

// BenchmarkExecuteVsDriver measures, on the net/http fixture, each call
// through Execute (validate, plan, read transaction, shape) against the
// same statement and parameters run directly with the driver in a read
// transaction, records collected: the engine's overhead is the ratio of
// the two (reported as overhead_x on the execute sub-benchmark).
func BenchmarkExecuteVsDriver(b *testing.B) {
	f := loadNetHTTPB(b)
	ctx := context.Background()
	calls := []struct{ name, tool, args string }{
		{"query_entities/computed_order", planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"type","operator":"=","value":"function"}],"order_by":{"field":"line_count","direction":"DESC"},"limit":10}`},
		{"get_entity_by_id", planner.GetEntityByID, `{"entity_type":"File","id_value":"net/http/server.go"}`},
		{"text_pattern_search/starts_with", planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"Serve","mode":"starts_with","case_sensitive":true}`},
		{"text_pattern_search/regex", planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"Parse.*","mode":"regex","case_sensitive":true}`},
		{"number_range_search/between", planner.NumberRangeSearch, `{"entity_type":"File","field":"lines","operator":"between","value":100,"upper_value":200}`},
		{"explore_relationships", planner.ExploreRelationships, `{"start_entity_type":"File","start_conditions":[{"field":"path","operator":"=","value":"net/http/server.go"}],"relationship_type":"CONTAINS","limit":50}`},
		{"aggregate_entities", planner.AggregateEntities, `{"entity_type":"Scope","operation":"COUNT","group_by":"type"}`},
	}
	for _, c := range calls {
		call := engine.Call{Name: c.tool, Arguments: json.RawMessage(c.args)}
		st, err := f.e.Plan(ctx, call)
		if err != nil {
			b.Fatal(err)
		}
		// Warm both paths (Neo4j's query cache, the driver's connections)
		// so neither side pays first-run costs in its measurement.
		for range 20 {
			if _, err := f.e.Execute(ctx, call); err != nil {
				b.Fatal(err)
			}
		}
		var direct, through time.Duration
		b.Run(c.name+"/driver", func(b *testing.B) {
			sess := f.d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: neo4jtest.Database(), AccessMode: neo4j.AccessModeRead})
			defer sess.Close(ctx)
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				_, err := sess.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
					res, err := tx.Run(ctx, st.Cypher, st.Params)
					if err != nil {
						return nil, err
					}
					return res.Collect(ctx)
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			direct = time.Since(start) / time.Duration(b.N)
		})
		b.Run(c.name+"/execute", func(b *testing.B) {
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				if _, err := f.e.Execute(ctx, call); err != nil {
					b.Fatal(err)
				}
			}
			through = time.Since(start) / time.Duration(b.N)
			if direct > 0 {
				b.ReportMetric(float64(through)/float64(direct), "overhead_x")
			}
		})
	}
}

// loadNetHTTPB is loadNetHTTP for benchmarks.
func loadNetHTTPB(b *testing.B) *netHTTP { return loadNetHTTPTB(b, engine.Options{}) }

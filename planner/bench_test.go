package planner_test

import (
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// benchCalls are representative calls, one or more per tool and mode
// family, on the code-RAG config.
var benchCalls = []struct{ name, tool, args string }{
	{"query_entities/stored", planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"type","operator":"=","value":"function"},{"field":"file","operator":"STARTS WITH","value":"net/http/"}],"order_by":{"field":"name"}}`},
	{"query_entities/computed", planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"type","operator":"=","value":"function"}],"order_by":{"field":"line_count","direction":"DESC"},"limit":10}`},
	{"query_entities/cypher_field", planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"change_count","operator":">","value":0}],"fields":["name","age_days"]}`},
	{"get_entity_by_id", planner.GetEntityByID, `{"entity_type":"Scope","id_value":"abc"}`},
	{"explore_relationships", planner.ExploreRelationships, `{"start_entity_type":"File","start_conditions":[{"field":"path","operator":"=","value":"net/http/server.go"}],"relationship_type":"CONTAINS","depth":2}`},
	{"fulltext_search", planner.FulltextSearch, `{"entity_type":"Scope","query":"serve http handler","fuzzy":true}`},
	{"text_pattern_search/contains", planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"Header"}`},
	{"text_pattern_search/regex", planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"Parse[A-Z].*","mode":"regex","case_sensitive":true}`},
	{"text_pattern_search/glob", planner.TextPatternSearch, `{"entity_type":"File","field":"path","pattern":"**/internal/**/*_test.go","mode":"glob"}`},
	{"number_range_search/between", planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"between","value":40,"upper_value":60}`},
	{"number_range_search/percentile", planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"percentile"}`},
	{"number_range_search/histogram", planner.NumberRangeSearch, `{"entity_type":"File","field":"lines","operator":"histogram"}`},
	{"datetime_range_search/relative", planner.DatetimeRangeSearch, `{"entity_type":"Change","field":"timestamp","relative_period":"last_7_days"}`},
	{"enum_filter_search", planner.EnumFilterSearch, `{"entity_type":"Scope","field":"type","values":["function","method"]}`},
	{"aggregate_entities", planner.AggregateEntities, `{"entity_type":"Scope","operation":"AVG","field":"line_count","group_by":"type"}`},
	{"query_entities/relationship_tests", planner.QueryEntities, `{"entity_type":"File","conditions":[{"via":"CONTAINS","entity":"Scope","quantifier":"all","conditions":[{"field":"type","operator":"IN","value":["function","method"]}]},{"any_of":[{"field":"path","operator":"STARTS WITH","value":"net/","ignore_case":true},{"via":"CONTAINS","entity":"Scope","count":{"operator":">","value":10}}]}],"order_by":[{"field":"size","direction":"DESC"},{"field":"name"}]}`},
	{"aggregate_entities/over", planner.AggregateEntities, `{"entity_type":"File","operation":"AVG","field":"startLine","group_by":"language","over":{"via":"CONTAINS","entity":"Scope"}}`},
	{"find_paths", planner.FindPaths, `{"from_entity_type":"File","from_id":"net/http/server.go","to_entity_type":"Scope","to_id":"abc","all":true}`},
}

// BenchmarkPlan measures planning alone (arguments already parsed), per
// tool call: what the planner adds to every call before Neo4j sees it.
func BenchmarkPlan(b *testing.B) {
	f := newFixture(b, "code-rag.yaml", tools.Capabilities{FullText: true})
	for _, c := range benchCalls {
		args, err := f.cat.Parse(c.tool, json.RawMessage(c.args))
		if err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		call := planner.Call{Tool: c.tool, Args: args}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f.p.Plan(call, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseAndPlan measures validation (JSON Schema and model checks)
// plus planning, the whole offline cost of a call.
func BenchmarkParseAndPlan(b *testing.B) {
	f := newFixture(b, "code-rag.yaml", tools.Capabilities{FullText: true})
	for _, c := range benchCalls {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f.plan(c.tool, c.args, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

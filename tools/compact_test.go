package tools_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestParseRefusesWhatTheCompactSchemasLeaveUnsaid: the compact schemas
// no longer list field names, operators, IN-list item types, relative
// periods, datetime lengths, the number of sort keys or the lower bounds
// of counts (limit, offset, depth, …); Parse refuses
// each call those schema parts refused, at the argument's path, naming the
// valid choices where there are some.
func TestParseRefusesWhatTheCompactSchemasLeaveUnsaid(t *testing.T) {
	c := codeRAG(t, allOn)
	m := movies(t)
	for _, tc := range []struct {
		cat   *tools.Catalog
		tool  string
		args  string
		path  string
		valid []string
	}{
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"field":"nme","operator":"=","value":"x"}]}`, "/conditions/0/field", []string{"path", "name"}},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"field":"size","operator":"LIKE","value":1}]}`, "/conditions/0/operator", []string{">", "IN"}},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"field":"name","operator":"IN","value":["a",true]}]}`, "/conditions/0/value/1", nil},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"field":"name","operator":"IN","value":["a",{"b":1}]}]}`, "/conditions/0/value/1", nil},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"field":"name","operator":"IN","value":["a",["b"]]}]}`, "/conditions/0/value/1", nil},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"field":"name","operator":"=","value":null}]}`, "/conditions/0/value", nil},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"any_of":[{"field":"nme","operator":"=","value":"x"}]}]}`, "/conditions/0/any_of/0/field", []string{"path"}},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"any_of":[{"fieldd":"name"}]}]}`, "/conditions/0/any_of/0", []string{"field", "operator", "any_of"}},
		{c, planner.QueryEntities, `{"entity_type":"File","fields":["path","nme"]}`, "/fields/1", []string{"path", "name"}},
		{c, planner.QueryEntities, `{"entity_type":"File","order_by":{"field":"size","dir":"DESC"}}`, "/order_by/0", []string{"field", "direction"}},
		{c, planner.QueryEntities, `{"entity_type":"File","limit":0}`, "/limit", nil},
		{c, planner.QueryEntities, `{"entity_type":"File","limit":-1}`, "/limit", nil},
		{c, planner.QueryEntities, `{"entity_type":"File","offset":-1}`, "/offset", nil},
		{c, planner.ExploreRelationships, `{"start_entity_type":"File","relationship_types":["CONTAINS"],"depth":0}`, "/depth", nil},
		{c, planner.FindPaths, `{"from_entity_type":"File","from_id":"a","to_entity_type":"File","to_id":"b","max_length":0}`, "/max_length", nil},
		{c, planner.SemanticSearch, `{"entity_type":"Scope","query":"x","top_k":0}`, "/top_k", nil},
		{c, planner.NumberRangeSearch, `{"entity_type":"File","field":"size","operator":"histogram","buckets":0}`, "/buckets", nil},
		{c, planner.QueryEntities, `{"entity_type":"File","order_by":[{"field":"size"},{"field":"size"},{"field":"size"},{"field":"size"},{"field":"size"},{"field":"size"}]}`, "/order_by", nil},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"via":"CONTAINS","entity":"Change"}]}`, "/conditions/0/entity", []string{"Scope"}},
		{c, planner.QueryEntities, `{"entity_type":"File","conditions":[{"via":"CONTAINS","count":{"operator":"~","value":1}}]}`, "/conditions/0/count/operator", []string{">="}},
		{c, planner.ExploreRelationships, `{"start_entity_type":"File","relationship_type":"CALLZ"}`, "/relationship_types/0", []string{"CALLS"}},
		{c, planner.ExploreRelationships, `{"start_entity_type":"File","relationship_types":["CONTAINS","CALLZ"]}`, "/relationship_types/1", []string{"CALLS"}},
		{c, planner.ExploreRelationships, `{"start_entity_type":"File","relationship_types":["CONTAINS"],"start_conditions":[{"field":"size","operator":">","value":1,"via":"CONTAINS"}]}`, "/start_conditions/0", []string{"field", "ignore_case"}},
		{c, planner.FindPaths, `{"from_entity_type":"File","from_id":"a","to_entity_type":"File","to_id":"b","relationship_types":["IMPORTZ"]}`, "/relationship_types/0", []string{"IMPORTS"}},
		{c, planner.FindPaths, `{"from_entity_type":"File","from_id":"a","to_entity_type":"File","to_id":"b","relationship_type":"IMPORTS"}`, "", nil},
		{c, planner.EnumFilterSearch, `{"entity_type":"File","field":"language","values":["go","cobol"]}`, "/values/1", []string{"go", "python"}},
		{c, planner.TextPatternSearch, `{"entity_type":"File","field":"size","pattern":"x"}`, "/field", []string{"path", "name"}},
		{c, planner.DatetimeRangeSearch, `{"entity_type":"Change","field":"timestamp","mode":"relative","relative_period":"last_fortnight"}`, "/relative_period", nil},
		{c, planner.DatetimeRangeSearch, `{"entity_type":"Change","field":"timestamp","datetime":"` + strings.Repeat("2024-01-01", 10) + `"}`, "/datetime", nil},
		{c, planner.AggregateEntities, `{"entity_type":"File","operation":"AVG","field":"size","group_by":"lang"}`, "/group_by", []string{"language"}},
		{m, planner.QueryEntities, `{"entity_type":"Movie","conditions":[{"via":"REVIEWED","relationship_conditions":[{"via":"ACTED_IN"}]}]}`, "/conditions/0/relationship_conditions/0", nil},
		{m, planner.QueryEntities, `{"entity_type":"Movie","conditions":[{"via":"REVIEWED","relationship_conditions":[` + strings.TrimSuffix(strings.Repeat(`{"field":"rating","operator":">","value":1},`, 21), ",") + `]}]}`, "/conditions/0/relationship_conditions", nil},
	} {
		_, err := tc.cat.Parse(tc.tool, json.RawMessage(tc.args))
		if err == nil {
			t.Errorf("%s %s: accepted", tc.tool, tc.args)
			continue
		}
		if tc.path == "" {
			continue
		}
		wantProblem(t, err, tc.path, tc.valid...)
	}
}

// TestParseTakesTheOneItemFormsTheSchemasDoNotShow: the schemas show
// order_by and relationship_types as lists; Parse still takes one sort key
// and explore_relationships' relationship_type, as before.
func TestParseTakesTheOneItemFormsTheSchemasDoNotShow(t *testing.T) {
	c := codeRAG(t, tools.Options{})
	a, err := c.Parse(planner.ExploreRelationships, json.RawMessage(`{"start_entity_type":"Directory","relationship_type":"CONTAINS","relationship_types":["CONTAINS"],"target_entity_type":"File","order_by":{"field":"name"}}`))
	if err != nil {
		t.Fatal(err)
	}
	x := a.(*planner.ExploreRelationshipsArgs)
	if x.RelationshipType != "CONTAINS" || len(x.RelationshipTypes) != 1 || len(x.OrderBy) != 1 || x.OrderBy[0].Field != "name" {
		t.Errorf("parsed %+v", x)
	}
}

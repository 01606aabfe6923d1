package tools_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

func movies(t *testing.T) *tools.Catalog {
	t.Helper()
	c, err := planner.Generate(load(t, "../testdata/configs/valid/movies.yaml"), tools.Options{Aggregations: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestParseChecksRelationshipTestsAgainstWhatTheyReach: the fields of a
// relationship test are the related entity's stored fields, its
// relationship conditions the relationship's declared properties, each
// error listing the valid choices; direction and entity default to the
// only ones that fit.
func TestParseChecksRelationshipTestsAgainstWhatTheyReach(t *testing.T) {
	c := movies(t)
	parse := func(args string) (any, error) { return c.Parse(planner.QueryEntities, json.RawMessage(args)) }
	_, err := parse(`{"entity_type":"Movie","conditions":[{"via":"ACTED_IN","conditions":[{"field":"title","operator":"=","value":"x"}]}]}`)
	wantProblem(t, err, "/conditions/0/conditions/0/field", "name", "born")
	_, err = parse(`{"entity_type":"Movie","conditions":[{"via":"REVIEWED","relationship_conditions":[{"field":"stars","operator":">","value":3}]}]}`)
	wantProblem(t, err, "/conditions/0/relationship_conditions/0/field", "rating", "summary")
	_, err = parse(`{"entity_type":"Movie","conditions":[{"via":"FOLLOWS"}]}`)
	wantProblem(t, err, "/conditions/0/via", "ACTED_IN", "DIRECTED", "REVIEWED")
	_, err = parse(`{"entity_type":"Movie","conditions":[{"via":"ACTED_IN","direction":"outgoing"}]}`)
	wantProblem(t, err, "/conditions/0/direction", "incoming", "both")
	_, err = parse(`{"entity_type":"Movie","conditions":[{"not":[{"field":"released","operator":">","value":1,"ignore_case":true}]}]}`)
	wantProblem(t, err, "/conditions/0/not/0/ignore_case")
	_, err = parse(`{"entity_type":"Movie","conditions":[{"any_of":[]}]}`)
	wantProblem(t, err, "/conditions/0/any_of")
	_, err = parse(`{"entity_type":"Movie","conditions":[{"field":"title","operator":"=","value":"x","via":"ACTED_IN"}]}`)
	wantProblem(t, err, "/conditions/0")
	_, err = parse(`{"entity_type":"Person","conditions":[{"via":"ACTED_IN","quantifier":"all","count":{"operator":">","value":1}}]}`)
	wantProblem(t, err, "/conditions/0/count")

	got, err := parse(`{"entity_type":"Movie","conditions":[{"via":"ACTED_IN","conditions":[{"field":"born","operator":"<","value":1960}]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	cond := got.(*planner.QueryEntitiesArgs).Conditions[0]
	if cond.Direction != "incoming" || cond.Entity != "Person" || cond.Quantifier != "some" || cond.Conditions[0].Value != int64(1960) {
		t.Errorf("defaults and values not filled: %+v", cond)
	}
}

// TestParseTakesOrderByAsOneKeyOrAList keeps the older single-object form
// working next to the list.
func TestParseTakesOrderByAsOneKeyOrAList(t *testing.T) {
	c := movies(t)
	for args, want := range map[string][]string{
		`{"entity_type":"Movie","order_by":{"field":"released","direction":"DESC"}}`:      {"released DESC"},
		`{"entity_type":"Movie","order_by":[{"field":"released"},{"field":"age_years"}]}`: {"released ASC", "age_years ASC"},
	} {
		got, err := c.Parse(planner.QueryEntities, json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		var keys []string
		for _, k := range got.(*planner.QueryEntitiesArgs).OrderBy {
			keys = append(keys, k.Field+" "+k.Direction)
		}
		if !slices.Equal(keys, want) {
			t.Errorf("%s: got %v, want %v", args, keys, want)
		}
	}
	_, err := c.Parse(planner.QueryEntities, json.RawMessage(`{"entity_type":"Movie","order_by":[{"field":"born"}]}`))
	wantProblem(t, err, "/order_by/0/field", "title", "released")
}

// TestEveryToolReadsTheSameFieldsOfARelatedEntity: wherever a call reads
// a related entity (a relationship test, include, an aggregate test,
// aggregate_entities' over, explore's targets, query_relationships'
// ends) it may read Scope's computed expression field line_count, and a
// raw cypher computed field (change_count) is refused there naming the
// valid fields, line_count among them.
func TestEveryToolReadsTheSameFieldsOfARelatedEntity(t *testing.T) {
	c := codeRAG(t, tools.Options{Aggregations: true})
	for _, p := range []struct{ tool, args, at string }{
		{planner.QueryEntities, `{"entity_type":"File","conditions":[{"via":"CONTAINS","entity":"Scope","conditions":[{"field":"%s","operator":">","value":1}]}]}`, "/conditions/0/conditions/0/field"},
		{planner.QueryEntities, `{"entity_type":"File","include":[{"via":"CONTAINS","entity":"Scope","fields":["name","%s"]}]}`, "/include/0/fields/1"},
		{planner.QueryEntities, `{"entity_type":"File","conditions":[{"via":"CONTAINS","entity":"Scope","aggregate":"SUM %s","operator":">","value":1}]}`, "/conditions/0/aggregate"},
		{planner.AggregateEntities, `{"entity_type":"File","operation":"SUM","field":"%s","over":{"via":"CONTAINS","entity":"Scope"}}`, "/field"},
		{planner.AggregateEntities, `{"entity_type":"File","operation":"COUNT","over":{"via":"CONTAINS","entity":"Scope","group_by_related":"%s"}}`, "/over/group_by_related"},
		{planner.ExploreRelationships, `{"start_entity_type":"File","relationship_type":"CONTAINS","target_entity_type":"Scope","target_conditions":[{"field":"%s","operator":">","value":1}]}`, "/target_conditions/0/field"},
		{planner.ExploreRelationships, `{"start_entity_type":"File","relationship_type":"CONTAINS","target_entity_type":"Scope","order_by":[{"field":"%s"}]}`, "/order_by/0/field"},
		{planner.QueryRelationships, `{"relationship_type":"HAS_CHANGE","from_entity_type":"Scope","from_conditions":[{"field":"%s","operator":">","value":1}]}`, "/from_conditions/0/field"},
	} {
		if _, err := c.Parse(p.tool, json.RawMessage(fmt.Sprintf(p.args, "line_count"))); err != nil {
			t.Errorf("%s with line_count: %v", p.tool, err)
		}
		_, err := c.Parse(p.tool, json.RawMessage(fmt.Sprintf(p.args, "change_count")))
		if pr := wantProblem(t, err, p.at, "line_count", "startLine"); slices.Contains(pr.Valid, "change_count") {
			t.Errorf("%s at %s: a cypher computed field offered: %v", p.tool, p.at, pr.Valid)
		}
	}
}

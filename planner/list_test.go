package planner_test

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestListFieldsRefuseScalarUseWithPositionedErrors: a list compared as
// one value, given a value of the wrong element type, sorted or grouped
// by is a call error at the argument's pointer that says what the list
// takes.
func TestListFieldsRefuseScalarUseWithPositionedErrors(t *testing.T) {
	f := newFixture(t, "lists.yaml", tools.Capabilities{})
	for _, c := range []struct{ tool, args, want string }{
		{planner.QueryEntities, `{"entity_type":"Person","conditions":[{"field":"nicknames","operator":"=","value":"Neo"}]}`,
			`/conditions/0/operator: operator "=" does not apply to string_list field nicknames (a list is tested by its elements or its size, not compared as one value)`},
		{planner.QueryEntities, `{"entity_type":"Person","conditions":[{"field":"scores","operator":"CONTAINS","value":"x"}]}`,
			`/conditions/0/value: "x" does not fit integer_list field scores: give one of its whole numbers`},
		{planner.QueryEntities, `{"entity_type":"Person","conditions":[{"field":"scores","operator":"CONTAINS","value":[1]}]}`,
			`/conditions/0/value: CONTAINS on integer_list field scores takes one value (use CONTAINS ANY or CONTAINS ALL for a list)`},
		{planner.QueryEntities, `{"entity_type":"Person","conditions":[{"field":"weights","operator":"CONTAINS ALL","value":[]}]}`,
			`/conditions/0/value: CONTAINS ALL needs a non-empty list of numbers`},
		{planner.QueryEntities, `{"entity_type":"Person","conditions":[{"field":"nicknames","operator":"SIZE >","value":1.5}]}`,
			`/conditions/0/value: 1.5 does not fit string_list field nicknames: give a whole number (the list's size)`},
		{planner.QueryEntities, `{"entity_type":"Person","conditions":[{"field":"nicknames","operator":"CONTAINS","value":"n","ignore_case":true}]}`,
			`/conditions/0/ignore_case: ignore_case applies to string fields`},
		{planner.QueryEntities, `{"entity_type":"Person","order_by":[{"field":"nicknames"}]}`,
			`/order_by/0/field: nicknames is a string_list field and a list does not sort`},
		{planner.QueryRelationships, `{"relationship_type":"ACTED_IN","order_by":[{"field":"roles"}]}`,
			`/order_by/0/field: roles is a string_list field and a list does not sort`},
		{planner.QueryEntities, `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","relationship_conditions":[{"field":"takes","operator":">","value":1}]}]}`,
			`/conditions/0/relationship_conditions/0/operator: operator ">" does not apply to integer_list field takes`},
		{planner.AggregateEntities, `{"entity_type":"Person","operation":"COUNT","group_by":"nicknames"}`,
			`/group_by: nicknames is a string_list field: groups would be whole lists, not elements`},
		{planner.AggregateEntities, `{"entity_type":"Person","operation":"SUM","field":"scores"}`,
			`/field: scores is declared integer_list: give size: true to aggregate its size (the number of elements)`},
		{planner.AggregateEntities, `{"entity_type":"Person","operation":"MAX","field":"name","size":true}`,
			`/size: size aggregates a list field's size; name is declared string`},
		{planner.AggregateEntities, `{"entity_type":"Person","operation":"COUNT","field":"scores","size":true}`,
			`/size: size applies to SUM, AVG, MIN and MAX`},
	} {
		_, err := f.plan(c.tool, c.args, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s:\n got %v\nwant …%s…", c.tool, c.args, err, c.want)
		}
	}
}

package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
)

// groupFieldConfig has a number field named group, the word the grouped
// aggregate's Cypher uses for its group column.
const groupFieldConfig = `
name: group-field
version: 1.0.0
entities:
  - name: Team
    unique_field: name
    searchable_fields:
      - {name: name, type: string}
      - {name: group, type: integer}
      - {name: league, type: string}
`

// TestAggregateOverAFieldNamedGroupIsUngrouped: aggregating a field named
// group without group_by returns {"value"}, not an empty list of groups,
// and grouping (by that field or another) still returns groups.
func TestAggregateOverAFieldNamedGroupIsUngrouped(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "UNWIND [['a', 1, 'x'], ['b', 2, 'x'], ['c', 4, 'y']] AS r CREATE (:Team {name: r[0], `group`: r[1], league: r[2]})", nil)
	e := aggregatingEngine(t, d, "group-field.yaml", groupFieldConfig, engine.Options{})
	for _, c := range []struct{ args, want string }{
		{`{"entity_type":"Team","operation":"SUM","field":"group"}`, `{"value":7,"total":3}`},
		{`{"entity_type":"Team","operation":"MAX","field":"group","conditions":[{"field":"group","operator":"<","value":3}]}`, `{"value":2,"total":2}`},
		{`{"entity_type":"Team","operation":"SUM","field":"group","group_by":"league"}`, `{"groups":[{"group":"y","value":4,"count":1},{"group":"x","value":3,"count":2}],"count":2,"truncated":false}`},
		{`{"entity_type":"Team","operation":"COUNT","group_by":"group"}`, `{"groups":[{"group":1,"value":1,"count":1},{"group":2,"value":1,"count":1},{"group":4,"value":1,"count":1}],"count":3,"truncated":false}`},
	} {
		r, err := e.Execute(t.Context(), engine.Call{Name: planner.AggregateEntities, Arguments: json.RawMessage(c.args)})
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.args, b, c.want)
		}
	}
}

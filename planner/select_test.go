package planner_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestSelectStartsAStatementFromTheEntitiesConditionsMeet: a custom
// tool's conditions, checked by tools.Conditions, compile as
// query_entities' do: the entity's MATCH compared with the tenant, a
// relationship test's node too, values as parameters p0, p1, …, and only
// n carried on when a computed field had to be computed.
func TestSelectStartsAStatementFromTheEntitiesConditionsMeet(t *testing.T) {
	m := loadModel(t, "memory-graph.yaml")
	p, err := planner.New(m, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	conds := []tools.Condition{
		{Field: "name", Operator: "=", Value: "chess"},
		{Via: "involves", Direction: "outgoing", Entity: "Person", Quantifier: tools.QuantifierSome, Conditions: []tools.Condition{{Field: "days_since_update", Operator: "<", Value: json.Number("30")}}},
	}
	// A related entity's computed field (an expression) is tested inline
	// over the related node, as the entity's own would be.
	if err := tools.NewConditions(m).Check("t", "Concept", conds, "conditions"); err != nil {
		t.Fatalf("a computed field of a related entity: %v", err)
	}
	sel, err := p.Select("t", "Concept", conds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sel.Cypher, "m0.`updated_at`") || strings.Contains(sel.Cypher, "days_since_update") {
		t.Errorf("a related entity's computed field is not inlined over m0:\n%s", sel.Cypher)
	}
	conds[1].Conditions = []tools.Condition{{Field: "name", Operator: "=", Value: "Ada"}}
	if err := tools.NewConditions(m).Check("t", "Concept", conds, "conditions"); err != nil {
		t.Fatal(err)
	}
	if sel, err = p.Select("t", "Concept", conds, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sel.Cypher, "MATCH (n:`Concept`)") || strings.Count(sel.Cypher, "= $tenant") < 2 || sel.Params["p0"] != "chess" || sel.Params["p1"] != "Ada" {
		t.Errorf("selection:\n%s\n%v", sel.Cypher, sel.Params)
	}
	conds = []tools.Condition{{Field: "days_since_update", Operator: "<", Value: int64(30)}}
	if sel, err = p.Select("t", "Person", conds, nil); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(sel.Cypher, "\n"); lines[len(lines)-1] != "WITH n" {
		t.Errorf("a computed condition's selection ends with %q, want WITH n:\n%s", lines[len(lines)-1], sel.Cypher)
	}
	_, err = p.Select("t", "Nope", nil, nil)
	var ce *tools.CallError
	if !errors.As(err, &ce) || ce.Problems[0].Path != "/entity_type" {
		t.Errorf("an unknown entity: %v", err)
	}
}

package planner_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestSelectTakesNamesAsQueryEntitiesDoes: the tools built outside the
// planner that take the condition grammar (the history tools, through
// tools.Conditions and Planner.Select) check and compile names (as) as
// query_entities does: a name out of its scope is refused where it is
// given, and two tests that share one meet on one movie, the second
// written inside the first's EXISTS.
func TestSelectTakesNamesAsQueryEntitiesDoes(t *testing.T) {
	m := loadModel(t, "movies.yaml")
	p, err := planner.New(m, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(conds []tools.Condition) error {
		return tools.NewConditions(m).Check("t", "Person", conds, "conditions")
	}
	apart := []tools.Condition{
		{Via: "FOLLOWS", Conditions: []tools.Condition{{Via: "ACTED_IN", As: "m"}}},
		{Via: "DIRECTED", As: "m"},
	}
	var ce *tools.CallError
	if err := check(apart); !errors.As(err, &ce) || ce.Problems[0].Path != "/conditions/1/as" {
		t.Fatalf("a name bound inside another test's conditions: %v; want refused at /conditions/1/as", err)
	}
	same := []tools.Condition{{Via: "ACTED_IN", As: "m"}, {Via: "DIRECTED", As: "m"}}
	if err := check(same); err != nil {
		t.Fatal(err)
	}
	sel, err := p.Select("t", "Person", same, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "EXISTS { MATCH (n)-[r0:`ACTED_IN`]->(m0) WHERE m0:`Movie` AND EXISTS { MATCH (n)-[r1:`DIRECTED`]->(m0) WHERE m0:`Movie` } }"; !strings.Contains(sel.Cypher, want) {
		t.Errorf("selection:\n%s\nwant it to hold %s", sel.Cypher, want)
	}
}

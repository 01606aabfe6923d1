package planner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestComputedFieldNamesAtTheLengthLimitPlanAndRun: a computed field name
// of 100 characters, the most the identifier rules allow, makes variables
// (cf_…, __rf_n_…) longer than the rules' limit; they are shortened with a
// hash, so the call plans and Neo4j runs it instead of the planner
// refusing a valid config.
func TestComputedFieldNamesAtTheLengthLimitPlanAndRun(t *testing.T) {
	d := neo4jtest.Open(t)
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	long := func(c string) string { return c + strings.Repeat("x", 99) }
	e := m.Entity("Scope")
	big, changes := e.ComputedField("is_large"), e.ComputedField("change_count")
	big.Name = long("b")
	changes.Cypher = strings.ReplaceAll(changes.Cypher, "AS change_count", "AS "+long("c"))
	changes.Name = long("c")
	neo4jtest.Run(t, d, "CREATE (s:Scope {uuid: 'u1', name: 'a', startLine: 1, endLine: 300})-[:HAS_CHANGE]->(:Change {uuid: 'c1'})", nil)
	args := &planner.QueryEntitiesArgs{EntityType: "Scope", Limit: 5,
		Conditions: []tools.Condition{{Field: long("b"), Operator: "=", Value: true}},
		OrderBy:    tools.OrderByList{{Field: long("c"), Direction: "DESC"}}}
	st, err := planner.Plan(m, planner.Call{Tool: planner.QueryEntities, Args: args}, nil)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	res, err := neo4j.ExecuteQuery(context.Background(), d, st.Cypher, st.Params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		t.Fatalf("%v\n%s", err, st.Cypher)
	}
	if len(res.Records) != 1 {
		t.Fatalf("%d rows, want the one large scope", len(res.Records))
	}
	comp, _ := res.Records[0].Get("computed")
	if got := comp.(map[string]any)[long("c")]; got != int64(1) {
		t.Errorf("computed %v, want %s = 1", comp, long("c"))
	}
}

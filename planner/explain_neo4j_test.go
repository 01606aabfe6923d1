package planner_test

import (
	"context"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/golden/plancase"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
)

// TestGoldenPlansCompileOnNeo4j asks the real server to plan (EXPLAIN)
// every golden statement (and the fetch step of a scan) with its
// parameters: the generated Cypher parses,
// type-checks and is classified read-only. APOC cases need APOC.
func TestGoldenPlansCompileOnNeo4j(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	for _, c := range plancase.Read(t, "..") {
		t.Run(c.Name(), func(t *testing.T) {
			if c.Caps.APOC {
				neo4jtest.RequireAPOC(t, d)
			}
			f := newFixture(t, c.Config, c.Caps)
			st, err := f.plan(c.Tool, c.Args, c.State)
			if err != nil {
				return // error cases are checked by TestGoldenPlans
			}
			if st.Raw {
				return
			}
			for _, st := range []*planner.Statement{st, st.Fetch} {
				if st == nil {
					continue
				}
				res, err := neo4j.ExecuteQuery(ctx, d, "EXPLAIN "+st.Cypher, st.Params, neo4j.EagerResultTransformer,
					neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
				if err != nil {
					t.Fatalf("EXPLAIN failed: %v\n%s", err, st.Cypher)
				}
				if qt := res.Summary.StatementType(); qt != neo4j.StatementTypeReadOnly {
					t.Errorf("statement type %v, want read-only\n%s", qt, st.Cypher)
				}
			}
		})
	}
}

package explore_test

import (
	"context"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/cypher/scope"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/memory/explore"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// TestExploreStatementsAreReadOnlyAndProvenScopedOnTheirPlans runs
// EXPLAIN on both statements of a call that uses every kind of source
// (vector, full-text, name match) and has package scope prove, on
// Neo4j's plan, that every node they read passes the tenant predicate,
// and Neo4j say that they only read.
func TestExploreStatementsAreReadOnlyAndProvenScopedOnTheirPlans(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	m := memoryModel(t)
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	a := explore.Args{Queries: []explore.Query{{Query: "sailing"}}, TextMatches: []string{"Marie", "acme corp"}}
	kinds, cypher, params, err := explore.Statements(ctx, m, tools.Env{Embedder: embedder.Offline{}}, a, "alice", []string{"4:x:1", "4:x:2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(kinds) != 3 {
		t.Fatalf("sources of kinds %v; want vector, fulltext and match", kinds)
	}
	for i, q := range cypher {
		res, err := neo4j.ExecuteQuery(ctx, d, "EXPLAIN "+q, params[i], neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
		if err != nil {
			t.Fatalf("EXPLAIN: %v\n%s", err, q)
		}
		if typ := res.Summary.StatementType(); typ != neo4j.StatementTypeReadOnly {
			t.Errorf("statement type %v; want read-only\n%s", readonly.TypeName(typ), q)
		}
		if err := scope.Check(readonly.PlanOf(res.Summary.Plan()), "user_id", tenant.Param); err != nil {
			t.Errorf("the plan is not proven scoped: %v\n%s", err, q)
		}
	}
}

package tree

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/readonly"
	"github.com/ragforge/ragforge/scope"
	"github.com/ragforge/ragforge/tenant"
)

// planOperators lists the operators of a statement's EXPLAIN plan.
func planOperators(p neo4j.Plan) []string {
	out := []string{p.Operator()}
	for _, c := range p.Children() {
		out = append(out, planOperators(c)...)
	}
	return out
}

func TestTreeReadUnderAGlobsRootSeeksThePathIndex(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT tree_dir_path IF NOT EXISTS FOR (n:Directory) REQUIRE n.path IS UNIQUE", nil)
	neo4jtest.Run(t, d, "CREATE CONSTRAINT tree_file_path IF NOT EXISTS FOR (n:File) REQUIRE n.path IS UNIQUE", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(60)", nil)
	m := fileTree()
	st, err := compile(m, m.Trees[0])
	if err != nil {
		t.Fatal(err)
	}
	cypher, params := st.query(m.Trees[0], "net/http", map[string]any{})
	res, err := neo4j.ExecuteQuery(context.Background(), d, "EXPLAIN "+cypher, params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		t.Fatal(err)
	}
	ops := planOperators(res.Summary.Plan())
	if n := strings.Count(fmt.Sprint(ops), "IndexSeek"); n < 2 || strings.Contains(fmt.Sprint(ops), "LabelScan") {
		t.Errorf("plan %v: want index seeks on both labels' path and no label scan", ops)
	}
	if res.Summary.StatementType() != neo4j.StatementTypeReadOnly {
		t.Errorf("statement type %v, want read-only", res.Summary.StatementType())
	}
}

// TestATenantConfigsTreeStatementsAreProvenScopedOnTheirPlans: the proof
// traverse demands of an agent's Cypher (package scope, on Neo4j's plan)
// holds for both read statements of a tenant-scoped tree, the whole tree
// and the part under a root.
func TestATenantConfigsTreeStatementsAreProvenScopedOnTheirPlans(t *testing.T) {
	d := neo4jtest.Open(t)
	m := tenantFileTree()
	st, err := compile(m, m.Trees[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"", "net/http"} {
		cypher, params := st.query(m.Trees[0], root, map[string]any{tenant.Param: "alice"})
		res, err := neo4j.ExecuteQuery(context.Background(), d, "EXPLAIN "+cypher, params, neo4j.EagerResultTransformer,
			neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
		if err != nil {
			t.Fatal(err)
		}
		if err := scope.Check(readonly.PlanOf(res.Summary.Plan()), "user_id", tenant.Param); err != nil {
			t.Errorf("root %q: the plan is not proven scoped: %v\n%s", root, err, cypher)
		}
	}
}

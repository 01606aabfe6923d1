package tree

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
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
	cypher, params := st.query(m.Trees[0], "net/http")
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

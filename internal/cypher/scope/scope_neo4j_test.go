package scope_test

import (
	"context"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/cypher/scope"
	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
)

// testProcedures are the procedures the scope tests may call.
var testProcedures = []string{"db.labels", "db.schema.visualization", "db.index.fulltext.queryNodes", "db.index.fulltext.queryRelationships"}

// TestCheckOnRealPlans checks the verdict of every case of testdata/plans.txt
// on the plan the Neo4j test server makes of it now. Under RAGFORGE_UPDATE=1
// it also records those plans in the file, for TestCheckOnRecordedPlans to
// run without a server. It does not compare them with the recording: the
// verdicts are what must hold, and a plan may change with the server's
// statistics without changing one.
func TestCheckOnRealPlans(t *testing.T) {
	// An agent's statements, which may use what Neo4j deprecates.
	d := neo4jtest.AllowDeprecations(neo4jtest.Open(t))
	for _, q := range []string{
		"CREATE INDEX person_user IF NOT EXISTS FOR (n:Person) ON (n.user_id)",
		"CREATE FULLTEXT INDEX people IF NOT EXISTS FOR (n:Person) ON EACH [n.name]",
		"CREATE FULLTEXT INDEX knows_text IF NOT EXISTS FOR ()-[r:KNOWS]-() ON EACH [r.note]",
		"CALL db.awaitIndexes()",
		"UNWIND range(1, 50) AS i UNWIND ['alice', 'bob'] AS u CREATE (:Person {user_id: u, name: 'p' + i})-[:KNOWS {note: 'n'}]->(:Concept {user_id: u, name: 'c' + i})",
	} {
		neo4jtest.Run(t, d, q, nil)
	}
	cases := readCases(t)
	for i, c := range cases {
		ex, err := readonly.Check(context.Background(), d, c.query, readonly.Options{Database: neo4jtest.Database(), Procedures: testProcedures, Params: map[string]any{tenant.Param: "alice"}})
		if err != nil {
			t.Errorf("%s: EXPLAIN: %v", c.query, err)
			continue
		}
		if golden.Update() {
			cases[i].plan = ex.Plan
		}
		verdict(t, c, scope.Check(ex.Plan, "user_id", tenant.Param))
	}
	if golden.Update() {
		golden.Check(t, plansFile, formatCases(cases))
	}
}

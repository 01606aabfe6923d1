package planner_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestTextStoredFieldsIndexUse pins which text forms stay index-backed: a
// datetime held as text in the common forms is read by a range seek of
// its index (the ISO string's span), while a datetime in a layout and a
// number held as text are converted on every read, so no index serves
// their conditions (engine's TestFieldsHeldAsTextAnswerAsTheirTypes checks
// the answers).
func TestTextStoredFieldsIndexUse(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(0, 1999) AS i
		CREATE (:Order {orderID: toString(i),
			shippedDate: CASE WHEN i % 50 = 0 THEN 'NULL' ELSE toString(date('1996-07-01') + duration({days: i % 600})) + ' 00:00:00.000' END,
			requiredDate: right('0' + toString(i % 28 + 1), 2) + '/07/1996', freight: toString(i % 300) + '.50'})`, nil)
	for _, p := range []string{"shippedDate", "requiredDate", "freight"} {
		neo4jtest.Run(t, d, "CREATE INDEX order_"+p+" FOR (o:Order) ON (o."+p+")", nil)
	}
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(120)", nil)
	neo4jtest.Run(t, d, "CALL db.resampleOutdatedIndexes()", nil)
	neo4jtest.Run(t, d, "CALL db.clearQueryCaches()", nil)
	f := newFixture(t, "text-orders.yaml", tools.Capabilities{})
	for _, c := range []struct {
		field, conditions string
		seeks             bool
	}{
		{"shippedDate", `[{"field":"shippedDate","operator":">=","value":"1997-02-01"}]`, true},
		{"requiredDate", `[{"field":"requiredDate","operator":"<","value":"1996-07-03"}]`, false},
		{"freight", `[{"field":"freight","operator":">","value":250}]`, false},
	} {
		st, err := f.plan(planner.AggregateEntities, `{"entity_type":"Order","operation":"COUNT","conditions":`+c.conditions+`}`, nil)
		if err != nil {
			t.Fatal(err)
		}
		ops, _ := profile(t, d, st)
		seek := slices.ContainsFunc(ops, func(op string) bool {
			return strings.HasPrefix(op, "NodeIndexSeekByRange") && strings.Contains(op, "Order("+c.field+")")
		})
		if seek != c.seeks {
			t.Errorf("%s: index seek %v, want %v; plan:\n%s\n%s", c.field, seek, c.seeks, strings.Join(ops, "\n"), st.Cypher)
		}
	}
}

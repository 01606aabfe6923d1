package planner_test

import (
	"fmt"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// TestRelationalStatementsStayInsideTheTenant: related entities of a
// relationship test or an aggregate, the nodes of a find_paths path and
// explore's targets are all kept inside the bound tenant, even where a
// relationship crosses into another tenant's nodes.
func TestRelationalStatementsStayInsideTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (pa1:Person {entity_key: 'pa1', user_id: 'alice', name: 'A1'}),
		(pa2:Person {entity_key: 'pa2', user_id: 'alice', name: 'A2'}),
		(ca:Concept {entity_key: 'ca', user_id: 'alice', name: 'sailing'}),
		(pb:Person {entity_key: 'pb', user_id: 'bob', name: 'B'}),
		(cb:Concept {entity_key: 'cb', user_id: 'bob', name: 'sailing'})
		CREATE (pa1)-[:thinks_about {mood: 'loves'}]->(cb), (pa2)-[:thinks_about {mood: 'loves'}]->(ca),
			(pa1)-[:has_relationship_with]->(pb), (pb)-[:has_relationship_with]->(pa2)`, nil)
	f := newFixture(t, "memory-graph.yaml", tools.Capabilities{FullText: true})
	run := func(tool, args string) []string {
		var out []string
		for _, r := range runAsAlice(t, d, f, tool, args) {
			for _, k := range []string{"id", "value", "length"} {
				if v, ok := r.Get(k); ok {
					out = append(out, k+"="+fmtAny(v))
				}
			}
		}
		return out
	}
	for _, c := range []struct {
		name, tool, args string
		want             []string
	}{
		{"some", planner.QueryEntities, `{"entity_type":"Person","conditions":[{"via":"thinks_about","conditions":[{"field":"name","operator":"=","value":"sailing"}]}]}`, []string{"id=pa2"}},
		{"none", planner.QueryEntities, `{"entity_type":"Person","conditions":[{"via":"has_relationship_with","quantifier":"none"}]}`, []string{"id=pa1", "id=pa2"}},
		{"count", planner.QueryEntities, `{"entity_type":"Person","conditions":[{"via":"thinks_about","count":{"operator":">=","value":1}}]}`, []string{"id=pa2"}},
		{"aggregate over", planner.AggregateEntities, `{"entity_type":"Person","operation":"COUNT","over":{"via":"thinks_about"}}`, []string{"value=1"}},
		{"find_paths", planner.FindPaths, `{"from_entity_type":"Person","from_id":"pa1","to_entity_type":"Person","to_id":"pa2"}`, nil},
		{"explore", planner.ExploreRelationships, `{"start_entity_type":"Person","relationship_types":["has_relationship_with","thinks_about"],"direction":"both","depth":2}`, []string{"id=ca"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := run(c.tool, c.args); fmtAny(got) != fmtAny(c.want) {
				t.Errorf("got %v, want %v (bob's nodes must not be reached)", got, c.want)
			}
		})
	}
}

// TestRelationshipComputedFieldsStayInsideTheTenant: a relationship's
// computed field reads its ends (to.price) only where the statement has
// kept both ends inside the bound tenant, so alice's line to bob's
// product is neither tested, sorted nor summed, however large its value.
func TestRelationshipComputedFieldsStayInsideTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (o1:Order {orderID: 'o1', user_id: 'alice'}), (o2:Order {orderID: 'o2', user_id: 'alice'}),
		(pa:Product {productID: 'pa', user_id: 'alice', price: 2.5}), (pb:Product {productID: 'pb', user_id: 'bob', price: 1000.0})
		CREATE (o1)-[:ORDERS {quantity: 4}]->(pa), (o2)-[:ORDERS {quantity: 4}]->(pb)`, nil)
	f := newFixture(t, "tenant-orders.yaml", tools.Capabilities{})
	run := func(tool, args, col string) []string {
		var out []string
		for _, r := range runAsAlice(t, d, f, tool, args) {
			v, _ := r.Get(col)
			out = append(out, fmtAny(v))
		}
		return out
	}
	for _, c := range []struct {
		name, tool, args, col string
		want                  []string
	}{
		{"relationship_conditions", planner.QueryEntities, `{"entity_type":"Order","conditions":[{"via":"ORDERS","relationship_conditions":[{"field":"value","operator":">","value":1}]}]}`, "id", []string{"o1"}},
		{"query_relationships", planner.QueryRelationships, `{"relationship_type":"ORDERS","order_by":[{"field":"value","direction":"DESC"}]}`, "from_id", []string{"o1"}},
		{"over.field", planner.AggregateEntities, `{"entity_type":"Order","operation":"SUM","over":{"via":"ORDERS","field":"value"}}`, "value", []string{"10"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := run(c.tool, c.args, c.col); fmtAny(got) != fmtAny(c.want) {
				t.Errorf("got %v, want %v (bob's product must not be read)", got, c.want)
			}
		})
	}
}

// runAsAlice plans a call and runs it bound to tenant alice.
func runAsAlice(t *testing.T, d neo4j.DriverWithContext, f *fixture, tool, args string) []*neo4j.Record {
	t.Helper()
	st, err := f.plan(tool, args, nil)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	st.Params[tenant.Param] = "alice"
	return runPlanned(t, d, st)
}

func fmtAny(v any) string { return fmt.Sprint(v) }

package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// pinnedHead is how the statement of a nested pin starts: from the
// entity to the pin, one MATCH per hop, made one row per entity.
const pinnedHead = "WITH DISTINCT n\n"

// boughtArgs is query_entities' call for the customers with an order
// holding a line of one of products, of at least quantity, from offset.
func boughtArgs(tool string, products []string, quantity int64, offset int) string {
	pin := map[string]any{"field": "productID", "operator": "IN", "value": products}
	if len(products) == 1 {
		pin = map[string]any{"field": "productID", "operator": "=", "value": products[0]}
	}
	args := map[string]any{"entity_type": "Customer", "conditions": []any{map[string]any{
		"via": "PURCHASED", "conditions": []any{map[string]any{
			"via": "ORDERS", "conditions": []any{pin},
			"relationship_conditions": []any{map[string]any{"field": "quantity", "operator": ">=", "value": quantity}},
		}},
	}}}
	if tool == planner.AggregateEntities {
		args["operation"] = "COUNT"
	} else {
		args["limit"], args["offset"] = 50, offset
	}
	b, _ := json.Marshal(args)
	return string(b)
}

// nestedForm is the statement st (a nested pin's, starting with its walk
// from the customer to the pinned product) as it was planned before
// nested pins started from the index: EXISTS in EXISTS on every customer,
// the rest (order, paging, projection) unchanged. p0 and p1 are the
// pin's value and the quantity, as the planner numbers them.
func nestedForm(t *testing.T, st *planner.Statement) string {
	t.Helper()
	i := strings.Index(st.Cypher, pinnedHead)
	if i < 0 || strings.Contains(st.Cypher[:i], "EXISTS") {
		t.Fatalf("the nested pin's statement does not start from the pin:\n%s", st.Cypher)
	}
	op := "="
	if strings.Contains(st.Cypher[:i], "IN $p0") {
		op = "IN"
	}
	return "MATCH (n:Customer)\nWHERE EXISTS { MATCH (n)-[r0:PURCHASED]->(m0) WHERE m0:Order AND EXISTS { MATCH (m0)-[r1:ORDERS]->(m1) WHERE m1:Product AND m1.productID " + op + " $p0 AND r1.quantity >= $p1 } }\n" +
		st.Cypher[i+len(pinnedHead):]
}

// tail is how many customers tailCustomers adds.
const tail = 200

// tailCustomers adds to the Northwind-shaped fixture customers T1…T<tail>,
// each with one order T<i> of one line of p6, quantity 1: a long tail of
// customers that tells a statement starting from a pin from one that reads
// every customer.
func tailCustomers(t *testing.T, d neo4j.DriverWithContext) {
	t.Helper()
	neo4jtest.Run(t, d, `UNWIND range(1, $n) AS i
		CREATE (c:Customer {customerID: 'T' + i})-[:PURCHASED]->(o:Order {orderID: 'T' + i, customerID: 'T' + i})
		WITH o MATCH (p:Product {productID: 'p6'}) CREATE (o)-[:ORDERS {quantity: 1}]->(p)`, map[string]any{"n": tail})
}

// records runs cypher and renders each row's values.
func records(t *testing.T, d neo4j.DriverWithContext, cypher string, params map[string]any) []string {
	t.Helper()
	res, err := neo4j.ExecuteQuery(context.Background(), d, cypher, params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatalf("%s: %v", cypher, err)
	}
	out := make([]string, len(res.Records))
	for i, r := range res.Records {
		out[i] = fmt.Sprint(r.Values)
	}
	return out
}

// profiled is cypher's db hits under PROFILE, after one run that plans
// and caches it.
func profiled(t *testing.T, d neo4j.DriverWithContext, cypher string, params map[string]any) int64 {
	t.Helper()
	records(t, d, cypher, params)
	res, err := neo4j.ExecuteQuery(context.Background(), d, "PROFILE "+cypher, params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatalf("PROFILE %s: %v", cypher, err)
	}
	return dbHits(res.Summary.Profile())
}

// TestNestedPinsStartFromTheIndex is issue 31's item 6 on the
// Northwind-shaped fixture with a long tail of customers who bought p6
// once: "customers who bought product X", a relationship test (PURCHASED)
// whose condition is another (ORDERS) pinning the product by its unique
// field, is planned from the product back to the customers. Its answers
// are the customers computed in Go from the fixture, page by page, the
// same rows as the EXISTS-in-EXISTS statement planned before, and its
// count the same; and it reads fewer db hits than that statement.
// -v logs both, the figures docs/performance.md quotes:
//
//	go test ./engine -run TestNestedPinsStartFromTheIndex -v
func TestNestedPinsStartFromTheIndex(t *testing.T) {
	products, lines := northwindLines()
	e, _, d := northwindOrders(t, products, lines)
	tailCustomers(t, d)
	ctx := context.Background()

	// bought is the answer computed in Go: the customers, in id order.
	bought := func(ids []string, quantity int64) []string {
		var out []string
		add := func(c string) {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
		for _, l := range lines {
			if slices.Contains(ids, l.product) && l.quantity >= quantity {
				add(customerOf(l.order))
			}
		}
		if slices.Contains(ids, "p6") && quantity <= 1 {
			for i := 1; i <= tail; i++ {
				add("T" + strconv.Itoa(i))
			}
		}
		slices.Sort(out)
		return out
	}

	partial := false
	for _, c := range []struct {
		products []string
		quantity int64
	}{{[]string{"p1"}, 0}, {[]string{"p3"}, 20}, {[]string{"p2", "p5"}, 30}, {[]string{"p4"}, 38}, {[]string{"p6"}, 0}, {[]string{"p6"}, 35}} {
		want := bought(c.products, c.quantity)
		partial = partial || len(want) > 0 && len(want) < 5
		name := fmt.Sprintf("%v quantity>=%d", c.products, c.quantity)
		var got []string
		for {
			r := execJSON(t, e, planner.QueryEntities, boughtArgs(planner.QueryEntities, c.products, c.quantity, len(got)))
			for _, x := range r.Entities {
				got = append(got, fmt.Sprint(x.ID))
			}
			if r.Count < 50 {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: customers %v, want %v", name, got, want)
		}
		if n := execJSON(t, e, planner.AggregateEntities, boughtArgs(planner.AggregateEntities, c.products, c.quantity, 0)); n.Value != float64(len(want)) {
			t.Errorf("%s: COUNT %v, want %d", name, n.Value, len(want))
		}
		st, err := e.Plan(ctx, engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(boughtArgs(planner.QueryEntities, c.products, c.quantity, 0))})
		if err != nil {
			t.Fatal(err)
		}
		if pinned, nested := records(t, d, st.Cypher, st.Params), records(t, d, nestedForm(t, st), st.Params); !slices.Equal(pinned, nested) {
			t.Errorf("%s: the pinned statement's rows\n%v\ndiffer from the nested EXISTS form's\n%v", name, pinned, nested)
		}
	}
	if !partial {
		t.Fatal("no case leaves a few customers: the fixture no longer tells a pin from a scan")
	}

	t.Run("unknown product", func(t *testing.T) {
		r := execJSON(t, e, planner.QueryEntities, boughtArgs(planner.QueryEntities, []string{"p9"}, 0, 0))
		if r.Count != 0 || !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, `no Product has productID "p9"`) }) {
			t.Errorf("customers who bought p9: %d, notes %q; want none and a note that no product is p9", r.Count, r.Notes)
		}
	})

	t.Run("PROFILE", func(t *testing.T) {
		st, err := e.Plan(ctx, engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(boughtArgs(planner.QueryEntities, []string{"p1"}, 0, 0))})
		if err != nil {
			t.Fatal(err)
		}
		pinned, nested := profiled(t, d, st.Cypher, st.Params), profiled(t, d, nestedForm(t, st), st.Params)
		t.Logf("customers who bought p1 among %d: %d db hits from the pin, %d with EXISTS in EXISTS", 5+tail, pinned, nested)
		if pinned >= nested {
			t.Errorf("the pinned statement reads %d db hits, the nested EXISTS form %d: want fewer", pinned, nested)
		}
	})
}

// TestNestedPinsStayInTheTenant: a nested pin on an indexed field keeps
// every node of its walk (customer, order, product) inside the call's
// tenant. The graph holds two tenants with the same product names and
// relationships across them (a customer of a to an order of b, an order
// of a to a product of b), which must not make a customer's answer; each
// tenant's customers are the ones computed in Go, and Neo4j's plan of the
// statement is proven scoped (checkScopedPlan). So is the aggregate of the
// products per customer along the path to the pinned products, matched
// from the pin (aggregate_entities' over.path).
func TestNestedPinsStayInTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	type node struct{ label, id, tenant, name string }
	nodes := []node{
		{"Product", "P1", "a", "Chai"}, {"Product", "P2", "a", "Chang"}, {"Product", "P3", "a", "Tofu"},
		{"Product", "P1", "b", "Chai"}, {"Product", "P2", "b", "Chang"}, {"Product", "P3", "b", "Tofu"},
		{"Customer", "A1", "a", ""}, {"Customer", "A2", "a", ""}, {"Customer", "A3", "a", ""}, {"Customer", "A4", "a", ""},
		{"Customer", "B1", "b", ""}, {"Customer", "B2", "b", ""},
		{"Order", "OA1", "a", ""}, {"Order", "OA2", "a", ""}, {"Order", "OA4", "a", ""},
		{"Order", "OB1", "b", ""}, {"Order", "OB2", "b", ""}, {"Order", "OB3", "b", ""},
	}
	// Edges run from tenant/id to tenant/id.
	purchased := [][2]string{{"a/A1", "a/OA1"}, {"a/A2", "a/OA2"}, {"a/A4", "a/OA4"}, {"a/A3", "b/OB3"}, {"b/B1", "b/OB1"}, {"b/B2", "b/OB2"}}
	ordered := [][2]string{{"a/OA1", "a/P1"}, {"a/OA2", "a/P3"}, {"a/OA4", "b/P1"}, {"b/OB1", "b/P2"}, {"b/OB2", "b/P1"}, {"b/OB3", "b/P1"}}
	var rows []map[string]any
	for _, n := range nodes {
		rows = append(rows, map[string]any{"label": n.label, "id": n.id, "tenant": n.tenant, "name": n.name})
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS row
		CALL (row) {
		  WITH row WHERE row.label = 'Customer' CREATE (:Customer {customerID: row.id, user_id: row.tenant})
		  UNION WITH row WHERE row.label = 'Order' CREATE (:Order {orderID: row.id, user_id: row.tenant})
		  UNION WITH row WHERE row.label = 'Product' CREATE (:Product {productID: row.id, productName: row.name, user_id: row.tenant})
		}`, map[string]any{"rows": rows})
	edges := func(typ, from, fromKey, to, toKey string, pairs [][2]string) {
		var rows []map[string]any
		for _, p := range pairs {
			f, g := strings.Split(p[0], "/"), strings.Split(p[1], "/")
			rows = append(rows, map[string]any{"ft": f[0], "f": f[1], "tt": g[0], "t": g[1]})
		}
		neo4jtest.Run(t, d, fmt.Sprintf(`UNWIND $rows AS row
			MATCH (x:%s {%s: row.f, user_id: row.ft}), (y:%s {%s: row.t, user_id: row.tt})
			CREATE (x)-[:%s]->(y)`, from, fromKey, to, toKey, typ), map[string]any{"rows": rows})
	}
	edges("PURCHASED", "Customer", "customerID", "Order", "orderID", purchased)
	edges("ORDERS", "Order", "orderID", "Product", "productID", ordered)

	name := map[string]string{}
	for _, n := range nodes {
		name[n.tenant+"/"+n.id] = n.name
	}
	// perCustomer is the answer computed in Go: the products of tenant
	// named one of names that each of its customers ordered in an order
	// of theirs, each once.
	perCustomer := func(tenant string, names []string) map[string]float64 {
		out := map[string]float64{}
		for _, p := range purchased {
			for _, o := range ordered {
				same := strings.HasPrefix(p[0], tenant+"/") && strings.HasPrefix(p[1], tenant+"/") && strings.HasPrefix(o[1], tenant+"/")
				if same && o[0] == p[1] && slices.Contains(names, name[o[1]]) {
					out[p[0][2:]]++
				}
			}
		}
		return out
	}
	// want is tenant's customers with such a product, in id order.
	want := func(tenant string, names []string) []string {
		return slices.Sorted(maps.Keys(perCustomer(tenant, names)))
	}

	m, err := config.Load("../testdata/planner/configs/tenant-customers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tenant := range []string{"a", "b"} {
		e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tenant: tenant, Tools: tools.Options{Aggregations: true}})
		if err != nil {
			t.Fatal(err)
		}
		for _, names := range [][]string{{"Chai"}, {"Chang"}, {"Chai", "Tofu"}} {
			list, _ := json.Marshal(names)
			args := fmt.Sprintf(`{"entity_type":"Customer","conditions":[{"via":"PURCHASED","conditions":[{"via":"ORDERS","conditions":[{"field":"productName","operator":"IN","value":%s}]}]}]}`, list)
			st, err := e.Plan(t.Context(), engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(args)})
			if err != nil {
				t.Fatal(err)
			}
			if i := strings.Index(st.Cypher, pinnedHead); i < 0 || strings.Contains(st.Cypher[:i], "EXISTS") {
				t.Errorf("tenant %s, %v: the statement does not start from the pin:\n%s", tenant, names, st.Cypher)
			}
			checkScopedPlan(t, e, d, t.Context(), "user_id", planner.QueryEntities, json.RawMessage(args))
			var got []string
			for _, x := range execJSON(t, e, planner.QueryEntities, args).Entities {
				got = append(got, fmt.Sprint(x.ID))
			}
			if w := want(tenant, names); !slices.Equal(got, w) {
				t.Errorf("tenant %s, customers who bought %v: %v, want %v", tenant, names, got, w)
			}

			// The products per customer along the path, matched from the
			// pinned products back to the customers.
			agg := fmt.Sprintf(`{"entity_type":"Customer","operation":"COUNT","group_by":"customerID","over":{"path":[{"via":"PURCHASED"},{"via":"ORDERS","conditions":[{"field":"productName","operator":"IN","value":%s}]}]}}`, list)
			if st, err = e.Plan(t.Context(), engine.Call{Name: planner.AggregateEntities, Arguments: json.RawMessage(agg)}); err != nil {
				t.Fatal(err)
			}
			fromThePin(t, st)
			checkScopedPlan(t, e, d, t.Context(), "user_id", planner.AggregateEntities, json.RawMessage(agg))
			counts := map[string]float64{}
			for _, g := range execJSON(t, e, planner.AggregateEntities, agg).Groups {
				counts[fmt.Sprint(g.Group)] = g.Value
			}
			if w := perCustomer(tenant, names); !maps.Equal(counts, w) {
				t.Errorf("tenant %s, products of %v per customer: %v, want %v", tenant, names, counts, w)
			}
		}
	}
}

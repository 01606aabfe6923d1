package planner_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// patternGraph is the graph of testdata/planner/configs/patterns.yaml
// built in Go: every node's label, key (its unique field) and tenant,
// and each relationship type's (from, to) pairs, so the tests compute
// their answers here and compare them with Neo4j's.
type patternGraph struct {
	label, tenant map[string]string
	rels          map[string][][2]string
}

func (g *patternGraph) node(label, key, tenant string) string {
	g.label[key], g.tenant[key] = label, tenant
	return key
}

func (g *patternGraph) rel(typ, from, to string) {
	g.rels[typ] = append(g.rels[typ], [2]string{from, to})
}

// has reports whether from --typ--> to is stored.
func (g *patternGraph) has(typ, from, to string) bool {
	return slices.Contains(g.rels[typ], [2]string{from, to})
}

// reached lists the nodes typ leads to from x (out) or leads from to x
// (!out), inside tenant ten (every node a statement binds is scoped, so
// only those count).
func (g *patternGraph) reached(typ, x, ten string, out bool) []string {
	var got []string
	for _, e := range g.rels[typ] {
		near, far := e[0], e[1]
		if !out {
			near, far = far, near
		}
		if near == x && g.tenant[far] == ten {
			got = append(got, far)
		}
	}
	return got
}

// of lists the nodes of label in tenant ten, sorted (the answers' order).
func (g *patternGraph) of(label, ten string) []string {
	var out []string
	for k, l := range g.label {
		if l == label && g.tenant[k] == ten {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// buildPatternGraph makes two tenants' cast and crew and orders, at
// random (seeded) with cross-tenant relationships, and the cases the
// tests name: split-a acted in one movie and directed another; cross-a
// acted in and directed one of bob's movies; two-products-a ordered, in
// one order, a Beverages product of Tokyo and a Condiments product of
// Exotic; two-orders-a ordered the same two products in two orders.
func buildPatternGraph() *patternGraph {
	g := &patternGraph{label: map[string]string{}, tenant: map[string]string{}, rels: map[string][][2]string{}}
	r := rand.New(rand.NewPCG(31, 4))
	cats, sups := []string{"Beverages", "Condiments", "Seafood"}, []string{"Exotic", "Tokyo", "Pavlova"}
	catOf, supOf := map[string]string{}, map[string]string{}
	for _, ten := range []string{"alice", "bob"} {
		var people, movies, orders, products []string
		for i := range 12 {
			people = append(people, g.node("Person", fmt.Sprintf("%s-p%02d", ten, i), ten))
		}
		for i := range 7 {
			movies = append(movies, g.node("Movie", fmt.Sprintf("%s-m%d", ten, i), ten))
		}
		for _, p := range people {
			for _, m := range movies {
				if r.Float64() < 0.25 {
					g.rel("ACTED_IN", p, m)
				}
				if r.Float64() < 0.12 {
					g.rel("DIRECTED", p, m)
				}
			}
		}
		for i, c := range cats {
			catOf[ten+c] = g.node("Category", fmt.Sprintf("%s-c%d", ten, i), ten)
		}
		for i, s := range sups {
			supOf[ten+s] = g.node("Supplier", fmt.Sprintf("%s-s%d", ten, i), ten)
		}
		for i := range 9 {
			p := g.node("Product", fmt.Sprintf("%s-pr%d", ten, i), ten)
			products = append(products, p)
			g.rel("PART_OF", p, catOf[ten+cats[r.IntN(len(cats))]])
			g.rel("SUPPLIES", supOf[ten+sups[r.IntN(len(sups))]], p)
		}
		var customers []string
		for i := range 8 {
			customers = append(customers, g.node("Customer", fmt.Sprintf("%s-cu%d", ten, i), ten))
		}
		for i := range 20 {
			o := g.node("Order", fmt.Sprintf("%s-o%02d", ten, i), ten)
			orders = append(orders, o)
			g.rel("PURCHASED", customers[r.IntN(len(customers))], o)
			for range 1 + r.IntN(2) {
				g.rel("ORDERS", o, products[r.IntN(len(products))])
			}
		}
	}
	split := g.node("Person", "split-a", "alice")
	g.rel("ACTED_IN", split, "alice-m0")
	g.rel("DIRECTED", split, "alice-m1")
	cross := g.node("Person", "cross-a", "alice")
	g.rel("ACTED_IN", cross, "bob-m0")
	g.rel("DIRECTED", cross, "bob-m0")
	// One of alice's orders and one of bob's reach bob's Beverages
	// product of Exotic.
	bobBev := g.node("Product", "bob-bev-exotic", "bob")
	g.rel("PART_OF", bobBev, catOf["bobBeverages"])
	g.rel("SUPPLIES", supOf["bobExotic"], bobBev)
	g.rel("ORDERS", "alice-o00", bobBev)
	g.rel("ORDERS", "bob-o01", bobBev)
	bev := g.node("Product", "alice-bev-tokyo", "alice")
	g.rel("PART_OF", bev, catOf["aliceBeverages"])
	g.rel("SUPPLIES", supOf["aliceTokyo"], bev)
	cond := g.node("Product", "alice-cond-exotic", "alice")
	g.rel("PART_OF", cond, catOf["aliceCondiments"])
	g.rel("SUPPLIES", supOf["aliceExotic"], cond)
	two := g.node("Customer", "two-products-a", "alice")
	o := g.node("Order", "two-products-o", "alice")
	g.rel("PURCHASED", two, o)
	g.rel("ORDERS", o, bev)
	g.rel("ORDERS", o, cond)
	apart := g.node("Customer", "two-orders-a", "alice")
	for i, p := range []string{bev, cond} {
		o := g.node("Order", fmt.Sprintf("two-orders-o%d", i), "alice")
		g.rel("PURCHASED", apart, o)
		g.rel("ORDERS", o, p)
	}
	return g
}

// load writes the graph: each node with its unique field and user_id,
// each relationship by its ends' keys.
func (g *patternGraph) load(t *testing.T, d neo4j.DriverWithContext) {
	keys := map[string]string{"Person": "name", "Movie": "title", "Customer": "customerID", "Order": "orderID",
		"Product": "productID", "Category": "categoryName", "Supplier": "companyName"}
	names := map[string]string{}
	for i, c := range []string{"Beverages", "Condiments", "Seafood"} {
		names[fmt.Sprintf("-c%d", i)] = c
	}
	for i, s := range []string{"Exotic", "Tokyo", "Pavlova"} {
		names[fmt.Sprintf("-s%d", i)] = s
	}
	for label, key := range keys {
		var rows []map[string]any
		for k, l := range g.label {
			if l != label {
				continue
			}
			value := k
			if label == "Category" || label == "Supplier" {
				value = names[k[len(g.tenant[k]):]]
			}
			rows = append(rows, map[string]any{"id": k, "value": value, "tenant": g.tenant[k]})
		}
		// The label and key come from this test's table, never from data.
		neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (x:"+label+" {_id: row.id, "+key+": row.value, user_id: row.tenant})", map[string]any{"rows": rows})
	}
	for typ, pairs := range g.rels {
		var rows []map[string]any
		for _, e := range pairs {
			rows = append(rows, map[string]any{"from": e[0], "to": e[1]})
		}
		neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (a {_id: row.from}), (b {_id: row.to}) CREATE (a)-[:"+typ+"]->(b)", map[string]any{"rows": rows})
	}
}

// TestNamedRelationshipTestsOnNeo4j is issue 31's item 4: tests that
// share a name (as) are about one related entity — acted in and directed
// the same movie; ordered a Beverages product of Exotic in one order —
// each answer, for each of two tenants, equal to the one computed in Go
// where every bound node is the tenant's, each statement's plan proven
// scoped to the tenant (scope.Check), and aggregate_entities' COUNT over
// the same conditions equal to the answer's size.
func TestNamedRelationshipTestsOnNeo4j(t *testing.T) {
	g := buildPatternGraph()
	d := neo4jtest.Open(t)
	g.load(t, d)
	f := newFixture(t, "patterns.yaml", tools.Capabilities{})
	run := func(ten, tool, args string) []string {
		st, err := f.plan(tool, args, nil)
		if err != nil {
			t.Fatalf("%s %s: %v", tool, args, err)
		}
		st.Params[tenant.Param] = ten
		provenScoped(t, d, st)
		var out []string
		for _, r := range runPlanned(t, d, st) {
			for _, k := range []string{"id", "value"} {
				if v, ok := r.Get(k); ok {
					out = append(out, fmt.Sprint(v))
				}
			}
		}
		return out
	}
	// where keeps the entities of label in tenant ten that pass keep.
	where := func(label, ten string, keep func(x string) bool) []string {
		var out []string
		for _, x := range g.of(label, ten) {
			if keep(x) {
				out = append(out, x)
			}
		}
		return out
	}
	inCategory := func(ten, p, cat string) bool {
		return slices.ContainsFunc(g.reached("PART_OF", p, ten, true), func(c string) bool { return c == ten+"-c"+cat })
	}
	fromSupplier := func(ten, p, sup string) bool {
		return slices.ContainsFunc(g.reached("SUPPLIES", p, ten, false), func(s string) bool { return s == ten+"-s"+sup })
	}
	// Beverages is c0, Exotic s0 in either tenant.
	bevExotic := func(ten, p string) bool { return inCategory(ten, p, "0") && fromSupplier(ten, p, "0") }
	cases := []struct {
		name, entity, conds string
		want                func(ten, x string) bool
		has, hasNot         []string // alice's answer holds has and none of hasNot
	}{
		{"acted in and directed one movie", "Person", `[{"via":"ACTED_IN","as":"m"},{"via":"DIRECTED","as":"m"}]`,
			func(ten, p string) bool {
				return slices.ContainsFunc(g.reached("ACTED_IN", p, ten, true), func(m string) bool { return g.has("DIRECTED", p, m) })
			}, nil, []string{"split-a", "cross-a"}},
		{"without as, each test on its own", "Person", `[{"via":"ACTED_IN"},{"via":"DIRECTED"}]`,
			func(ten, p string) bool {
				return len(g.reached("ACTED_IN", p, ten, true)) > 0 && len(g.reached("DIRECTED", p, ten, true)) > 0
			}, []string{"split-a"}, []string{"cross-a"}},
		{"acted in a movie they did not direct", "Person", `[{"via":"ACTED_IN","as":"m"},{"via":"DIRECTED","as":"m","quantifier":"none"}]`,
			func(ten, p string) bool {
				return slices.ContainsFunc(g.reached("ACTED_IN", p, ten, true), func(m string) bool { return !g.has("DIRECTED", p, m) })
			}, []string{"split-a"}, []string{"cross-a"}},
		{"acted in a movie whose director acted in it", "Person", `[{"via":"ACTED_IN","as":"m","conditions":[{"via":"DIRECTED","direction":"incoming","conditions":[{"via":"ACTED_IN","as":"m"}]}]}]`,
			func(ten, p string) bool {
				return slices.ContainsFunc(g.reached("ACTED_IN", p, ten, true), func(m string) bool {
					return slices.ContainsFunc(g.reached("DIRECTED", m, ten, false), func(dir string) bool { return g.has("ACTED_IN", dir, m) })
				})
			}, nil, []string{"cross-a"}},
		{"a Beverages product of Exotic in one order", "Customer",
			`[{"via":"PURCHASED","conditions":[{"via":"ORDERS","as":"p","conditions":[{"via":"PART_OF","conditions":[{"field":"categoryName","operator":"=","value":"Beverages"}]}]},{"via":"ORDERS","as":"p","conditions":[{"via":"SUPPLIES","conditions":[{"field":"companyName","operator":"=","value":"Exotic"}]}]}]}]`,
			func(ten, c string) bool {
				return slices.ContainsFunc(g.reached("PURCHASED", c, ten, true), func(o string) bool {
					return slices.ContainsFunc(g.reached("ORDERS", o, ten, true), func(p string) bool { return bevExotic(ten, p) })
				})
			}, nil, []string{"two-products-a", "two-orders-a"}},
		{"a Beverages product and an Exotic product in one order", "Customer",
			`[{"via":"PURCHASED","as":"o","conditions":[{"via":"ORDERS","conditions":[{"via":"PART_OF","conditions":[{"field":"categoryName","operator":"=","value":"Beverages"}]}]}]},{"via":"PURCHASED","as":"o","conditions":[{"via":"ORDERS","conditions":[{"via":"SUPPLIES","conditions":[{"field":"companyName","operator":"=","value":"Exotic"}]}]}]}]`,
			func(ten, c string) bool {
				return slices.ContainsFunc(g.reached("PURCHASED", c, ten, true), func(o string) bool {
					ps := g.reached("ORDERS", o, ten, true)
					return slices.ContainsFunc(ps, func(p string) bool { return inCategory(ten, p, "0") }) &&
						slices.ContainsFunc(ps, func(p string) bool { return fromSupplier(ten, p, "0") })
				})
			}, []string{"two-products-a"}, []string{"two-orders-a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, ten := range []string{"alice", "bob"} {
				want := where(c.entity, ten, func(x string) bool { return c.want(ten, x) })
				got := run(ten, planner.QueryEntities, `{"entity_type":"`+c.entity+`","limit":50,"conditions":`+c.conds+`}`)
				if !slices.Equal(got, want) {
					t.Errorf("%s: got %v, want %v", ten, got, want)
				}
				if len(want) == 0 || len(want) == len(g.of(c.entity, ten)) {
					t.Errorf("%s: the case separates nothing (%d of %d match)", ten, len(want), len(g.of(c.entity, ten)))
				}
				count := run(ten, planner.AggregateEntities, `{"entity_type":"`+c.entity+`","operation":"COUNT","conditions":`+c.conds+`}`)
				if !slices.Equal(count, []string{fmt.Sprint(len(want))}) {
					t.Errorf("%s: COUNT %v, want %d", ten, count, len(want))
				}
				if ten != "alice" {
					continue
				}
				for _, x := range c.has {
					if !slices.Contains(got, x) {
						t.Errorf("alice: %s missing from %v", x, got)
					}
				}
				for _, x := range c.hasNot {
					if slices.Contains(got, x) {
						t.Errorf("alice: %s must not match: %v", x, got)
					}
				}
			}
		})
	}
}

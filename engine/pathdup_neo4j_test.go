package engine_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestPathRelationshipsCountOncePerGroupOnNeo4j: along SUPPLIES then
// ORDERS (each relationship), a last level the planner streams without a
// DISTINCT still counts each order line once per group when several
// paths reach it — S0 supplies one of its products through parallel
// SUPPLIES relationships and S1 supplies it too — per supplier, per order (the
// far end, from every supplier) and overall from a pinned supplier,
// each against the count computed in Go. With a bound exactly the pinned
// supplier's products, whose SUPPLIES relationships the parallel ones
// take over it, the degree store cannot prove the first level uncut: the
// level is read again and found within the bound, so no note; one less,
// and the answer says a level was cut.
//
//	go test ./engine -run TestPathRelationshipsCountOncePerGroupOnNeo4j -v
func TestPathRelationshipsCountOncePerGroupOnNeo4j(t *testing.T) {
	products, lines := northwindLines()
	e, _, d := northwindOrders(t, products, lines)
	supplies := map[string][]string{}
	for _, p := range products {
		supplies[supplierOf(p.id)] = append(supplies[supplierOf(p.id)], p.id)
	}
	// shared is the first of S0's products that has lines: S1 supplies it
	// too, and S0 through parallel relationships.
	i := slices.IndexFunc(lines, func(l orderLine) bool { return supplierOf(l.product) == "S0" })
	if i < 0 {
		t.Fatal("no line orders a product of S0")
	}
	shared := lines[i].product
	supplies["S1"] = append(supplies["S1"], shared)
	parallel := len(products) + len(lines)
	neo4jtest.Run(t, d, `MATCH (s0:Supplier {supplierID: 'S0'}), (s1:Supplier {supplierID: 'S1'}), (p:Product {productID: $p})
		CREATE (s1)-[:SUPPLIES]->(p)
		WITH s0, p UNWIND range(1, $n) AS i CREATE (s0)-[:SUPPLIES]->(p)`, map[string]any{"p": shared, "n": parallel})
	// linesOf counts the lines per key of the lines whose product one of
	// suppliers supplies.
	linesOf := func(suppliers []string, key func(orderLine) string) map[string]float64 {
		out := map[string]float64{}
		for _, l := range lines {
			if slices.ContainsFunc(suppliers, func(s string) bool { return slices.Contains(supplies[s], l.product) }) {
				out[key(l)]++
			}
		}
		return out
	}
	path := `"over":{"path":[{"via":"SUPPLIES"},{"via":"ORDERS","direction":"incoming"}],"each":"relationship"%s}`
	groups := func(r result) map[string]float64 {
		got := map[string]float64{}
		for _, g := range r.Groups {
			got[fmt.Sprint(g.Group)] = g.Value
		}
		return got
	}
	all := slices.Sorted(maps.Keys(supplies))
	byOrder := func(l orderLine) string { return l.order }

	t.Run("per supplier", func(t *testing.T) {
		want := map[string]float64{}
		for _, s := range all {
			if n := linesOf([]string{s}, byOrder); len(n) > 0 {
				for _, c := range n {
					want[s] += c
				}
			}
		}
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Supplier","operation":"COUNT","group_by":"supplierID",`+fmt.Sprintf(path, "")+`,"limit":100}`)
		if got := groups(r); !maps.Equal(got, want) || len(r.Notes) > 0 {
			t.Errorf("lines per supplier: %v, notes %q; want %v", got, r.Notes, want)
		}
	})
	t.Run("per order, from every supplier", func(t *testing.T) {
		want := linesOf(all, byOrder)
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Supplier","operation":"COUNT",`+fmt.Sprintf(path, `,"group_by_related":"orderID"`)+`,"limit":1000}`)
		if got := groups(r); !maps.Equal(got, want) || len(r.Notes) > 0 {
			t.Errorf("lines per order: %v, notes %q; want %v", got, r.Notes, want)
		}
	})
	pinned := func(s, related string) string {
		return `{"entity_type":"Supplier","operation":"COUNT","conditions":[{"field":"supplierID","operator":"=","value":"` + s + `"}],` + fmt.Sprintf(path, related) + `,"limit":1000}`
	}
	t.Run("per order, from a pinned supplier", func(t *testing.T) {
		want := linesOf([]string{"S0"}, byOrder)
		r := execJSON(t, e, planner.AggregateEntities, pinned("S0", `,"group_by_related":"orderID"`))
		if got := groups(r); !maps.Equal(got, want) || len(r.Notes) > 0 {
			t.Errorf("S0's lines per order: %v, notes %q; want %v", got, r.Notes, want)
		}
	})

	s0 := 0.0
	for _, c := range linesOf([]string{"S0"}, byOrder) {
		s0 += c
	}
	m, err := config.Load("../testdata/configs/valid/northwind-orders.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// bounded answers args with a bound of n, after checking that the
	// first level from the pinned supplier is streamed and checked.
	bounded := func(t *testing.T, n int, args string) result {
		t.Helper()
		small, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tools: tools.Options{Aggregations: true, Limits: tools.Limits{MaxExpanded: n}}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := small.Plan(t.Context(), engine.Call{Name: planner.AggregateEntities, Arguments: []byte(args)})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.Cypher, "`level`") || !strings.Contains(b.Cypher, "`deep`") {
			t.Fatalf("the first level from the pinned supplier is not streamed and checked:\n%s", b.Cypher)
		}
		return execJSON(t, small, planner.AggregateEntities, args)
	}
	// none keeps no line: only the first level can be cut.
	none := strings.Replace(pinned("S0", ""), `"direction":"incoming"`, `"direction":"incoming","relationship_conditions":[{"field":"quantity","operator":">","value":1000000}]`, 1)
	products0 := len(supplies["S0"])
	if float64(products0) > s0 || products0+parallel <= int(s0) {
		t.Fatalf("S0 has %d products and %v lines: the bounds below must hold the lines and not the SUPPLIES", products0, s0)
	}
	t.Run("a first level the degrees cannot prove uncut is read again", func(t *testing.T) {
		if r := bounded(t, products0, none); r.Value != 0.0 || len(r.Notes) > 0 {
			t.Errorf("no line with a bound of S0's %d products: %v, notes %q; want 0 and no note", products0, r.Value, r.Notes)
		}
		if r := bounded(t, int(s0), pinned("S0", "")); r.Value != s0 || len(r.Notes) > 0 {
			t.Errorf("S0's lines with a bound of %v: %v, notes %q; want %v and no note", s0, r.Value, r.Notes, s0)
		}
	})
	t.Run("a first level over the bound is cut and says so", func(t *testing.T) {
		if r := bounded(t, products0-1, none); len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "over.path kept") {
			t.Errorf("no line with a bound of %d, one less than S0's products: %v, notes %q; want the cap note", products0-1, r.Value, r.Notes)
		}
	})
	t.Run("a last level over the bound is cut and says so", func(t *testing.T) {
		if r := bounded(t, int(s0)-1, pinned("S0", "")); r.Value != s0-1 || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], fmt.Sprintf("over.path kept %v", s0-1)) {
			t.Errorf("S0's lines with a bound of %v: %v, notes %q; want %v and the cap note", s0-1, r.Value, r.Notes, s0-1)
		}
	})
}

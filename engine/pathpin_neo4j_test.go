package engine_test

import (
	"encoding/json"
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

// pinnedPathArgs is aggregate_entities' call for an aggregate per
// customer (or overall, group "") along PURCHASED then ORDERS to the
// products pinned by their unique field, with over's each and over.field.
func pinnedPathArgs(products []string, each, field, group string) string {
	pin := map[string]any{"field": "productID", "operator": "IN", "value": products}
	if len(products) == 1 {
		pin = map[string]any{"field": "productID", "operator": "=", "value": products[0]}
	}
	over := map[string]any{"path": []any{map[string]any{"via": "PURCHASED"}, map[string]any{"via": "ORDERS", "conditions": []any{pin}}}}
	if each != "" {
		over["each"] = each
	}
	op := "COUNT"
	if field != "" {
		op, over["field"] = "SUM", field
	}
	args := map[string]any{"entity_type": "Customer", "operation": op, "over": over, "limit": 1000}
	if group != "" {
		args["group_by"] = group
	}
	b, _ := json.Marshal(args)
	return string(b)
}

// breadthFirstLines is the statement of pinnedPathArgs(products, "relationship",
// "", "customerID") as the breadth-first levels write it (the form a path
// whose later hop is pinned had before it was matched from the pin), $p0
// the products.
const breadthFirstLines = "MATCH (n:Customer)\nWITH n, n.customerID AS `group`\n" +
	"MATCH (n)-[r0:PURCHASED]->(m0)\nWHERE m0:Order\n" +
	"WITH DISTINCT n, `group`, m0\nLIMIT $expanded_more\nWITH collect([n, `group`, m0]) AS `level`\nUNWIND `level`[..$expanded] AS `row`\n" +
	"WITH `row`[0] AS n, `row`[1] AS `group`, `row`[2] AS m0, size(`level`) > $expanded AS `capped`\n" +
	"MATCH (m0)-[r1:ORDERS]->(m1)\nWHERE m1:Product AND m1.productID = $p0\n" +
	"WITH DISTINCT `group` AS `group`, r1, `capped`\nLIMIT $expanded_more\nWITH `capped`, collect([`group`, r1]) AS `level`\nUNWIND `level`[..$expanded] AS `row`\n" +
	"WITH `row`[0] AS `group`, `row`[1] AS r1, `capped` OR size(`level`) > $expanded AS `capped`\n" +
	"WITH `group`, `capped`, count(r1) AS `value`, count(r1) AS `count`\n" +
	"RETURN `group`, `value`, `count`, `capped` AS capped\nORDER BY `value` DESC, `group`\nSKIP $offset LIMIT $limit"

// fromThePin fails unless st matches its path whole from the pin: the
// start and both hops in MATCH clauses before any WITH, and no level of
// the start's entities gathered before the last.
func fromThePin(t *testing.T, st *planner.Statement) {
	t.Helper()
	if whole, _, _ := strings.Cut(st.Cypher, "\nWITH "); strings.Count(whole, "MATCH ") != 3 || strings.Contains(st.Cypher, "`level`") {
		t.Fatalf("the path is not matched from its pinned hop:\n%s", st.Cypher)
	}
}

// TestPinnedPathAggregatesOnNeo4j: an aggregate along a path whose last
// hop pins its products by their unique field is matched from the pin,
// and answers, on the Northwind-shaped fixture with a long tail of
// customers who bought p6 once, what Go computes from the fixture: lines
// per customer (each relationship), distinct pinned products per customer,
// the SUM of the lines' quantity, and the overall count; the rows equal
// the breadth-first form's, which reads more db hits; and a last level
// over Limits.MaxExpanded is still cut and says so.
//
//	go test ./engine -run TestPinnedPathAggregatesOnNeo4j -v
func TestPinnedPathAggregatesOnNeo4j(t *testing.T) {
	products, lines := northwindLines()
	e, _, d := northwindOrders(t, products, lines)
	tailCustomers(t, d)
	for i := 1; i <= tail; i++ {
		lines = append(lines, orderLine{order: fmt.Sprint("T", i), product: "p6", quantity: 1})
	}
	customer := func(l orderLine) string {
		if strings.HasPrefix(l.order, "T") {
			return l.order
		}
		return customerOf(l.order)
	}
	// want is the answer computed in Go, per customer: the lines of the
	// products, the distinct products, or the lines' quantity summed.
	want := func(ids []string, each, field string) map[string]float64 {
		out := map[string]float64{}
		seen := map[string]bool{}
		for _, l := range lines {
			if !slices.Contains(ids, l.product) {
				continue
			}
			c := customer(l)
			switch {
			case field != "":
				out[c] += float64(l.quantity)
			case each == "relationship":
				out[c]++
			case !seen[c+"/"+l.product]:
				seen[c+"/"+l.product] = true
				out[c]++
			}
		}
		return out
	}
	ctx := t.Context()
	for _, ids := range [][]string{{"p1"}, {"p6"}, {"p2", "p5"}, {"p9"}} {
		for _, c := range []struct{ each, field string }{{"relationship", ""}, {"", ""}, {"relationship", "quantity"}} {
			name := fmt.Sprintf("%v each %q field %q", ids, c.each, c.field)
			args := pinnedPathArgs(ids, c.each, c.field, "customerID")
			st, err := e.Plan(ctx, engine.Call{Name: planner.AggregateEntities, Arguments: json.RawMessage(args)})
			if err != nil {
				t.Fatal(err)
			}
			fromThePin(t, st)
			r := execJSON(t, e, planner.AggregateEntities, args)
			got := map[string]float64{}
			for _, g := range r.Groups {
				got[fmt.Sprint(g.Group)] = g.Value
			}
			w := want(ids, c.each, c.field)
			if !maps.Equal(got, w) || len(r.Notes) > 0 && len(w) > 0 {
				t.Errorf("%s: groups %v, notes %q; want %v", name, got, r.Notes, w)
			}
			// Overall, each entity is a product once, whoever bought it.
			total := 0.0
			for _, v := range w {
				total += v
			}
			if c.each == "" {
				total = 0
				for _, id := range ids {
					if slices.ContainsFunc(lines, func(l orderLine) bool { return l.product == id }) {
						total++
					}
				}
			}
			if c.field == "" {
				if n := execJSON(t, e, planner.AggregateEntities, pinnedPathArgs(ids, c.each, "", "")); n.Value != total {
					t.Errorf("%s overall: %v, want %v", name, n.Value, total)
				}
			}
		}
	}

	args := pinnedPathArgs([]string{"p1"}, "relationship", "", "customerID")
	st, err := e.Plan(ctx, engine.Call{Name: planner.AggregateEntities, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	// The breadth-first form also bounds its levels' lists at one row past
	// the bound.
	levelParams := maps.Clone(st.Params)
	levelParams["expanded_more"] = st.Params["expanded"].(int64) + 1
	if pinned, levels := records(t, d, st.Cypher, st.Params), records(t, d, breadthFirstLines, levelParams); !slices.Equal(pinned, levels) {
		t.Errorf("the pinned statement's rows\n%v\ndiffer from the breadth-first form's\n%v", pinned, levels)
	}
	t.Run("PROFILE", func(t *testing.T) {
		pinned, levels := profiled(t, d, st.Cypher, st.Params), profiled(t, d, breadthFirstLines, levelParams)
		t.Logf("lines of p1 per customer among %d: %d db hits from the pin, %d breadth-first", 5+tail, pinned, levels)
		if pinned >= levels {
			t.Errorf("the pinned statement reads %d db hits, the breadth-first form %d: want fewer", pinned, levels)
		}
	})

	t.Run("a last level over Limits.MaxExpanded is cut and says so", func(t *testing.T) {
		m, err := config.Load("../testdata/configs/valid/northwind-orders.yaml")
		if err != nil {
			t.Fatal(err)
		}
		small, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tools: tools.Options{Aggregations: true, Limits: tools.Limits{MaxExpanded: 30}}})
		if err != nil {
			t.Fatal(err)
		}
		r := execJSON(t, small, planner.AggregateEntities, pinnedPathArgs([]string{"p6"}, "relationship", "", ""))
		if len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "over.path kept 30") || r.Value != 30.0 {
			t.Errorf("a cut pinned path: value %v, notes %q; want 30 lines and the cap note", r.Value, r.Notes)
		}
	})
}

package engine_test

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// wantGroup is one group of an aggregate as Go computes it: its key, value,
// count and the display field asked for ("" when none).
type wantGroup struct {
	key     string
	value   float64
	count   int64
	display string
}

// rankedGroups orders groups as aggregate_entities does: largest value first,
// ties by key.
func rankedGroups(groups map[string]*wantGroup) []wantGroup {
	out := make([]wantGroup, 0, len(groups))
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, *groups[k])
	}
	slices.SortStableFunc(out, func(a, b wantGroup) int {
		if c := cmp.Compare(b.value, a.value); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	return out
}

// checkAnswerGroups compares an answer's groups, in order, with want; display
// names the display field compared ("" for none).
func checkAnswerGroups(t *testing.T, r result, want []wantGroup, display string) {
	t.Helper()
	if len(r.Groups) != len(want) {
		t.Fatalf("%d groups, want %d:\n got %+v\nwant %+v", len(r.Groups), len(want), r.Groups, want)
	}
	for i, g := range r.Groups {
		w := want[i]
		got := fmt.Sprint(g.Group)
		if got != w.key || !closeTo(g.Value, w.value) || g.Count != w.count {
			t.Errorf("group %d: %s = %v (count %d), want %s = %v (count %d)", i, got, g.Value, g.Count, w.key, w.value, w.count)
		}
		if display != "" && fmt.Sprint(g.Display[display]) != w.display {
			t.Errorf("group %s shows %s %v, want %q", got, display, g.Display[display], w.display)
		}
	}
}

// TestAggregatesAlongPathsOnNeo4j is issue 31's item 1 on the
// Northwind-shaped fixture: aggregate_entities' over.path (Supplier
// -SUPPLIES-> Product <-ORDERS- Order <-PURCHASED- Customer and shorter),
// COUNT_DISTINCT of a far-end field, COUNT of relationships (order lines),
// SUM and MAX of a relationship's stored and computed property, AVG of a
// far-end field and groups of the far end with their names, each checked
// against the answer computed in Go from the fixture, with ties, a
// customer without a country and lines whose value is missing.
func TestAggregatesAlongPathsOnNeo4j(t *testing.T) {
	products, lines := northwindLines()
	e, _, d := northwindOrders(t, products, lines)
	country := map[string]string{}
	company := map[string]string{}
	for _, c := range nwCustomers {
		country[c.id], company[c.id] = c.country, c.company
	}
	price := map[string]float64{}
	for _, p := range products {
		price[p.id] = p.price
	}
	// per collects, per key, the distinct items an aggregate counts once.
	per := func(key, item func(orderLine) string) map[string][]string {
		out := map[string][]string{}
		for _, l := range lines {
			k, it := key(l), item(l)
			if k != "" && it != "" && !slices.Contains(out[k], it) {
				out[k] = append(out[k], it)
			}
		}
		return out
	}
	customer := func(l orderLine) string { return customerOf(l.order) }
	lineID := func(l orderLine) string { return l.order + "/" + l.product + "/" + fmt.Sprint(l.quantity) }

	t.Run("COUNT_DISTINCT of customer countries per supplier", func(t *testing.T) {
		want := map[string]*wantGroup{}
		// Of the lines of more than 25 units, so that suppliers differ.
		for s, cs := range per(func(l orderLine) string { return supplierOf(l.product) }, func(l orderLine) string {
			if l.quantity <= 25 {
				return ""
			}
			return customer(l)
		}) {
			var countries []string
			withCountry := int64(0)
			for _, c := range cs {
				if country[c] != "" {
					withCountry++
					if !slices.Contains(countries, country[c]) {
						countries = append(countries, country[c])
					}
				}
			}
			want[s] = &wantGroup{key: s, value: float64(len(countries)), count: withCountry}
		}
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Supplier","operation":"COUNT_DISTINCT","field":"country","group_by":"supplierID","total":true,
			"over":{"path":[{"via":"SUPPLIES"},{"via":"ORDERS","direction":"incoming","relationship_conditions":[{"field":"quantity","operator":">","value":25}]},{"via":"PURCHASED","direction":"incoming"}]}}`)
		checkAnswerGroups(t, r, rankedGroups(want), "")
		total := int64(0)
		for _, g := range want {
			total += g.count
		}
		if r.Total == nil || *r.Total != total {
			t.Errorf("total %v, want %d", r.Total, total)
		}
	})

	t.Run("COUNT of order lines of at most 10% discount per customer", func(t *testing.T) {
		small := func(l orderLine) bool {
			d, err := strconv.ParseFloat(l.discountText, 64)
			return err == nil && d <= 0.1
		}
		want := map[string]*wantGroup{}
		for c, ls := range per(customer, func(l orderLine) string {
			if !small(l) {
				return ""
			}
			return lineID(l)
		}) {
			want[c] = &wantGroup{key: c, value: float64(len(ls)), count: int64(len(ls)), display: company[c]}
		}
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Customer","operation":"COUNT","group_by":"customerID","group_fields":["companyName"],
			"over":{"path":[{"via":"PURCHASED"},{"via":"ORDERS","relationship_conditions":[{"field":"discount","operator":"<=","value":0.1}]}],"each":"relationship"}}`)
		checkAnswerGroups(t, r, rankedGroups(want), "companyName")
		// Counting the products instead counts each once per customer.
		products := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Customer","operation":"COUNT","group_by":"customerID",
			"over":{"path":[{"via":"PURCHASED"},{"via":"ORDERS","relationship_conditions":[{"field":"discount","operator":"<=","value":0.1}]}]}}`)
		distinct := per(customer, func(l orderLine) string {
			if !small(l) {
				return ""
			}
			return l.product
		})
		differ := false
		for _, g := range products.Groups {
			c := fmt.Sprint(g.Group)
			if int(g.Value) != len(distinct[c]) {
				t.Errorf("distinct products of %s's lines: %v, want %d", c, g.Value, len(distinct[c]))
			}
			differ = differ || len(distinct[c]) != int(want[c].value)
		}
		if !differ {
			t.Error("no customer has two such lines of one product: the fixture cannot tell lines from products")
		}
	})

	t.Run("SUM of ORDERS.quantity and MAX of the computed value per customer", func(t *testing.T) {
		sum := map[string]*wantGroup{}
		maxOf := map[string]*wantGroup{}
		for _, l := range lines {
			c := customerOf(l.order)
			if sum[c] == nil {
				sum[c] = &wantGroup{key: c, display: company[c]}
			}
			sum[c].value += float64(l.quantity)
			sum[c].count++
			if l.value == nil {
				continue
			}
			if maxOf[c] == nil {
				maxOf[c] = &wantGroup{key: c, value: *l.value}
			}
			maxOf[c].value = max(maxOf[c].value, *l.value)
			maxOf[c].count++
		}
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Customer","operation":"SUM","group_by":"customerID","group_fields":["companyName"],
			"over":{"path":[{"via":"PURCHASED"},{"via":"ORDERS"}],"field":"quantity"}}`)
		checkAnswerGroups(t, r, rankedGroups(sum), "companyName")
		r = execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Customer","operation":"MAX","group_by":"customerID",
			"over":{"path":[{"via":"PURCHASED"},{"via":"ORDERS"}],"field":"value"}}`)
		checkAnswerGroups(t, r, rankedGroups(maxOf), "")
	})

	t.Run("AVG of the far end's price per customer, each product once", func(t *testing.T) {
		// Products of the lines of more than 20 units; the averages tie
		// or nearly tie (float sums in another order), so the groups are
		// compared by key.
		want := map[string]*wantGroup{}
		for c, ps := range per(customer, func(l orderLine) string {
			if l.quantity <= 20 {
				return ""
			}
			return l.product
		}) {
			g := &wantGroup{key: c, count: int64(len(ps))}
			for _, p := range ps {
				g.value += price[p] / float64(len(ps))
			}
			want[c] = g
		}
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Customer","operation":"AVG","field":"unitPrice","group_by":"customerID",
			"over":{"path":[{"via":"PURCHASED"},{"via":"ORDERS","relationship_conditions":[{"field":"quantity","operator":">","value":20}]}]}}`)
		slices.SortFunc(r.Groups, func(a, b answerGroup) int { return cmp.Compare(fmt.Sprint(a.Group), fmt.Sprint(b.Group)) })
		var byKey []wantGroup
		for _, k := range slices.Sorted(maps.Keys(want)) {
			byKey = append(byKey, *want[k])
		}
		checkAnswerGroups(t, r, byKey, "")
	})

	t.Run("lines per product of the customers in Germany, grouped by the far end", func(t *testing.T) {
		want := map[string]*wantGroup{}
		for _, l := range lines {
			if country[customerOf(l.order)] != "Germany" {
				continue
			}
			if want[l.product] == nil {
				want[l.product] = &wantGroup{key: l.product, display: "name of " + l.product}
			}
			want[l.product].value++
			want[l.product].count++
		}
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Customer","operation":"COUNT","conditions":[{"field":"country","operator":"=","value":"Germany"}],
			"over":{"path":[{"via":"PURCHASED"},{"via":"ORDERS"}],"group_by_related":"productID","each":"relationship"},"group_fields":["productName"]}`)
		checkAnswerGroups(t, r, rankedGroups(want), "productName")
	})

	t.Run("orders of a supplier's products per year, a far-end datetime bucket", func(t *testing.T) {
		years := map[string]float64{}
		for _, o := range per(func(l orderLine) string { return supplierOf(l.product) }, func(l orderLine) string { return l.order })["S0"] {
			n, _ := strconv.Atoi(o)
			_, y := orderDate(n - 10248)
			k := "<nil>"
			if y != nil {
				k = fmt.Sprint(*y)
			}
			years[k]++
		}
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Supplier","operation":"COUNT","conditions":[{"field":"supplierID","operator":"=","value":"S0"}],
			"over":{"path":[{"via":"SUPPLIES"},{"via":"ORDERS","direction":"incoming"}],"group_by_related":"orderDate"},"bucket":"year"}`)
		got := map[string]float64{}
		for _, g := range r.Groups {
			got[fmt.Sprint(g.Group)] = g.Value
		}
		if len(years) < 2 || !maps.Equal(got, years) {
			t.Errorf("S0's orders per year: %v, want %v", got, years)
		}
	})

	t.Run("a level over Limits.MaxExpanded is cut and says so", func(t *testing.T) {
		// 20 (customer, order) pairs, then 40 (customer, line) rows: a
		// bound of 30 keeps the first level whole and cuts the second.
		m, err := config.Load("../testdata/configs/valid/northwind-orders.yaml")
		if err != nil {
			t.Fatal(err)
		}
		small, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tools: tools.Options{Aggregations: true, Limits: tools.Limits{MaxExpanded: 30}}})
		if err != nil {
			t.Fatal(err)
		}
		args := `{"entity_type":"Customer","operation":"COUNT","over":{"path":[{"via":"PURCHASED"},{"via":"ORDERS"}],"each":"relationship"}}`
		r := execJSON(t, small, planner.AggregateEntities, args)
		if len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "over.path kept 30") || r.Value != 30.0 {
			t.Errorf("a cut path: value %v, notes %q; want 30 lines and the cap note", r.Value, r.Notes)
		}
		if r = execJSON(t, e, planner.AggregateEntities, args); len(r.Notes) > 0 || r.Value != float64(len(lines)) {
			t.Errorf("an uncut path: value %v, notes %q; want %d lines", r.Value, r.Notes, len(lines))
		}
	})

	t.Run("a group by a far-end field that is missing", func(t *testing.T) {
		// The customers every supplier reaches, per country: each once
		// however many suppliers lead to it, C4's under null.
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Supplier","operation":"COUNT",
			"over":{"path":[{"via":"SUPPLIES"},{"via":"ORDERS","direction":"incoming"},{"via":"PURCHASED","direction":"incoming"}],"group_by_related":"country"}}`)
		got := map[string]float64{}
		for _, g := range r.Groups {
			got[fmt.Sprint(g.Group)] = g.Value
		}
		wantCustomers := map[string]float64{}
		for _, c := range nwCustomers {
			k := c.country
			if k == "" {
				k = "<nil>"
			}
			wantCustomers[k]++
		}
		if !maps.Equal(got, wantCustomers) {
			t.Errorf("customers per country reached from suppliers: %v, want %v", got, wantCustomers)
		}
	})
}

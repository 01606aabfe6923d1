package engine_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// orderLine is one ORDERS relationship of the Northwind-shaped fixture as
// stored (unitPrice and discount as text, "NULL" for none) and the Go
// meaning of its computed fields.
type orderLine struct {
	order, product          string
	quantity                int64
	priceText, discountText string
	flags                   []string
	value                   *float64 // quantity * unitPrice * (1 - discount)
	belowList               *bool    // unitPrice < the product's unitPrice
}

// orderDate is the text orderDate of order 10248+i, as Northwind's CSV
// writes it, "NULL" for every sixth order; orderYear its year.
func orderDate(i int) (text string, year *int64) {
	if i%6 == 5 {
		return "NULL", nil
	}
	d := time.Date(1996, 7, 4, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 37*i)
	y := int64(d.Year())
	return d.Format("2006-01-02 15:04:05.000"), &y
}

// nwProduct is a Product of the fixture: a number price and a list of tags.
type nwProduct struct {
	id    string
	price float64
	tags  []string
}

// northwindLines builds the fixture: 5 customers, 20 orders (order i
// belongs to customer i%5), 2 lines each over 6 products, prices and
// discounts in the forms Northwind's CSVs leave ("14", "9.80", "0.05",
// "0") with a "NULL" every seventh price and every eleventh discount.
func northwindLines() ([]nwProduct, []orderLine) {
	products := []nwProduct{
		{"p1", 18, []string{"beverage"}}, {"p2", 19, []string{"beverage", "organic"}}, {"p3", 10, nil},
		{"p4", 22, []string{"condiment"}}, {"p5", 21.35, []string{"organic"}}, {"p6", 25, []string{}},
	}
	discounts := []string{"0", "0.05", "0.1", "0.15", "0.2", "0.25"}
	var lines []orderLine
	for i := range 20 {
		for j := range 2 {
			k := i*2 + j
			p := products[(i+3*j)%len(products)]
			l := orderLine{order: fmt.Sprint(10248 + i), product: p.id, quantity: int64(1 + (k*7)%40)}
			price := p.price * []float64{1, 0.8, 1.1, 0.95}[k%4]
			l.priceText = strconv.FormatFloat(price, 'f', 2, 64)
			if k%3 == 0 {
				l.priceText = strconv.FormatFloat(price, 'f', -1, 64)
			}
			l.discountText = discounts[k%len(discounts)]
			if k%7 == 3 {
				l.priceText = "NULL"
			}
			if k%11 == 5 {
				l.discountText = "NULL"
			}
			l.flags = [][]string{{}, {"rush"}, {"gift", "rush"}, {"gift"}}[k%4]
			if l.priceText != "NULL" {
				pr, _ := strconv.ParseFloat(l.priceText, 64)
				below := pr < p.price
				l.belowList = &below
				if l.discountText != "NULL" {
					d, _ := strconv.ParseFloat(l.discountText, 64)
					v := float64(l.quantity) * pr * (1 - d)
					l.value = &v
				}
			}
			lines = append(lines, l)
		}
	}
	return products, lines
}

// customerOf is the customer of order id: order 10248+i belongs to C<i%5>.
func customerOf(order string) string {
	n, _ := strconv.Atoi(order)
	return "C" + strconv.Itoa((n-10248)%5)
}

// nwCustomers are the fixture's customers: company names, and countries
// with a tie (two in Germany) and one customer without a country.
var nwCustomers = []struct{ id, company, country string }{
	{"C0", "Alfreds", "Germany"}, {"C1", "Bon app", "France"}, {"C2", "Blauer See", "Germany"}, {"C3", "Around the Horn", "UK"}, {"C4", "Nameless", ""},
}

// supplierOf is the supplier of product p<i>: S<i%3> (S3 supplies none).
func supplierOf(product string) string {
	i, _ := strconv.Atoi(product[1:])
	return "S" + strconv.Itoa(i%3)
}

// storeOrderLines writes products and lines into the test database as
// the northwind-orders config reads them: products (each from
// supplierOf), customers (nwCustomers, and any other customerOf names),
// the orders they PURCHASED and each order's lines, ORDERS relationships
// to products.
func storeOrderLines(t *testing.T, d neo4j.DriverWithContext, products []nwProduct, lines []orderLine) {
	t.Helper()
	var prows, lrows, crows []map[string]any
	for _, p := range products {
		prows = append(prows, map[string]any{"id": p.id, "price": p.price, "tags": p.tags, "supplier": supplierOf(p.id)})
	}
	for _, c := range nwCustomers {
		row := map[string]any{"id": c.id, "company": c.company}
		if c.country != "" {
			row["country"] = c.country
		}
		crows = append(crows, row)
	}
	for _, l := range lines {
		n, _ := strconv.Atoi(l.order)
		date, _ := orderDate(n - 10248)
		lrows = append(lrows, map[string]any{"order": l.order, "customer": customerOf(l.order), "product": l.product, "date": date,
			"quantity": l.quantity, "price": l.priceText, "discount": l.discountText, "flags": l.flags})
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS row CREATE (p:Product {productID: row.id, productName: 'name of ' + row.id, unitPrice: row.price, tags: row.tags})
		MERGE (s:Supplier {supplierID: row.supplier}) SET s.companyName = 'Supplier ' + row.supplier
		CREATE (s)-[:SUPPLIES]->(p)`, map[string]any{"rows": prows})
	neo4jtest.Run(t, d, "CREATE (:Supplier {supplierID: 'S3', companyName: 'Supplier S3'})", nil)
	neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (c:Customer {customerID: row.id, companyName: row.company}) SET c.country = row.country", map[string]any{"rows": crows})
	neo4jtest.Run(t, d, `UNWIND $rows AS row
		MERGE (c:Customer {customerID: row.customer})
		MERGE (o:Order {orderID: row.order}) SET o.customerID = row.customer, o.orderDate = row.date
		MERGE (c)-[:PURCHASED]->(o)
		WITH row, o MATCH (p:Product {productID: row.product})
		CREATE (o)-[:ORDERS {quantity: row.quantity, unitPrice: row.price, discount: row.discount, flags: row.flags}]->(p)`, map[string]any{"rows": lrows})
}

// northwindOrders stores products and lines in the test database
// (storeOrderLines) and returns an engine over northwind-orders.yaml with
// its computed fields, the compiled model and the driver.
func northwindOrders(t *testing.T, products []nwProduct, lines []orderLine) (*engine.Engine, *computed.Model, neo4j.DriverWithContext) {
	t.Helper()
	d := neo4jtest.Open(t)
	storeOrderLines(t, d, products, lines)
	m, err := config.Load("../testdata/configs/valid/northwind-orders.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cm, err := computed.CompileModel(m)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Computed: cm, Tools: tools.Options{Aggregations: true}})
	if err != nil {
		t.Fatal(err)
	}
	return e, cm, d
}

// TestRelationshipComputedFieldsOnNeo4j is issue 30's item 3 on a
// Northwind-shaped graph: ORDERS holds quantity beside unitPrice and
// discount as text (with "NULL" markers), and the computed value =
// quantity * unitPrice * (1 - discount) is tested in relationship_conditions,
// sorted by in query_relationships and summed per customer by
// aggregate_entities' over.field, each answer checked against the values
// computed in Go from the fixture and against package computed's own Go
// evaluation.
func TestRelationshipComputedFieldsOnNeo4j(t *testing.T) {
	products, lines := northwindLines()
	e, cm, _ := northwindOrders(t, products, lines)
	value := cm.Relationship("ORDERS").Field("value")

	t.Run("relationship_conditions", func(t *testing.T) {
		const over = 300.0
		var want []string
		for _, l := range lines {
			if l.value != nil && *l.value > over && !slices.Contains(want, l.order) {
				want = append(want, l.order)
			}
		}
		slices.Sort(want)
		r := execJSON(t, e, planner.QueryEntities, fmt.Sprintf(`{"entity_type":"Order","conditions":[{"via":"ORDERS","relationship_conditions":[{"field":"value","operator":">","value":%v}]}],"limit":50}`, over))
		var got []string
		for _, x := range r.Entities {
			got = append(got, fmt.Sprint(x.ID))
		}
		if len(want) == 0 || len(want) == 20 {
			t.Fatalf("the fixture leaves %d of 20 orders with a line over %v; the test needs some on each side", len(want), over)
		}
		if !slices.Equal(got, want) {
			t.Errorf("orders with a line of value > %v: %v, want %v", over, got, want)
		}
	})

	t.Run("query_relationships order_by", func(t *testing.T) {
		res, err := e.Execute(context.Background(), engine.Call{Name: planner.QueryRelationships, Arguments: json.RawMessage(`{"relationship_type":"ORDERS","order_by":[{"field":"value","direction":"DESC"}],"limit":50}`)})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Relationships) != len(lines) {
			t.Fatalf("%d lines, want %d", len(res.Relationships), len(lines))
		}
		want := slices.Clone(lines)
		slices.SortStableFunc(want, func(a, b orderLine) int {
			switch {
			case a.value == nil || b.value == nil:
				return cmp.Compare(boolInt(a.value == nil), boolInt(b.value == nil))
			}
			return cmp.Compare(*b.value, *a.value)
		})
		for i, rel := range res.Relationships {
			// from.orderDate, text with NULL markers, read by the end.
			n, _ := strconv.Atoi(fmt.Sprint(rel.From.ID))
			_, year := orderDate(n - 10248)
			if y := rel.Properties["orderYear"]; (year == nil) != (y == nil) || year != nil && y != *year {
				t.Errorf("orderYear of %v's line: %v, want %v", rel.From.ID, y, deref64(year))
			}
			got := rel.Properties["value"]
			w := want[i].value
			if (w == nil) != (got == nil) || w != nil && !closeTo(got, *w) {
				t.Errorf("line %d by value: %v, want %v", i, got, deref(w))
			}
			// Package computed's Go evaluation of the stored properties
			// gives what Neo4j gave.
			props := map[string]any{}
			for _, k := range []string{"quantity", "unitPrice", "discount"} {
				props[k] = rel.Properties[k]
			}
			ev, err := value.Eval(props)
			if err != nil {
				t.Fatal(err)
			}
			if (ev == nil) != (got == nil) || ev != nil && !closeTo(got, ev.(float64)) {
				t.Errorf("line %d: Neo4j gave %v, computed.Eval %v (%v)", i, got, ev, props)
			}
		}
	})

	t.Run("belowList reads the product", func(t *testing.T) {
		want := 0
		for _, l := range lines {
			if l.belowList != nil && *l.belowList {
				want++
			}
		}
		res, err := e.Execute(context.Background(), engine.Call{Name: planner.QueryRelationships, Arguments: json.RawMessage(`{"relationship_type":"ORDERS","conditions":[{"field":"belowList","operator":"=","value":true}],"limit":50}`)})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Relationships) != want || want == 0 {
			t.Errorf("lines sold below list price: %d, want %d", len(res.Relationships), want)
		}
	})

	t.Run("SUM per customer", func(t *testing.T) {
		want := map[string]float64{}
		for _, l := range lines {
			if l.value != nil {
				want[customerOf(l.order)] += *l.value
			}
		}
		r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Order","operation":"SUM","group_by":"customerID","over":{"via":"ORDERS","field":"value"}}`)
		if len(r.Groups) != len(want) {
			t.Fatalf("%d groups, want %d: %+v", len(r.Groups), len(want), r.Groups)
		}
		for _, g := range r.Groups {
			c, _ := g.Group.(string)
			if !closeTo(g.Value, want[c]) {
				t.Errorf("SUM of value for %s: %v, want %v", c, g.Value, want[c])
			}
		}
	})

	t.Run("lists on the relationship and the node", func(t *testing.T) {
		var rush, twoFlags, organic []string
		for _, l := range lines {
			if slices.Contains(l.flags, "rush") && !slices.Contains(rush, l.order) {
				rush = append(rush, l.order)
			}
			if len(l.flags) == 2 && !slices.Contains(twoFlags, l.order) {
				twoFlags = append(twoFlags, l.order)
			}
		}
		for _, p := range products {
			if slices.Contains(p.tags, "organic") {
				organic = append(organic, p.id)
			}
		}
		slices.Sort(rush)
		slices.Sort(twoFlags)
		ids := func(r result) []string {
			var out []string
			for _, x := range r.Entities {
				out = append(out, fmt.Sprint(x.ID))
			}
			return out
		}
		if got := ids(execJSON(t, e, planner.QueryEntities, `{"entity_type":"Order","conditions":[{"via":"ORDERS","relationship_conditions":[{"field":"flags","operator":"CONTAINS","value":"rush"}]}],"limit":50}`)); !slices.Equal(got, rush) {
			t.Errorf("orders with a rush line: %v, want %v", got, rush)
		}
		if got := ids(execJSON(t, e, planner.QueryEntities, `{"entity_type":"Order","conditions":[{"via":"ORDERS","relationship_conditions":[{"field":"flags","operator":"SIZE =","value":2}]}],"limit":50}`)); !slices.Equal(got, twoFlags) {
			t.Errorf("orders with a line of two flags: %v, want %v", got, twoFlags)
		}
		if got := ids(execJSON(t, e, planner.QueryEntities, `{"entity_type":"Product","conditions":[{"field":"tags","operator":"CONTAINS","value":"organic"}]}`)); !slices.Equal(got, organic) {
			t.Errorf("organic products: %v, want %v", got, organic)
		}
	})
}

func deref64(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// closeTo compares a JSON or driver number with want, to the last bits a
// different summation order changes.
func closeTo(got any, want float64) bool {
	var g float64
	switch x := got.(type) {
	case float64:
		g = x
	case int64:
		g = float64(x)
	default:
		return false
	}
	return math.Abs(g-want) <= 1e-9*math.Max(1, math.Abs(want))
}

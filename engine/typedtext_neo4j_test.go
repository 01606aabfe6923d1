package engine_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/planner"
)

// textOrdersConfig declares Northwind-shaped text fields as their types;
// orderDay stays a string that a computed field casts.
const textOrdersConfig = `
name: text-orders
version: 1.0.0
entities:
  - name: Order
    unique_field: orderID
    searchable_fields:
      - {name: orderID, type: string}
      - {name: freight, type: number, stored_as: text, null_values: ["NULL", ""]}
      - {name: shipVia, type: integer, stored_as: text}
      - {name: shippedDate, type: datetime, stored_as: text, null_values: ["NULL", ""]}
      - {name: orderDay, type: string}
      - {name: requiredDate, type: datetime, stored_as: text, layout: "02/01/2006", null_values: ["NULL"]}
    computed_fields:
      - {name: days_to_ship, type: integer, expression: 'days_between(to_datetime(orderDay), shippedDate)'}
      - {name: freight_cents, type: integer, expression: 'to_int(orderID) % 2 == 0 ? 0 : shipVia * 100'}
    relationships:
      - type: ORDERS
        target: Product
        properties:
          - {name: unitPrice, type: number, stored_as: text}
          - {name: quantity, type: integer}
  - name: Product
    unique_field: productID
    searchable_fields:
      - {name: productID, type: string}
`

// textOrder is one Order as stored (texts) and as meant (nil for null).
type textOrder struct {
	id, freightText, shippedText, orderDay string
	shipVia                                int64
	freight                                *float64
	shipped, required                      *time.Time
	requiredText                           string
	prices                                 []string // its lines' unitPrice texts, one per product
}

// randomTextOrders writes freight and shipping dates in the forms a CSV
// load leaves (2 decimals or none, a space or T, a fraction or a date
// alone) and the markers "NULL" and "".
func randomTextOrders(rng *rand.Rand, n int) []textOrder {
	base := time.Date(1996, 7, 1, 0, 0, 0, 0, time.UTC)
	var out []textOrder
	for i := range n {
		o := textOrder{id: fmt.Sprint(10248 + i), shipVia: int64(i%3 + 1)}
		switch i % 9 {
		case 4:
			o.freightText = "NULL"
		case 7:
			o.freightText = ""
		default:
			cents := rng.IntN(20000)
			f := float64(cents) / 100
			o.freight = &f
			o.freightText = fmt.Sprintf("%.2f", f)
			if i%5 == 0 {
				o.freightText = fmt.Sprint(f)
			}
		}
		ordered := base.Add(time.Duration(rng.IntN(120)) * 24 * time.Hour)
		o.orderDay = ordered.Format("2006-01-02")
		o.requiredText = "NULL"
		if i%10 != 2 {
			r := ordered.AddDate(0, 0, rng.IntN(40))
			o.required, o.requiredText = &r, r.Format("02/01/2006")
		}
		switch i % 8 {
		case 3:
			o.shippedText = "NULL"
		case 6:
			o.shippedText = ""
		default:
			s := ordered.Add(time.Duration(rng.IntN(30*24)) * time.Hour)
			if i%4 == 0 {
				s = s.Add(123 * time.Millisecond)
			}
			o.shipped = &s
			o.shippedText = s.Format([]string{"2006-01-02 15:04:05.000", "2006-01-02T15:04:05.000", "2006-01-02 15:04:05.000"}[i%3])
			if s.Hour() == 0 && s.Nanosecond() == 0 {
				o.shippedText = s.Format("2006-01-02")
			}
		}
		for p := range 3 {
			o.prices = append(o.prices, fmt.Sprintf("%d.%02d", rng.IntN(40)+p, rng.IntN(100)))
		}
		out = append(out, o)
	}
	return out
}

// TestFieldsHeldAsTextAnswerAsTheirTypes: numbers and datetimes stored as
// text, with "NULL" and "" markers, are filtered, sorted, aggregated and
// bucketed on Neo4j as numbers and instants, relationship properties too,
// and the casts of a computed field read them; every answer equals the
// one computed in Go from the meant values.
func TestFieldsHeldAsTextAnswerAsTheirTypes(t *testing.T) {
	d := neo4jtest.Open(t)
	orders := randomTextOrders(rand.New(rand.NewPCG(30, 1)), 72)
	var rows []map[string]any
	for _, o := range orders {
		rows = append(rows, map[string]any{"id": o.id, "freight": o.freightText, "via": fmt.Sprint(o.shipVia), "shipped": o.shippedText, "day": o.orderDay, "req": o.requiredText, "prices": o.prices})
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS r
		CREATE (o:Order {orderID: r.id, freight: r.freight, shipVia: r.via, shippedDate: r.shipped, orderDay: r.day, requiredDate: r.req})
		WITH o, r UNWIND range(0, size(r.prices) - 1) AS p
		MERGE (pr:Product {productID: toString(p)})
		CREATE (o)-[:ORDERS {unitPrice: r.prices[p], quantity: p + 1}]->(pr)`, map[string]any{"rows": rows})
	e := aggregatingEngine(t, d, "text-orders.yaml", textOrdersConfig, engine.Options{})

	pivot := time.Date(1996, 8, 1, 0, 0, 0, 0, time.UTC)
	ids := func(keep func(o textOrder) bool, less func(a, b textOrder) int) []string {
		var sel []textOrder
		for _, o := range orders {
			if keep(o) {
				sel = append(sel, o)
			}
		}
		slices.SortStableFunc(sel, func(a, b textOrder) int { return cmp.Or(less(a, b), cmp.Compare(a.id, b.id)) })
		out := []string{}
		for _, o := range sel[:min(50, len(sel))] {
			out = append(out, o.id)
		}
		return out
	}
	query := func(args string) []string {
		return execJSON(t, e, planner.QueryEntities, `{"entity_type":"Order",`+args+`,"limit":50}`).ids()
	}
	byID := func(a, b textOrder) int { return 0 }

	same(t, "shipped on or after 1996-08-01 (a date-only bound), freight > 20, largest freight first",
		query(`"conditions":[{"field":"shippedDate","operator":">=","value":"1996-08-01"},{"field":"freight","operator":">","value":20}],"order_by":{"field":"freight","direction":"DESC"}`),
		ids(func(o textOrder) bool {
			return o.shipped != nil && !o.shipped.Before(pivot) && o.freight != nil && *o.freight > 20
		},
			func(a, b textOrder) int { return cmp.Compare(*b.freight, *a.freight) }))
	same(t, "shippedDate ascending, markers last", query(`"order_by":[{"field":"shippedDate"},{"field":"orderID"}]`),
		ids(func(o textOrder) bool { return true }, func(a, b textOrder) int {
			switch {
			case a.shipped == nil || b.shipped == nil:
				return cmp.Compare(boolInt(a.shipped == nil), boolInt(b.shipped == nil))
			}
			return a.shipped.Compare(*b.shipped)
		}))
	same(t, "required before 1996-09-01 in the layout 02/01/2006, latest first",
		query(`"conditions":[{"field":"requiredDate","operator":"<","value":"1996-09-01"}],"order_by":[{"field":"requiredDate","direction":"DESC"}]`),
		ids(func(o textOrder) bool { return o.required != nil && o.required.Before(pivot.AddDate(0, 1, 0)) },
			func(a, b textOrder) int { return b.required.Compare(*a.required) }))
	same(t, "freight IS NULL (the markers)", query(`"conditions":[{"field":"freight","operator":"IS NULL"}],"order_by":{"field":"orderID"}`),
		ids(func(o textOrder) bool { return o.freight == nil }, byID))
	same(t, "shipVia IN [1, 3] (integers held as text)", query(`"conditions":[{"field":"shipVia","operator":"IN","value":[1, 3]}],"order_by":{"field":"orderID"}`),
		ids(func(o textOrder) bool { return o.shipVia != 2 }, byID))
	same(t, "days_to_ship > 10 (to_datetime of orderDay against the text shippedDate)",
		query(`"conditions":[{"field":"days_to_ship","operator":">","value":10}],"order_by":{"field":"orderID"}`),
		ids(func(o textOrder) bool {
			day, _, _ := textvalue.ParseDatetime(o.orderDay)
			return o.shipped != nil && int64(o.shipped.Sub(day)/time.Millisecond)/86400000 > 10
		}, byID))

	// Aggregates read the numbers; the markers are nulls, which they skip.
	var sum float64
	var n, shippedLate int
	months := map[any]float64{}
	for _, o := range orders {
		if o.freight != nil {
			sum += *o.freight
			n++
		}
		if o.shipped != nil {
			months[o.shipped.Format("2006-01")]++
			if !o.shipped.Before(pivot) {
				shippedLate++
			}
		}
	}
	value := func(args string) float64 {
		v, _ := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Order",`+args+`}`).Value.(float64)
		return v
	}
	if got := value(`"operation":"SUM","field":"freight"`); fmt.Sprintf("%.2f", got) != fmt.Sprintf("%.2f", sum) {
		t.Errorf("SUM freight = %v, want %.2f", got, sum)
	}
	if got := value(`"operation":"AVG","field":"freight"`); fmt.Sprintf("%.6f", got) != fmt.Sprintf("%.6f", sum/float64(n)) {
		t.Errorf("AVG freight = %v, want %v", got, sum/float64(n))
	}
	if got := value(`"operation":"COUNT","conditions":[{"field":"shippedDate","operator":">=","value":"1996-08-01T00:00:00Z"}]`); got != float64(shippedLate) {
		t.Errorf("COUNT shipped from August = %v, want %d", got, shippedLate)
	}
	args := `{"entity_type":"Order","operation":"COUNT","group_by":"shippedDate","bucket":"month","conditions":[{"field":"shippedDate","operator":"IS NOT NULL"}],"limit":50}`
	if got, _ := groupsOf(t, e, args); !slices.Equal(got, ranked(months)) {
		t.Errorf("%s:\n got %v\nwant %v", args, got, ranked(months))
	}

	// A relationship property held as text compares as a number.
	var lines []float64
	for _, o := range orders {
		for _, p := range o.prices {
			if v, _ := textvalue.ParseNumber(p, false); v.(float64) > 20 {
				lines = append(lines, v.(float64))
			}
		}
	}
	slices.SortFunc(lines, func(a, b float64) int { return cmp.Compare(b, a) })
	r, err := e.Execute(t.Context(), engine.Call{Name: planner.QueryRelationships, Arguments: json.RawMessage(`{"relationship_type":"ORDERS","conditions":[{"field":"unitPrice","operator":">","value":20}],"order_by":[{"field":"unitPrice","direction":"DESC"}],"limit":50}`)})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Relationships []struct {
			Properties map[string]any `json:"properties"`
		} `json:"relationships"`
	}
	b, _ := json.Marshal(r)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	var prices []float64
	for _, rel := range got.Relationships {
		// Results show the stored text; the order is the numbers'.
		s, _ := rel.Properties["unitPrice"].(string)
		v, _ := textvalue.ParseNumber(s, false)
		f, _ := v.(float64)
		prices = append(prices, f)
	}
	if want := lines[:min(50, len(lines))]; !slices.Equal(prices, want) {
		t.Errorf("ORDERS with unitPrice > 20, highest first:\n got %v\nwant %v", prices, want)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

package engine_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// aggRanked is one entity of a query_entities answer aggRanked by an aggregate
// test: its id, its aggregates and its include lists.
type aggRanked struct {
	ID         any                         `json:"id"`
	Aggregates map[string]any              `json:"aggregates"`
	Related    map[string][]map[string]any `json:"related"`
}

// rankedCall runs query_entities with args (in ctx, for a tenant) and
// returns its entities and notes.
func rankedCall(t *testing.T, ctx context.Context, e *engine.Engine, args string) ([]aggRanked, []string) {
	t.Helper()
	res, err := e.Execute(ctx, engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s: %v", args, err)
	}
	b, _ := json.Marshal(res)
	var out struct {
		Entities []aggRanked `json:"entities"`
		Notes    []string    `json:"notes"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out.Entities, out.Notes
}

// want is an entity's expected aggregate: nil where it has none.
type aggWant struct {
	id    string
	value *float64
}

// rankWant orders ws as the tool must: by value (descending when desc),
// entities without one last, ties by id ascending.
func rankWant(ws []aggWant, desc bool) {
	slices.SortFunc(ws, func(a, b aggWant) int {
		switch {
		case a.value == nil || b.value == nil:
			if c := cmp.Compare(boolInt(a.value == nil), boolInt(b.value == nil)); c != 0 {
				return c
			}
		case *a.value != *b.value:
			if desc {
				return cmp.Compare(*b.value, *a.value)
			}
			return cmp.Compare(*a.value, *b.value)
		}
		return strings.Compare(a.id, b.id)
	})
}

// checkRanked compares an answer's ids and aggregate key with ws, in
// order, and reports whether ws holds a tie and an entity without value
// (so the test proves the tie-break and the nulls' place).
func checkRanked(t *testing.T, got []aggRanked, key string, ws []aggWant) (ties, nulls bool) {
	t.Helper()
	if len(got) != len(ws) {
		t.Fatalf("%d entities, want %d", len(got), len(ws))
	}
	for i, w := range ws {
		g := got[i]
		v, has := g.Aggregates[key]
		if fmt.Sprint(g.ID) != w.id || !has || (w.value == nil) != (v == nil) || w.value != nil && !closeTo(v, *w.value) {
			t.Errorf("rank %d: %v with %s = %v, want %s with %v", i, g.ID, key, v, w.id, deref(w.value))
		}
		nulls = nulls || w.value == nil
		ties = ties || i > 0 && w.value != nil && ws[i-1].value != nil && *w.value == *ws[i-1].value
	}
	return ties, nulls
}

func ptr(x float64) *float64 { return &x }

// TestQueryEntitiesRanksByRelatedAggregatesOnMovies is issue 31's item 2
// on the movies graph, each answer computed in Go from
// testdata/movies/movies.json: "movies by average review rating" (AVG
// of a relationship property; the movies nobody reviewed have no value,
// come last and are said so) and "directors aggRanked by number of films,
// with the titles" (COUNT of related entities as a test and a sort,
// include listing the titles), each one call, ties broken by the unique
// field.
func TestQueryEntitiesRanksByRelatedAggregatesOnMovies(t *testing.T) {
	d := neo4jtest.Open(t)
	raw, err := os.ReadFile("../testdata/movies/movies.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Movies   []map[string]any `json:"movies"`
		People   []map[string]any `json:"people"`
		Directed []struct{ Person, Movie string }
		Reviewed []struct {
			Person, Movie string
			Rating        float64
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&g); err != nil {
		t.Fatal(err)
	}
	// Integers stay integers in Neo4j.
	ints := func(rows []map[string]any) []map[string]any {
		for _, r := range rows {
			for k, v := range r {
				if n, ok := v.(json.Number); ok {
					r[k], _ = n.Int64()
				}
			}
		}
		return rows
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (m:Movie) SET m = row", map[string]any{"rows": ints(g.Movies)})
	neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (p:Person) SET p = row", map[string]any{"rows": ints(g.People)})
	var dirs, revs []map[string]any
	for _, x := range g.Directed {
		dirs = append(dirs, map[string]any{"person": x.Person, "movie": x.Movie})
	}
	for _, x := range g.Reviewed {
		revs = append(revs, map[string]any{"person": x.Person, "movie": x.Movie, "rating": int64(x.Rating)})
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (p:Person {name: row.person}), (m:Movie {title: row.movie}) CREATE (p)-[:DIRECTED]->(m)", map[string]any{"rows": dirs})
	neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (p:Person {name: row.person}), (m:Movie {title: row.movie}) CREATE (p)-[:REVIEWED {rating: row.rating}]->(m)", map[string]any{"rows": revs})
	e := newEngine(t, d, "../testdata/configs/valid/movies.yaml", engine.Options{})
	ctx := context.Background()

	t.Run("movies by average review rating", func(t *testing.T) {
		sum, n := map[string]float64{}, map[string]float64{}
		for _, r := range g.Reviewed {
			sum[r.Movie] += r.Rating
			n[r.Movie]++
		}
		var ws []aggWant
		for _, m := range g.Movies {
			title := fmt.Sprint(m["title"])
			w := aggWant{id: title}
			if n[title] > 0 {
				w.value = ptr(sum[title] / n[title])
			}
			ws = append(ws, w)
		}
		rankWant(ws, true)
		got, notes := rankedCall(t, ctx, e, `{"entity_type":"Movie","fields":["title"],"conditions":[{"via":"REVIEWED","aggregate":"AVG relationship.rating"}],"order_by":[{"field":"avg_REVIEWED_rating","direction":"DESC"}],"limit":50}`)
		if _, nulls := checkRanked(t, got, "avg_REVIEWED_rating", ws); !nulls {
			t.Error("every movie has a review: the test needs some without")
		}
		if !slices.ContainsFunc(notes, func(s string) bool { return strings.Contains(s, "avg_REVIEWED_rating is null") }) {
			t.Errorf("notes %q do not say the movies without reviews come last", notes)
		}
		// The same average as a test keeps the movies above 70.
		got, _ = rankedCall(t, ctx, e, `{"entity_type":"Movie","conditions":[{"via":"REVIEWED","aggregate":"AVG relationship.rating","operator":">","value":70}],"order_by":[{"field":"avg_REVIEWED_rating"}],"limit":50}`)
		var above []aggWant
		for _, w := range ws {
			if w.value != nil && *w.value > 70 {
				above = append(above, w)
			}
		}
		rankWant(above, false)
		if len(above) == 0 || len(above) == len(sum) {
			t.Fatalf("%d of %d reviewed movies average above 70: the test needs some on each side", len(above), len(sum))
		}
		checkRanked(t, got, "avg_REVIEWED_rating", above)
	})

	t.Run("reviewed movies by release, with their review count", func(t *testing.T) {
		// A sort on a stored field pages from its index
		// (nullsLastFromIndex): the aggregate the test filtered by is
		// computed again for the page.
		reviews := map[string]float64{}
		for _, r := range g.Reviewed {
			reviews[r.Movie]++
		}
		released := map[string]float64{}
		for _, m := range g.Movies {
			if n, ok := m["released"].(int64); ok {
				released[fmt.Sprint(m["title"])] = float64(n)
			}
		}
		var ws []aggWant
		for title := range reviews {
			ws = append(ws, aggWant{id: title, value: ptr(released[title])})
		}
		rankWant(ws, true)
		got, _ := rankedCall(t, ctx, e, `{"entity_type":"Movie","fields":["title"],"conditions":[{"via":"REVIEWED","aggregate":"COUNT","operator":">","value":0}],"order_by":[{"field":"released","direction":"DESC"}],"limit":50}`)
		counts := make([]aggWant, len(ws))
		for i, w := range ws {
			counts[i] = aggWant{id: w.id, value: ptr(reviews[w.id])}
		}
		checkRanked(t, got, "count_REVIEWED", counts)
	})

	t.Run("directors by number of films, with the titles", func(t *testing.T) {
		films := map[string][]string{}
		for _, x := range g.Directed {
			if !slices.Contains(films[x.Person], x.Movie) {
				films[x.Person] = append(films[x.Person], x.Movie)
			}
		}
		var ws []aggWant
		for p, fs := range films {
			ws = append(ws, aggWant{id: p, value: ptr(float64(len(fs)))})
		}
		rankWant(ws, true)
		got, _ := rankedCall(t, ctx, e, `{"entity_type":"Person","fields":["name"],"conditions":[{"via":"DIRECTED","aggregate":"COUNT","operator":">=","value":1}],"order_by":[{"field":"count_DIRECTED","direction":"DESC"}],"include":[{"via":"DIRECTED","fields":["title"],"limit":10}],"limit":50}`)
		if ties, _ := checkRanked(t, got, "count_DIRECTED", ws); !ties {
			t.Error("no two directors made as many films: the test needs a tie")
		}
		for _, x := range got {
			want := slices.Sorted(slices.Values(films[fmt.Sprint(x.ID)]))
			var titles []string
			for _, m := range x.Related["DIRECTED"] {
				titles = append(titles, fmt.Sprint(m["title"]))
			}
			if !slices.Equal(titles, want) {
				t.Errorf("%v directed %v, want %v", x.ID, titles, want)
			}
		}
		// The count test and the aggregate COUNT agree.
		got, _ = rankedCall(t, ctx, e, `{"entity_type":"Person","conditions":[{"via":"DIRECTED","count":{"operator":">=","value":2}}],"limit":50}`)
		var two []string
		for _, w := range ws {
			if *w.value >= 2 {
				two = append(two, w.id)
			}
		}
		var ids []string
		for _, x := range got {
			ids = append(ids, fmt.Sprint(x.ID))
		}
		if slices.Sort(two); len(two) == 0 || !slices.Equal(ids, two) {
			t.Errorf("count >= 2: %v, want %v", ids, two)
		}
	})
}

// TestQueryEntitiesRanksCustomersByOrderValueOnNeo4j ranks the customers
// of the Northwind-shaped fixture by the SUM of their order lines'
// computed value (PURCHASED then ORDERS, a relationship computed field),
// by their number of lines (COUNT relationship) and by the AVG line
// value, against the values computed in Go: a customer without orders
// sums 0 and averages nothing (last).
func TestQueryEntitiesRanksCustomersByOrderValueOnNeo4j(t *testing.T) {
	products, lines := northwindLines()
	e, _, d := northwindOrders(t, products, lines)
	neo4jtest.Run(t, d, "CREATE (:Customer {customerID: 'C9', companyName: 'No orders'})", nil)
	sum, n, valued := map[string]float64{"C9": 0}, map[string]float64{"C9": 0}, map[string]float64{}
	for _, l := range lines {
		c := customerOf(l.order)
		n[c]++
		if l.value != nil {
			sum[c] += *l.value
			valued[c]++
		}
	}
	var total, count, avg []aggWant
	for c := range sum {
		total = append(total, aggWant{id: c, value: ptr(sum[c])})
		count = append(count, aggWant{id: c, value: ptr(n[c])})
		w := aggWant{id: c}
		if valued[c] > 0 {
			w.value = ptr(sum[c] / valued[c])
		}
		avg = append(avg, w)
	}
	rankWant(total, true)
	rankWant(count, false)
	rankWant(avg, true)
	ctx := context.Background()
	got, _ := rankedCall(t, ctx, e, `{"entity_type":"Customer","fields":["companyName"],"conditions":[{"via":"PURCHASED","then":[{"via":"ORDERS"}],"aggregate":"SUM relationship.value"}],"order_by":[{"field":"sum_PURCHASED_ORDERS_value","direction":"DESC"}]}`)
	checkRanked(t, got, "sum_PURCHASED_ORDERS_value", total)
	got, _ = rankedCall(t, ctx, e, `{"entity_type":"Customer","conditions":[{"via":"PURCHASED","then":[{"via":"ORDERS"}],"aggregate":"COUNT relationship"}],"order_by":[{"field":"count_PURCHASED_ORDERS_relationships"}]}`)
	if ties, _ := checkRanked(t, got, "count_PURCHASED_ORDERS_relationships", count); !ties {
		t.Error("no two customers have as many lines: the test needs a tie")
	}
	got, _ = rankedCall(t, ctx, e, `{"entity_type":"Customer","conditions":[{"via":"PURCHASED","then":[{"via":"ORDERS"}],"aggregate":"AVG relationship.value"}],"order_by":[{"field":"avg_PURCHASED_ORDERS_value","direction":"DESC"}]}`)
	if _, nulls := checkRanked(t, got, "avg_PURCHASED_ORDERS_value", avg); !nulls {
		t.Error("every customer has a valued line: the test needs one without")
	}
}

// TestQueryEntitiesAggregatesWithinTheTenant: an aggregate test counts
// and sums only the bound tenant's related entities, though a line of
// alice's order leads to bob's product; the plan of the statement is
// proven scoped.
func TestQueryEntitiesAggregatesWithinTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (a1:Order {orderID: 'a1', user_id: 'alice'}), (a2:Order {orderID: 'a2', user_id: 'alice'}),
		(b1:Order {orderID: 'b1', user_id: 'bob'}),
		(pa:Product {productID: 'pa', user_id: 'alice', price: 10.0}), (pa2:Product {productID: 'pa2', user_id: 'alice', price: 4.0}),
		(pb:Product {productID: 'pb', user_id: 'bob', price: 1000.0}),
		(a1)-[:ORDERS {quantity: 2}]->(pa), (a1)-[:ORDERS {quantity: 5}]->(pb),
		(a2)-[:ORDERS {quantity: 1}]->(pa), (a2)-[:ORDERS {quantity: 5}]->(pa2),
		(b1)-[:ORDERS {quantity: 1}]->(pb), (b1)-[:ORDERS {quantity: 9}]->(pa)`, nil)
	m, err := config.Load("../testdata/planner/configs/tenant-orders.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}
	// alice's lines to alice's products: a1 2×10, a2 1×10 + 5×4.
	totals := []aggWant{{"a2", ptr(30)}, {"a1", ptr(20)}}
	counts := []aggWant{{"a2", ptr(2)}, {"a1", ptr(1)}}
	args := `{"entity_type":"Order","conditions":[{"via":"ORDERS","aggregate":"SUM relationship.value"},{"via":"ORDERS","aggregate":"COUNT","operator":">=","value":1}],"order_by":[{"field":"sum_ORDERS_value","direction":"DESC"}]}`
	ctx := tenant.With(context.Background(), "alice")
	got, _ := rankedCall(t, ctx, e, args)
	checkRanked(t, got, "sum_ORDERS_value", totals)
	checkRanked(t, got, "count_ORDERS", counts)
	checkScopedPlan(t, e, d, ctx, "user_id", planner.QueryEntities, json.RawMessage(args))
	got, _ = rankedCall(t, tenant.With(context.Background(), "bob"), e, args)
	checkRanked(t, got, "sum_ORDERS_value", []aggWant{{"b1", ptr(1000)}})
	var ce *tools.CallError
	if _, err := e.Execute(ctx, engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(`{"entity_type":"Order","conditions":[{"via":"ORDERS","aggregate":"AVG user_id"}]}`)}); err == nil || !strings.Contains(err.Error(), "is not a number field of Product") {
		t.Errorf("an aggregate of the tenant field: %v, want refused naming the number fields", err)
	} else if !errors.As(err, &ce) {
		t.Errorf("an aggregate of the tenant field: %T, want a call error", err)
	}
}

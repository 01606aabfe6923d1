package planner_test

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// groupRows plans and runs an aggregate and returns its groups as
// "group=value/count" in order, with the display field named (if any).
func (f *fixture) groupRows(t *testing.T, run func(st *planner.Statement) []map[string]any, args, display string) []string {
	t.Helper()
	st, err := f.plan(planner.AggregateEntities, args, nil)
	if err != nil {
		t.Fatalf("%s: %v", args, err)
	}
	var out []string
	for _, r := range run(st) {
		s := fmt.Sprintf("%v=%v/%v", r["group"], r["value"], r["count"])
		if display != "" {
			d, _ := r["display"].(map[string]any)
			s += fmt.Sprintf(" (%v)", d[display])
		}
		out = append(out, s)
	}
	return out
}

// topGroups renders counts per key as groupRows does, largest first, ties
// by key, at most limit of them; show gives a key's display field.
func topGroups(counts map[string]int64, limit int, show func(string) string) []string {
	keys := slices.Collect(maps.Keys(counts))
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b)) })
	var out []string
	for _, k := range keys[:min(limit, len(keys))] {
		s := fmt.Sprintf("%s=%d/%d", k, counts[k], counts[k])
		if show != nil {
			s += " (" + show(k) + ")"
		}
		out = append(out, s)
	}
	return out
}

// TestAggregatesAlongPathsOnTheMovieGraph: aggregate_entities' over.path
// and a related entity's computed field on the movie graph, each answer
// checked against the one computed in Go from testdata/movies, ties
// broken by name as the tool does.
func TestAggregatesAlongPathsOnTheMovieGraph(t *testing.T) {
	d, g, f := loadMovies(t)
	run := func(st *planner.Statement) []map[string]any {
		var out []map[string]any
		for _, r := range runPlanned(t, d, st) {
			out = append(out, r.AsMap())
		}
		return out
	}
	actors := map[string][]string{} // movie → its actors
	for _, a := range g.ActedIn {
		actors[a.Movie] = append(actors[a.Movie], a.Person)
	}

	// castmates counts, per person of links (person, movie), the other
	// people who acted in those movies, each once.
	castmates := func(links [][2]string) map[string]int64 {
		seen := map[[2]string]bool{}
		counts := map[string]int64{}
		for _, l := range links {
			for _, b := range actors[l[1]] {
				if b != l[0] && !seen[[2]string{l[0], b}] {
					seen[[2]string{l[0], b}] = true
					counts[l[0]]++
				}
			}
		}
		return counts
	}
	var acted, directed [][2]string
	for _, a := range g.ActedIn {
		acted = append(acted, [2]string{a.Person, a.Movie})
	}
	for _, x := range g.Directed {
		directed = append(directed, [2]string{x.Person, x.Movie})
	}
	for _, c := range []struct {
		name, first string
		links       [][2]string
	}{
		{"co-actors per person, the person not among them", "ACTED_IN", acted},
		{"directors by the actors of their films", "DIRECTED", directed},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := f.groupRows(t, run, `{"entity_type":"Person","operation":"COUNT","group_by":"name","over":{"path":[{"via":"`+c.first+`"},{"via":"ACTED_IN","direction":"incoming"}]},"limit":15}`, "")
			if want := topGroups(castmates(c.links), 15, nil); !slices.Equal(got, want) {
				t.Errorf("%s:\n got %v\nwant %v", c.name, got, want)
			}
		})
	}

	t.Run("reviews per movie, the movie named by its tagline", func(t *testing.T) {
		counts := map[string]int64{}
		for _, r := range g.Reviewed {
			counts[r.Movie]++
		}
		tagline := map[string]string{}
		for _, m := range g.Movies {
			tagline[m.Title] = m.Tagline
		}
		got := f.groupRows(t, run, `{"entity_type":"Person","operation":"COUNT","over":{"via":"REVIEWED","group_by_related":"title","each":"relationship"},"group_fields":["tagline"]}`, "tagline")
		show := func(title string) string {
			if tagline[title] == "" {
				return "<nil>"
			}
			return tagline[title]
		}
		if want := topGroups(counts, 10, show); len(counts) < 2 || !slices.Equal(got, want) {
			t.Errorf("reviews per movie:\n got %v\nwant %v", got, want)
		}
	})

	t.Run("a related entity's computed field in a relationship test and an over step", func(t *testing.T) {
		// age_years = 2026 - released: people in a film over 30 years old.
		old := map[string]bool{}
		for _, a := range g.ActedIn {
			if 2026-g.released(a.Movie) > 30 {
				old[a.Person] = true
			}
		}
		st, err := f.plan(planner.AggregateEntities, `{"entity_type":"Person","operation":"COUNT","conditions":[{"via":"ACTED_IN","conditions":[{"field":"age_years","operator":">","value":30}]}]}`, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v := run(st)[0]["value"]; v != int64(len(old)) || len(old) == 0 || len(old) == len(g.People) {
			t.Errorf("people in a film over 30 years old: %v, want %d", v, len(old))
		}
		// The films over 30 years old of those people, counted once.
		films := map[string]bool{}
		for _, m := range g.Movies {
			if 2026-m.Released > 30 && len(actors[m.Title]) > 0 {
				films[m.Title] = true
			}
		}
		if st, err = f.plan(planner.AggregateEntities, `{"entity_type":"Person","operation":"COUNT","over":{"path":[{"via":"ACTED_IN","conditions":[{"field":"age_years","operator":">","value":30}]}]}}`, nil); err != nil {
			t.Fatal(err)
		}
		if v := run(st)[0]["value"]; v != int64(len(films)) {
			t.Errorf("films over 30 years old with an actor: %v, want %d", v, len(films))
		}
	})
}

// TestPathAggregatesStayInsideTheTenant: every node of an aggregate's
// path is compared with the bound tenant, so alice's order that shares a
// product with bob's order, and her line to bob's product, reach none of
// bob's nodes; bob sees only his own.
func TestPathAggregatesStayInsideTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (o1:Order {orderID: 'o1', user_id: 'alice'}), (o2:Order {orderID: 'o2', user_id: 'alice'}), (ob:Order {orderID: 'ob', user_id: 'bob'}), (oc:Order {orderID: 'oc', user_id: 'bob'}),
		(pa:Product {productID: 'pa', user_id: 'alice', price: 2.5}), (pb:Product {productID: 'pb', user_id: 'bob', price: 1000.0})
		CREATE (o1)-[:ORDERS {quantity: 4}]->(pa), (o2)-[:ORDERS {quantity: 1}]->(pa), (o2)-[:ORDERS {quantity: 4}]->(pb),
			(ob)-[:ORDERS {quantity: 2}]->(pa), (ob)-[:ORDERS {quantity: 3}]->(pb), (oc)-[:ORDERS {quantity: 5}]->(pb)`, nil)
	f := newFixture(t, "tenant-orders.yaml", tools.Capabilities{})
	// The other orders sharing a product with each order, and the value
	// of their lines of those products.
	for _, c := range []struct {
		tenant, args string
		want         []string
	}{
		{"alice", `{"entity_type":"Order","operation":"COUNT","group_by":"orderID","over":{"path":[{"via":"ORDERS"},{"via":"ORDERS","direction":"incoming"}]}}`, []string{"o1=1", "o2=1"}},
		{"bob", `{"entity_type":"Order","operation":"COUNT","group_by":"orderID","over":{"path":[{"via":"ORDERS"},{"via":"ORDERS","direction":"incoming"}]}}`, []string{"ob=1", "oc=1"}},
		{"alice", `{"entity_type":"Order","operation":"SUM","group_by":"orderID","over":{"path":[{"via":"ORDERS"},{"via":"ORDERS","direction":"incoming"}],"field":"value"}}`, []string{"o2=10", "o1=2.5"}},
		{"bob", `{"entity_type":"Order","operation":"SUM","group_by":"orderID","over":{"path":[{"via":"ORDERS"},{"via":"ORDERS","direction":"incoming"}],"field":"value"}}`, []string{"ob=5000", "oc=3000"}},
	} {
		t.Run(c.tenant+" "+c.want[0], func(t *testing.T) {
			var got []string
			st, err := f.plan(planner.AggregateEntities, c.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			st.Params[tenant.Param] = c.tenant
			for _, r := range runPlanned(t, d, st) {
				k, _ := r.Get("group")
				v, _ := r.Get("value")
				got = append(got, fmt.Sprintf("%v=%v", k, v))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v (the other tenant's nodes must not be reached)", got, c.want)
			}
		})
	}
}

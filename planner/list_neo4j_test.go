package planner_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// listGraph is a graph of testdata/planner/configs/lists.yaml: people
// with string, integer and number lists (some missing, some empty), and
// ACTED_IN relationships with list properties, as loaded into Neo4j.
type listGraph struct {
	people []map[string]any // name and the lists it has
	acted  []map[string]any // person, film and the relationship's lists
}

// loadLists builds n people deterministically, each missing or holding
// an empty list now and then, and loads them.
func loadLists(t *testing.T, d neo4j.DriverWithContext, n int) *listGraph {
	t.Helper()
	g := &listGraph{}
	pool := []string{"a", "b", "c", "d"}
	pick := func(i int) []any {
		out := []any{}
		for j, s := range pool {
			if i>>j&1 == 1 {
				out = append(out, s)
			}
		}
		return out
	}
	for i := range n {
		p := map[string]any{"name": fmt.Sprintf("p%02d", i)}
		if i%7 != 0 { // every 7th has no nicknames at all
			p["nicknames"] = pick(i % 16)
		}
		if i%5 != 0 {
			s := []any{}
			for j := range i % 4 {
				s = append(s, int64((i+j)%5))
			}
			p["scores"] = s
		}
		if i%4 != 0 {
			p["weights"] = []any{float64(i % 3), 1.5}
		}
		g.people = append(g.people, p)
		for f := range 2 {
			if (i+f)%3 == 0 {
				continue
			}
			r := map[string]any{"person": p["name"], "film": fmt.Sprintf("f%d", (i+f)%6)}
			if i%6 != 1 {
				r["roles"] = pick((i * (f + 3)) % 16)
			}
			if i%5 != 2 {
				r["takes"] = []any{int64(i % 3), int64(f)}
			}
			g.acted = append(g.acted, r)
		}
	}
	neo4jtest.Run(t, d, `UNWIND $people AS p CREATE (x:Person) SET x = p`, map[string]any{"people": g.people})
	neo4jtest.Run(t, d, `UNWIND range(0, 5) AS i CREATE (:Film {title: 'f' + i})`, nil)
	neo4jtest.Run(t, d, `UNWIND $acted AS r MATCH (p:Person {name: r.person}), (f:Film {title: r.film})
		CREATE (p)-[a:ACTED_IN]->(f) SET a = r {.roles, .takes}`, map[string]any{"acted": g.acted})
	return g
}

// listTest is a list condition evaluated in Go as Cypher evaluates the
// statement the planner writes: held is the list (nil when missing),
// known is false when Cypher's answer is null (a missing list, except
// under IS NULL).
type listTest struct {
	field, op string
	value     any // as the call gives it (JSON)
}

func (c listTest) json() string {
	v := ""
	if c.value != nil {
		v = fmt.Sprintf(`,"value":%s`, c.valueJSON())
	}
	return fmt.Sprintf(`{"field":%q,"operator":%q%s}`, c.field, c.op, v)
}

func (c listTest) valueJSON() string {
	switch v := c.value.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case []any:
		s := "["
		for i, x := range v {
			if i > 0 {
				s += ","
			}
			s += listTest{value: x}.valueJSON()
		}
		return s + "]"
	}
	return fmt.Sprint(c.value)
}

// eval answers the test on held; ok is false where Cypher's answer is
// null (a missing list, except under IS NULL and IS NOT NULL).
func (c listTest) eval(held any) (result, ok bool) {
	switch c.op {
	case "IS NULL":
		return held == nil, true
	case "IS NOT NULL":
		return held != nil, true
	}
	if held == nil {
		return false, false
	}
	list := held.([]any)
	in := func(v any) bool {
		return slices.ContainsFunc(list, func(x any) bool { return sameNumberOrString(x, v) })
	}
	switch c.op {
	case "CONTAINS":
		return in(c.value), true
	case "CONTAINS ANY":
		return slices.ContainsFunc(c.value.([]any), in), true
	case "CONTAINS ALL":
		for _, v := range c.value.([]any) {
			if !in(v) {
				return false, true
			}
		}
		return true, true
	}
	n, want := int64(len(list)), int64(c.value.(int))
	switch c.op {
	case "SIZE =":
		return n == want, true
	case "SIZE <":
		return n < want, true
	case "SIZE <=":
		return n <= want, true
	case "SIZE >":
		return n > want, true
	case "SIZE >=":
		return n >= want, true
	}
	panic("unknown operator " + c.op)
}

// sameNumberOrString is Cypher's equality of two list elements: numbers
// by value whatever their kind (2 = 2.0), strings by text.
func sameNumberOrString(a, b any) bool {
	num := func(v any) (float64, bool) {
		switch x := v.(type) {
		case int64:
			return float64(x), true
		case int:
			return float64(x), true
		case float64:
			return x, true
		}
		return 0, false
	}
	x, xok := num(a)
	y, yok := num(b)
	if xok || yok {
		return xok && yok && x == y
	}
	return a == b
}

var listTests = []listTest{
	{"nicknames", "CONTAINS", "b"},
	{"nicknames", "CONTAINS ANY", []any{"a", "z"}},
	{"nicknames", "CONTAINS ALL", []any{"a", "c"}},
	{"nicknames", "SIZE =", 0},
	{"nicknames", "SIZE >", 2},
	{"nicknames", "SIZE <=", 1},
	{"nicknames", "IS NULL", nil},
	{"nicknames", "IS NOT NULL", nil},
	{"scores", "CONTAINS", 3},
	{"scores", "CONTAINS ALL", []any{1, 2}},
	{"scores", "SIZE <", 2},
	{"scores", "SIZE >=", 3},
	{"weights", "CONTAINS", 2}, // an integer value finds 2.0
	{"weights", "CONTAINS ANY", []any{0, 7.25}},
}

// TestListConditionsOnNodesMatchGo asks query_entities every list
// operator on string, integer and number lists, alone and under not (a
// missing list is null there, so the group holds), and compares the
// people Neo4j returns with those Go picks from the loaded data.
func TestListConditionsOnNodesMatchGo(t *testing.T) {
	d := neo4jtest.Open(t)
	g := loadLists(t, d, 40)
	f := newFixture(t, "lists.yaml", tools.Capabilities{})
	for _, c := range listTests {
		for _, negate := range []bool{false, true} {
			cond := c.json()
			if negate {
				cond = `{"not":[` + cond + `]}`
			}
			t.Run(cond, func(t *testing.T) {
				var want []string
				for _, p := range g.people {
					r, ok := c.eval(p[c.field])
					if negate {
						r, ok = !(ok && r), true // NOT coalesce(test, false)
					}
					if ok && r {
						want = append(want, p["name"].(string))
					}
				}
				st, err := f.plan(planner.QueryEntities, `{"entity_type":"Person","conditions":[`+cond+`],"limit":50}`, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range runPlanned(t, d, st) {
					id, _ := r.Get("id")
					got = append(got, id.(string))
				}
				if len(want) == 0 || len(want) == len(g.people) {
					t.Fatalf("Go picks %d of %d people: the case proves nothing", len(want), len(g.people))
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("got  %q\nwant %q", got, want)
				}
			})
		}
	}
}

var relationshipListTests = []listTest{
	{"roles", "CONTAINS", "a"},
	{"roles", "CONTAINS ANY", []any{"b", "d"}},
	{"roles", "CONTAINS ALL", []any{"a", "b"}},
	{"roles", "SIZE =", 0},
	{"roles", "SIZE >=", 2},
	{"roles", "IS NULL", nil},
	{"takes", "CONTAINS", 1},
	{"takes", "SIZE >", 1},
}

// TestListConditionsOnRelationshipsMatchGo asks list operators of the
// ACTED_IN properties two ways, each compared with Go: query_relationships'
// conditions (the relationships kept), and query_entities'
// relationship_conditions (the people with some such relationship).
func TestListConditionsOnRelationshipsMatchGo(t *testing.T) {
	d := neo4jtest.Open(t)
	g := loadLists(t, d, 30)
	f := newFixture(t, "lists.yaml", tools.Capabilities{})
	for _, c := range relationshipListTests {
		t.Run(c.json(), func(t *testing.T) {
			var want, wantPeople []string
			for _, r := range g.acted {
				if v, ok := c.eval(r[c.field]); ok && v {
					want = append(want, r["person"].(string)+">"+r["film"].(string))
					if p := r["person"].(string); !slices.Contains(wantPeople, p) {
						wantPeople = append(wantPeople, p)
					}
				}
			}
			slices.Sort(want)
			if len(want) == 0 || len(want) == len(g.acted) {
				t.Fatalf("Go keeps %d of %d relationships: the case proves nothing", len(want), len(g.acted))
			}
			st, err := f.plan(planner.QueryRelationships, `{"relationship_type":"ACTED_IN","conditions":[`+c.json()+`],"limit":50}`, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runPlanned(t, d, st) {
				from, _ := r.Get("from_id")
				to, _ := r.Get("to_id")
				got = append(got, fmt.Sprintf("%v>%v", from, to))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("query_relationships:\ngot  %q\nwant %q", got, want)
			}

			st, err = f.plan(planner.QueryEntities, `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","relationship_conditions":[`+c.json()+`]}],"limit":50}`, nil)
			if err != nil {
				t.Fatal(err)
			}
			got = nil
			for _, r := range runPlanned(t, d, st) {
				id, _ := r.Get("id")
				got = append(got, id.(string))
			}
			slices.Sort(wantPeople)
			if !reflect.DeepEqual(got, wantPeople) {
				t.Errorf("query_entities via ACTED_IN:\ngot  %q\nwant %q", got, wantPeople)
			}
		})
	}
}

// TestListFieldsReturnWhole: a person's lists come back whole, an empty
// list as [] and a missing one null, numbers as stored.
func TestListFieldsReturnWhole(t *testing.T) {
	d := neo4jtest.Open(t)
	g := loadLists(t, d, 8)
	f := newFixture(t, "lists.yaml", tools.Capabilities{})
	st, err := f.plan(planner.QueryEntities, `{"entity_type":"Person","limit":50}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := runPlanned(t, d, st)
	if len(rows) != len(g.people) {
		t.Fatalf("%d rows, want %d", len(rows), len(g.people))
	}
	for i, r := range rows {
		props, _ := r.Get("properties")
		for _, k := range []string{"nicknames", "scores", "weights"} {
			got, want := props.(map[string]any)[k], g.people[i][k]
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s.%s = %#v, want %#v", g.people[i]["name"], k, got, want)
			}
		}
	}
}

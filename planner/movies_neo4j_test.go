package planner_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// movieGraph is testdata/movies/movies.json: the graph of the movies
// config, which the relational tests load into Neo4j and from which they
// compute the expected answers in Go.
type movieGraph struct {
	Movies []struct {
		Title    string `json:"title"`
		Released int64  `json:"released"`
		Tagline  string `json:"tagline,omitempty"`
	} `json:"movies"`
	People []struct {
		Name string `json:"name"`
		Born int64  `json:"born"`
	} `json:"people"`
	ActedIn  []actedIn `json:"acted_in"`
	Directed []struct {
		Person string `json:"person"`
		Movie  string `json:"movie"`
	} `json:"directed"`
	Reviewed []struct {
		Person  string `json:"person"`
		Movie   string `json:"movie"`
		Rating  int64  `json:"rating"`
		Summary string `json:"summary"`
	} `json:"reviewed"`
	Follows []struct {
		Person  string `json:"person"`
		Follows string `json:"follows"`
	} `json:"follows"`
}

type actedIn struct {
	Person string   `json:"person"`
	Movie  string   `json:"movie"`
	Roles  []string `json:"roles"`
}

func readMovies(t *testing.T) *movieGraph {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "movies", "movies.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g movieGraph
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

// loadMovies empties the test database, loads the movie graph and returns
// it with the fixture of the movies config.
func loadMovies(t *testing.T) (neo4j.DriverWithContext, *movieGraph, *fixture) {
	t.Helper()
	d := neo4jtest.Open(t)
	g := readMovies(t)
	// rows turns a list of structs into the maps Neo4j stores; integers
	// stay integers.
	rows := func(v any) []any {
		b, _ := json.Marshal(v)
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var out []map[string]any
		_ = dec.Decode(&out)
		list := make([]any, len(out))
		for i, m := range out {
			for k, x := range m {
				if n, ok := x.(json.Number); ok {
					m[k], _ = n.Int64()
				}
			}
			list[i] = m
		}
		return list
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (m:Movie) SET m = row", map[string]any{"rows": rows(g.Movies)})
	neo4jtest.Run(t, d, "UNWIND $rows AS row CREATE (p:Person) SET p = row", map[string]any{"rows": rows(g.People)})
	neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (p:Person {name: row.person}), (m:Movie {title: row.movie}) CREATE (p)-[:ACTED_IN {roles: row.roles}]->(m)", map[string]any{"rows": rows(g.ActedIn)})
	neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (p:Person {name: row.person}), (m:Movie {title: row.movie}) CREATE (p)-[:DIRECTED]->(m)", map[string]any{"rows": rows(g.Directed)})
	neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (p:Person {name: row.person}), (m:Movie {title: row.movie}) CREATE (p)-[:REVIEWED {rating: row.rating, summary: row.summary}]->(m)", map[string]any{"rows": rows(g.Reviewed)})
	neo4jtest.Run(t, d, "UNWIND $rows AS row MATCH (a:Person {name: row.person}), (b:Person {name: row.follows}) CREATE (a)-[:FOLLOWS]->(b)", map[string]any{"rows": rows(g.Follows)})
	return d, g, newFixture(t, "movies.yaml", tools.Capabilities{FullText: true})
}

// ids plans and runs a call and returns the id column of its rows, in
// order.
func (f *fixture) ids(t *testing.T, d neo4j.DriverWithContext, tool, args string) []string {
	t.Helper()
	st, err := f.plan(tool, args, nil)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	var out []string
	for _, r := range runPlanned(t, d, st) {
		id, _ := r.Get("id")
		out = append(out, fmt.Sprint(id))
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

// moviesOf lists the titles person acted in.
func (g *movieGraph) moviesOf(person string) []string {
	var out []string
	for _, a := range g.ActedIn {
		if a.Person == person && !slices.Contains(out, a.Movie) {
			out = append(out, a.Movie)
		}
	}
	return out
}

func (g *movieGraph) released(title string) int64 {
	for _, m := range g.Movies {
		if m.Title == title {
			return m.Released
		}
	}
	return -1
}

func TestQueryEntitiesFiltersThroughARelationshipWithSomeNoneAll(t *testing.T) {
	d, g, f := loadMovies(t)
	t.Run("some", func(t *testing.T) {
		got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":50,"conditions":[{"via":"ACTED_IN","entity":"Person","conditions":[{"field":"name","operator":"=","value":"Keanu Reeves"}]}]}`)
		if want := sorted(g.moviesOf("Keanu Reeves")); !slices.Equal(got, want) {
			t.Errorf("movies with Keanu Reeves: got %v, want %v", got, want)
		}
	})
	t.Run("none", func(t *testing.T) {
		// People who neither acted in nor directed anything.
		got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Person","limit":50,"conditions":[{"via":"ACTED_IN","quantifier":"none"},{"via":"DIRECTED","quantifier":"none"}]}`)
		var want []string
		for _, p := range g.People {
			busy := slices.ContainsFunc(g.ActedIn, func(a actedIn) bool { return a.Person == p.Name })
			for _, x := range g.Directed {
				busy = busy || x.Person == p.Name
			}
			if !busy {
				want = append(want, p.Name)
			}
		}
		if want = sorted(want); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("people with no film: got %v, want %v", got, want)
		}
	})
	t.Run("all", func(t *testing.T) {
		// Movies every reviewer rated at least 65 (and someone reviewed).
		got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":50,"conditions":[{"via":"REVIEWED","quantifier":"all","relationship_conditions":[{"field":"rating","operator":">=","value":65}]}]}`)
		low, any := map[string]bool{}, map[string]bool{}
		for _, r := range g.Reviewed {
			any[r.Movie] = true
			if r.Rating < 65 {
				low[r.Movie] = true
			}
		}
		var want []string
		for m := range any {
			if !low[m] {
				want = append(want, m)
			}
		}
		if want = sorted(want); len(want) == 0 || len(want) == len(any) || !slices.Equal(got, want) {
			t.Errorf("movies all reviews >= 65: got %v, want %v", got, want)
		}
	})
	t.Run("all of related entities' fields", func(t *testing.T) {
		// Directors all of whose films came out before 2000.
		got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Person","limit":50,"conditions":[{"via":"DIRECTED","quantifier":"all","conditions":[{"field":"released","operator":"<","value":2000}]}]}`)
		late, any := map[string]bool{}, map[string]bool{}
		for _, x := range g.Directed {
			any[x.Person] = true
			if g.released(x.Movie) >= 2000 {
				late[x.Person] = true
			}
		}
		var want []string
		for p := range any {
			if !late[p] {
				want = append(want, p)
			}
		}
		if want = sorted(want); !slices.Equal(got, want) {
			t.Errorf("directors of only pre-2000 films: got %v, want %v", got, want)
		}
	})
	t.Run("count", func(t *testing.T) {
		got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Person","limit":50,"conditions":[{"via":"ACTED_IN","count":{"operator":">=","value":5}}]}`)
		n := map[string]int{}
		for _, a := range g.ActedIn {
			n[a.Person]++
		}
		var want []string
		for p, c := range n {
			if c >= 5 {
				want = append(want, p)
			}
		}
		if want = sorted(want); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("actors in 5 films or more: got %v, want %v", got, want)
		}
	})
}

func TestQueryEntitiesFiltersOnRelationshipProperties(t *testing.T) {
	d, g, f := loadMovies(t)
	got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":50,"conditions":[{"via":"REVIEWED","relationship_conditions":[{"field":"rating","operator":">","value":80}]}]}`)
	var want []string
	for _, r := range g.Reviewed {
		if r.Rating > 80 && !slices.Contains(want, r.Movie) {
			want = append(want, r.Movie)
		}
	}
	if want = sorted(want); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("movies reviewed above 80: got %v, want %v", got, want)
	}
	// The reviewers of those, from the other side, with a condition on the
	// relationship and one on the movie.
	got = f.ids(t, d, planner.QueryEntities, `{"entity_type":"Person","limit":50,"conditions":[{"via":"REVIEWED","conditions":[{"field":"released","operator":">=","value":2000}],"relationship_conditions":[{"field":"rating","operator":">","value":80}]}]}`)
	want = nil
	for _, r := range g.Reviewed {
		if r.Rating > 80 && g.released(r.Movie) >= 2000 && !slices.Contains(want, r.Person) {
			want = append(want, r.Person)
		}
	}
	if want = sorted(want); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("reviewers rating a 2000s film above 80: got %v, want %v", got, want)
	}
}

func TestQueryEntitiesCombinesAnyOfAndNot(t *testing.T) {
	d, g, f := loadMovies(t)
	// Released before 1990 or after 2005, and not a Tom Hanks film.
	got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":50,"conditions":[
		{"any_of":[{"field":"released","operator":"<","value":1990},{"field":"released","operator":">","value":2005}]},
		{"not":[{"via":"ACTED_IN","conditions":[{"field":"name","operator":"=","value":"Tom Hanks"}]}]}]}`)
	hanks := g.moviesOf("Tom Hanks")
	var want []string
	for _, m := range g.Movies {
		if (m.Released < 1990 || m.Released > 2005) && !slices.Contains(hanks, m.Title) {
			want = append(want, m.Title)
		}
	}
	if want = sorted(want); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// not keeps entities without the value: movies whose tagline does not
	// contain "the" include the one without a tagline.
	got = f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":50,"conditions":[{"not":[{"field":"tagline","operator":"CONTAINS","value":"the","ignore_case":true}]}]}`)
	want = nil
	for _, m := range g.Movies {
		if !containsFold(m.Tagline, "the") {
			want = append(want, m.Title)
		}
	}
	if want = sorted(want); !slices.Contains(want, "Something's Gotta Give") || !slices.Equal(got, want) {
		t.Errorf("not contains: got %v, want %v", got, want)
	}
}

// TestQueryEntitiesNestsTheConditionGrammar: the schema defines the
// condition grammar once ($defs) and refers to it at every level, so
// groups nest in groups and relationship tests in relationship tests, as
// far as Parse allows (four levels).
func TestQueryEntitiesNestsTheConditionGrammar(t *testing.T) {
	d, g, f := loadMovies(t)
	directors := map[string]bool{}
	for _, x := range g.Directed {
		directors[x.Person] = true
	}
	// Movies with an actor who also directed a film: a relationship test
	// inside a relationship test's conditions.
	got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":50,"conditions":[
		{"via":"ACTED_IN","conditions":[{"via":"DIRECTED"}]}]}`)
	var want []string
	for _, m := range g.Movies {
		if slices.ContainsFunc(g.ActedIn, func(a actedIn) bool { return a.Movie == m.Title && directors[a.Person] }) {
			want = append(want, m.Title)
		}
	}
	if want = sorted(want); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("movies with an actor who directed: got %v, want %v", got, want)
	}
	// Released in the 1990s, or after 2005 and not with Tom Hanks: groups
	// inside a group.
	got = f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":50,"conditions":[{"any_of":[
		{"not":[{"any_of":[{"field":"released","operator":"<","value":1990},{"field":"released","operator":">=","value":2000}]}]},
		{"not":[{"field":"released","operator":"<=","value":2005},{"via":"ACTED_IN","conditions":[{"field":"name","operator":"=","value":"Tom Hanks"}]}]}]}]}`)
	hanks := g.moviesOf("Tom Hanks")
	want = nil
	for _, m := range g.Movies {
		nineties := m.Released >= 1990 && m.Released < 2000
		if nineties || !(m.Released <= 2005 && slices.Contains(hanks, m.Title)) {
			want = append(want, m.Title)
		}
	}
	if want = sorted(want); len(want) == 0 || len(want) == len(g.Movies) || !slices.Equal(got, want) {
		t.Errorf("nested groups: got %v, want %v", got, want)
	}
	// Five levels are refused, naming the limit.
	deep := `{"field":"released","operator":">","value":1}`
	for range 5 {
		deep = `{"any_of":[` + deep + `]}`
	}
	if _, err := f.plan(planner.QueryEntities, `{"entity_type":"Movie","conditions":[`+deep+`]}`, nil); err == nil || !strings.Contains(err.Error(), "nest at most 4 levels") {
		t.Errorf("five levels: %v, want a refusal naming the limit", err)
	}
}

func containsFold(s, sub string) bool { return strings.Contains(strings.ToLower(s), sub) }

func TestQueryEntitiesIgnoresCaseOnlyWhenAsked(t *testing.T) {
	d, _, f := loadMovies(t)
	if got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Person","conditions":[{"field":"name","operator":"STARTS WITH","value":"keanu"}]}`); len(got) != 0 {
		t.Errorf("case-sensitive by default: got %v", got)
	}
	for _, c := range []string{
		`{"field":"name","operator":"STARTS WITH","value":"keanu","ignore_case":true}`,
		`{"field":"name","operator":"=","value":"KEANU REEVES","ignore_case":true}`,
		`{"field":"name","operator":"IN","value":["keanu reeves","nobody"],"ignore_case":true}`,
		`{"field":"name","operator":"ENDS WITH","value":"REEVES","ignore_case":true}`,
	} {
		got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Person","conditions":[`+c+`]}`)
		if !slices.Equal(got, []string{"Keanu Reeves"}) {
			t.Errorf("%s: got %v", c, got)
		}
	}
}

func TestQueryEntitiesSortsByMultipleKeys(t *testing.T) {
	d, g, f := loadMovies(t)
	got := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":50,"order_by":[{"field":"released","direction":"DESC"},{"field":"title","direction":"DESC"}]}`)
	want := make([]string, len(g.Movies))
	for i, m := range g.Movies {
		want[i] = m.Title
	}
	sort.Slice(want, func(i, j int) bool {
		a, b := g.released(want[i]), g.released(want[j])
		if a != b {
			return a > b
		}
		return want[i] > want[j]
	})
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	// The single-object form still works.
	one := f.ids(t, d, planner.QueryEntities, `{"entity_type":"Movie","limit":3,"order_by":{"field":"released"}}`)
	if len(one) != 3 || g.released(one[0]) != 1975 {
		t.Errorf("single order_by: %v", one)
	}
}

func TestAggregateEntitiesOverRelatedEntities(t *testing.T) {
	d, g, f := loadMovies(t)
	value := func(args string) []*neo4j.Record {
		st, err := f.plan(planner.AggregateEntities, args, nil)
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return runPlanned(t, d, st)
	}
	rows := value(`{"entity_type":"Person","operation":"AVG","field":"released","conditions":[{"field":"name","operator":"=","value":"Keanu Reeves"}],"over":{"via":"ACTED_IN","entity":"Movie"}}`)
	var sum float64
	keanu := g.moviesOf("Keanu Reeves")
	for _, m := range keanu {
		sum += float64(g.released(m))
	}
	if v, _ := rows[0].Get("value"); math.Abs(v.(float64)-sum/float64(len(keanu))) > 1e-9 {
		t.Errorf("average release year of Keanu Reeves' films = %v, want %v", v, sum/float64(len(keanu)))
	}
	// A film two of the people acted in counts once.
	rows = value(`{"entity_type":"Person","operation":"COUNT","conditions":[{"field":"name","operator":"IN","value":["Tom Hanks","Meg Ryan"]}],"over":{"via":"ACTED_IN"}}`)
	both := map[string]bool{}
	for _, m := range append(g.moviesOf("Tom Hanks"), g.moviesOf("Meg Ryan")...) {
		both[m] = true
	}
	if v, _ := rows[0].Get("value"); v != int64(len(both)) {
		t.Errorf("films of Tom Hanks or Meg Ryan = %v, want %d", v, len(both))
	}
	// Per group: the best review per reviewer (MAX over the relationship's
	// movies, grouped by the reviewer).
	rows = value(`{"entity_type":"Person","operation":"COUNT","group_by":"name","over":{"via":"REVIEWED","relationship_conditions":[{"field":"rating","operator":">=","value":65}]}}`)
	want := map[string]int64{}
	for _, r := range g.Reviewed {
		if r.Rating >= 65 {
			want[r.Person]++
		}
	}
	got := map[string]int64{}
	for _, r := range rows {
		k, _ := r.Get("group")
		v, _ := r.Get("value")
		got[fmt.Sprint(k)] = v.(int64)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reviews of 65 or more per reviewer: got %v, want %v", got, want)
	}
	// The actors with the most roles, in one call: SUM of the size of
	// each ACTED_IN's roles list, per actor, largest first (the public
	// graph's ACTED_IN holds roles as a list).
	roles := map[string]int64{}
	for _, a := range g.ActedIn {
		roles[a.Person] += int64(len(a.Roles))
	}
	var actors []string
	for p := range roles {
		actors = append(actors, p)
	}
	slices.SortFunc(actors, func(a, b string) int { return cmp.Or(cmp.Compare(roles[b], roles[a]), cmp.Compare(a, b)) })
	rows = value(`{"entity_type":"Person","operation":"SUM","group_by":"name","over":{"via":"ACTED_IN","field":"roles"},"size":true,"limit":5}`)
	var top []string
	for _, r := range rows {
		k, _ := r.Get("group")
		v, _ := r.Get("value")
		top = append(top, fmt.Sprintf("%v:%v", k, v))
	}
	var wantTop []string
	for _, p := range actors[:5] {
		wantTop = append(wantTop, fmt.Sprintf("%s:%d", p, roles[p]))
	}
	if !slices.Equal(top, wantTop) {
		t.Errorf("actors with the most roles: got %v, want %v", top, wantTop)
	}
}

// actedGraph is the ACTED_IN graph undirected, by node name (people and
// titles do not clash in the movie graph).
func (g *movieGraph) actedGraph() map[string][]string {
	adj := map[string][]string{}
	for _, a := range g.ActedIn {
		adj[a.Person] = append(adj[a.Person], a.Movie)
		adj[a.Movie] = append(adj[a.Movie], a.Person)
	}
	return adj
}

// shortest returns the distance from a to b in adj and the number of
// shortest paths between them (breadth-first, counting paths).
func shortest(adj map[string][]string, a, b string) (int, int) {
	dist, ways := map[string]int{a: 0}, map[string]int{a: 1}
	frontier := []string{a}
	for len(frontier) > 0 {
		var next []string
		for _, x := range frontier {
			for _, y := range adj[x] {
				if _, seen := dist[y]; !seen {
					dist[y] = dist[x] + 1
					next = append(next, y)
				}
				if dist[y] == dist[x]+1 {
					ways[y] += ways[x]
				}
			}
		}
		frontier = next
	}
	return dist[b], ways[b]
}

func TestFindPathsReturnsShortestPathsNodeByNode(t *testing.T) {
	d, g, f := loadMovies(t)
	adj := g.actedGraph()
	run := func(args string) []*neo4j.Record {
		st, err := f.plan(planner.FindPaths, args, nil)
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return runPlanned(t, d, st)
	}
	want, ways := shortest(adj, "Kevin Bacon", "Meg Ryan")
	rows := run(`{"from_entity_type":"Person","from_id":"Kevin Bacon","to_entity_type":"Person","to_id":"Meg Ryan","relationship_types":["ACTED_IN"]}`)
	if len(rows) != 1 {
		t.Fatalf("got %d paths, want one", len(rows))
	}
	nodes, _ := rows[0].Get("nodes")
	rels, _ := rows[0].Get("relationships")
	length, _ := rows[0].Get("length")
	ns, rs := nodes.([]any), rels.([]any)
	if length != int64(want) || len(ns) != want+1 || len(rs) != want {
		t.Fatalf("length %v with %d nodes and %d relationships, want %d", length, len(ns), len(rs), want)
	}
	if id := ns[0].(map[string]any)["id"]; id != "Kevin Bacon" {
		t.Errorf("path starts at %v", id)
	}
	if id := ns[want].(map[string]any)["id"]; id != "Meg Ryan" {
		t.Errorf("path ends at %v", id)
	}
	for i, r := range rs {
		rel := r.(map[string]any)
		a, b := ns[i].(map[string]any), ns[i+1].(map[string]any)
		if rel["type"] != "ACTED_IN" || !slices.Contains(adj[a["id"].(string)], b["id"].(string)) {
			t.Errorf("step %d: %v -%v- %v is not in the graph", i, a["id"], rel, b["id"])
		}
		// The relationship says which end is the actor, and carries its roles.
		person := rel["from"]
		if types := []any{a["entity_type"], b["entity_type"]}; !slices.Contains(types, "Movie") || !slices.Contains(types, "Person") {
			t.Errorf("step %d joins %v", i, types)
		}
		roles := fmt.Sprint(rel["properties"].(map[string]any)["roles"])
		if !slices.ContainsFunc(g.ActedIn, func(x actedIn) bool {
			return x.Person == person && fmt.Sprint(x.Roles) == roles && (x.Movie == a["id"] || x.Movie == b["id"])
		}) {
			t.Errorf("step %d: %v does not play %v there", i, person, roles)
		}
	}
	rows = run(`{"from_entity_type":"Person","from_id":"Kevin Bacon","to_entity_type":"Person","to_id":"Meg Ryan","relationship_types":["ACTED_IN"],"all":true,"limit":50}`)
	if len(rows) != ways {
		t.Errorf("all shortest paths: got %d, want %d", len(rows), ways)
	}
	// Too short a bound finds nothing; the same entity twice is no path.
	if rows := run(`{"from_entity_type":"Person","from_id":"Kevin Bacon","to_entity_type":"Person","to_id":"Meg Ryan","relationship_types":["ACTED_IN"],"max_length":2}`); len(rows) != 0 {
		t.Errorf("max_length 2 found %d paths", len(rows))
	}
	if rows := run(`{"from_entity_type":"Person","from_id":"Meg Ryan","to_entity_type":"Person","to_id":"Meg Ryan"}`); len(rows) != 0 {
		t.Errorf("a path from an entity to itself: %d rows", len(rows))
	}
}

func TestExploreRelationshipsFollowsSeveralTypesWithTargetConditionsOrderAndOffset(t *testing.T) {
	d, g, f := loadMovies(t)
	var want []string
	for _, a := range g.ActedIn {
		if a.Person == "Tom Hanks" && g.released(a.Movie) >= 1995 && !slices.Contains(want, a.Movie) {
			want = append(want, a.Movie)
		}
	}
	for _, x := range g.Directed {
		if x.Person == "Tom Hanks" && g.released(x.Movie) >= 1995 && !slices.Contains(want, x.Movie) {
			want = append(want, x.Movie)
		}
	}
	sort.Slice(want, func(i, j int) bool {
		a, b := g.released(want[i]), g.released(want[j])
		if a != b {
			return a > b
		}
		return want[i] < want[j]
	})
	args := `{"start_entity_type":"Person","start_conditions":[{"field":"name","operator":"=","value":"Tom Hanks"}],"relationship_types":["ACTED_IN","DIRECTED"],"target_conditions":[{"field":"released","operator":">=","value":1995}],"order_by":[{"field":"released","direction":"DESC"}],"limit":50}`
	if got := f.ids(t, d, planner.ExploreRelationships, args); !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	paged := f.ids(t, d, planner.ExploreRelationships, strings.Replace(args, `"limit":50`, `"limit":3,"offset":2`, 1))
	if !slices.Equal(paged, want[2:5]) {
		t.Errorf("offset 2 limit 3: got %v, want %v", paged, want[2:5])
	}
	// Two hops over two types: the films reviewed by the people Jessica
	// Thompson's followers follow… carry the path's relationships in order.
	st, err := f.plan(planner.ExploreRelationships, `{"start_entity_type":"Person","start_conditions":[{"field":"name","operator":"=","value":"Paul Blythe"}],"relationship_types":["FOLLOWS","REVIEWED"],"target_entity_type":"Movie","depth":2,"limit":50}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, r := range runPlanned(t, d, st) {
		id, _ := r.Get("id")
		p, _ := r.Get("path")
		steps := p.([]any)
		depth, _ := r.Get("depth")
		if int64(len(steps)) != depth.(int64) {
			t.Errorf("%v: path %v at depth %v", id, steps, depth)
		}
		last := steps[len(steps)-1].(map[string]any)
		if last["type"] != "REVIEWED" {
			t.Errorf("%v: path %v does not end with a review", id, steps)
		}
		if depth == int64(2) {
			found++
			if first := steps[0].(map[string]any); first["type"] != "FOLLOWS" {
				t.Errorf("%v: path %v does not start with FOLLOWS", id, steps)
			}
			rating := last["properties"].(map[string]any)["rating"]
			if !slices.ContainsFunc(g.Reviewed, func(x struct {
				Person  string `json:"person"`
				Movie   string `json:"movie"`
				Rating  int64  `json:"rating"`
				Summary string `json:"summary"`
			}) bool {
				return x.Person == "Angela Scope" && x.Movie == id && x.Rating == rating
			}) {
				t.Errorf("%v: rating %v is not Angela Scope's: %v", id, rating, steps)
			}
		}
	}
	if found == 0 {
		t.Error("no film two hops away (Paul Blythe follows Angela Scope, who reviewed films)")
	}
}

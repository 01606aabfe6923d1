package planner_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/ragforge/ragforge/planner"
)

// TestRelatedComputedFieldsOnTheMovieGraph: a related entity's computed
// expression field (Movie.age_years = 2026 - released) read where a call
// reads a related entity, as a relationship test does: explore's target
// conditions and sort, query_relationships' end conditions, include's
// fields and an aggregate test's field. Each answer is checked against
// the one computed in Go from testdata/movies.
func TestRelatedComputedFieldsOnTheMovieGraph(t *testing.T) {
	d, g, f := loadMovies(t)
	// Each threshold below is one year off a film's age, so that a year
	// of difference between the Go and the Cypher meaning changes the
	// answer.
	age := func(title string) int64 { return 2026 - g.released(title) }

	t.Run("explore targets filtered and sorted by a computed field", func(t *testing.T) {
		var want []string
		for _, m := range g.moviesOf("Tom Hanks") {
			if age(m) >= 23 {
				want = append(want, m)
			}
		}
		slices.SortFunc(want, func(a, b string) int { return cmp.Or(cmp.Compare(age(a), age(b)), cmp.Compare(a, b)) })
		if len(want) < 5 || len(want) == len(g.moviesOf("Tom Hanks")) {
			t.Fatalf("the fixture gives %d of Tom Hanks' films 23 years or older; want some, not all", len(want))
		}
		args := `{"start_entity_type":"Person","start_conditions":[{"field":"name","operator":"=","value":"Tom Hanks"}],"relationship_type":"ACTED_IN","target_conditions":[{"field":"age_years","operator":">=","value":23}],"order_by":[{"field":"age_years"}],"limit":50}`
		if got := f.ids(t, d, planner.ExploreRelationships, args); !slices.Equal(got, want) {
			t.Errorf("got  %v\nwant %v", got, want)
		}
		// Three hops (his films, his co-actors, their films) go through
		// the traversal's lists, where the filter is a list predicate;
		// his own films are at depth 1, which breaks ties of age.
		depth := map[string]int{}
		for _, m := range g.moviesOf("Tom Hanks") {
			depth[m] = 1
			for _, a := range g.ActedIn {
				if a.Movie != m || a.Person == "Tom Hanks" {
					continue
				}
				for _, m2 := range g.moviesOf(a.Person) {
					if depth[m2] == 0 {
						depth[m2] = 3
					}
				}
			}
		}
		want = want[:0]
		for m := range depth {
			if age(m) < 21 {
				want = append(want, m)
			}
		}
		slices.SortFunc(want, func(a, b string) int {
			return cmp.Or(cmp.Compare(age(b), age(a)), cmp.Compare(depth[a], depth[b]), cmp.Compare(a, b))
		})
		args = `{"start_entity_type":"Person","start_conditions":[{"field":"name","operator":"=","value":"Tom Hanks"}],"relationship_type":"ACTED_IN","direction":"both","depth":3,"target_entity_type":"Movie","target_conditions":[{"field":"age_years","operator":"<","value":21}],"order_by":[{"field":"age_years","direction":"DESC"}],"limit":50}`
		if got := f.ids(t, d, planner.ExploreRelationships, args); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("depth 3:\ngot  %v\nwant %v", got, want)
		}
	})

	t.Run("query_relationships with an end condition on a computed field", func(t *testing.T) {
		type review struct {
			person, movie string
			rating        int64
		}
		var want []review
		for _, r := range g.Reviewed {
			if age(r.Movie) > 26 {
				want = append(want, review{r.Person, r.Movie, r.Rating})
			}
		}
		slices.SortFunc(want, func(a, b review) int {
			return cmp.Or(cmp.Compare(b.rating, a.rating), cmp.Compare(a.person, b.person), cmp.Compare(a.movie, b.movie))
		})
		if len(want) == 0 || len(want) == len(g.Reviewed) {
			t.Fatalf("the fixture gives %d of %d reviews a film older than 26 years; want some, not all", len(want), len(g.Reviewed))
		}
		st, err := f.plan(planner.QueryRelationships, `{"relationship_type":"REVIEWED","to_conditions":[{"field":"age_years","operator":">","value":26}],"order_by":[{"field":"rating","direction":"DESC"}],"limit":50}`, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []review
		for _, r := range runPlanned(t, d, st) {
			m := r.AsMap()
			rating, _ := m["properties"].(map[string]any)["rating"].(int64)
			got = append(got, review{fmt.Sprint(m["from_id"]), fmt.Sprint(m["to_id"]), rating})
		}
		if !slices.Equal(got, want) {
			t.Errorf("got  %v\nwant %v", got, want)
		}
	})

	t.Run("include lists a related computed field", func(t *testing.T) {
		st, err := f.plan(planner.QueryEntities, `{"entity_type":"Person","limit":50,"include":[{"via":"ACTED_IN","fields":["title","age_years"],"limit":25}]}`, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows := runPlanned(t, d, st)
		checked := 0
		for _, r := range rows {
			m := r.AsMap()
			person := fmt.Sprint(m["id"])
			list, _ := m["related"].(map[string]any)["ACTED_IN"].([]any)
			want := slices.Sorted(slices.Values(g.moviesOf(person)))
			if len(list) != min(len(want), 26) {
				t.Errorf("%s: %d films listed, want %d", person, len(list), min(len(want), 26))
				continue
			}
			for i, it := range list {
				film, _ := it.(map[string]any)
				if film["title"] != want[i] || film["age_years"] != age(want[i]) {
					t.Errorf("%s's film %d: %v, want %s of age %d", person, i, film, want[i], age(want[i]))
				}
				checked++
			}
		}
		if len(rows) == 0 || checked == 0 {
			t.Errorf("%d people, %d films checked", len(rows), checked)
		}
	})

	t.Run("an aggregate test of a related computed field", func(t *testing.T) {
		oldest := map[string]int64{}
		for _, a := range g.ActedIn {
			oldest[a.Person] = max(oldest[a.Person], age(a.Movie))
		}
		var want []string
		for p, a := range oldest {
			if a >= 41 {
				want = append(want, p)
			}
		}
		slices.SortFunc(want, func(a, b string) int { return cmp.Or(cmp.Compare(oldest[b], oldest[a]), cmp.Compare(a, b)) })
		if len(want) == 0 || len(want) == len(oldest) {
			t.Fatalf("the fixture gives %d of %d actors a film 41 years or older; want some, not all", len(want), len(oldest))
		}
		args := `{"entity_type":"Person","conditions":[{"via":"ACTED_IN","aggregate":"MAX age_years","operator":">=","value":41}],"order_by":[{"field":"max_ACTED_IN_age_years","direction":"DESC"}],"limit":50}`
		if got := f.ids(t, d, planner.QueryEntities, args); !slices.Equal(got, want[:min(len(want), 50)]) {
			t.Errorf("got  %v\nwant %v", got, want)
		}
	})
}

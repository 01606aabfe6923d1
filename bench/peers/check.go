package peers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
)

// Check asks every workload both ways and returns an error naming each
// workload whose answers differ: ragforge's rows, @neo4j/graphql's rows
// and the rows computed in Go from g must be the same ids in the same
// order (with the same line_count where the question is about it), and
// not empty. Timings mean nothing unless both sides answer the same
// question, so Check runs before [Measure].
func Check(ctx context.Context, e *engine.Engine, gql *GraphQL, g *fixture.Graph, ws []Workload) error {
	var errs []error
	for _, w := range ws {
		want := w.expected(g)
		rf, err := RagforgeRows(ctx, e, w)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: ragforge: %w", w.Key, err))
			continue
		}
		gq, err := GraphQLRows(gql, w)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", w.Key, err))
			continue
		}
		switch {
		case len(want) == 0:
			errs = append(errs, fmt.Errorf("%s: the parsed source has no answer to %s: choose other arguments (ParamsFor)", w.Key, w.Name))
		case !same(rf, want) || !same(gq, want):
			errs = append(errs, fmt.Errorf("%s (%s): the answers differ\n%s", w.Key, w.Name, diff(want, rf, gq)))
		}
	}
	return errors.Join(errs...)
}

// RagforgeRows runs w's tool call through engine.Execute and returns its
// rows.
func RagforgeRows(ctx context.Context, e *engine.Engine, w Workload) ([]Row, error) {
	res, err := e.Execute(ctx, w.Call)
	if err != nil {
		return nil, err
	}
	out := make([]Row, 0, len(res.Entities))
	for _, en := range res.Entities {
		r := Row{ID: fmt.Sprint(en.ID)}
		if v, ok := en.Computed["line_count"]; ok {
			lc, ok := v.(int64)
			if !ok {
				return nil, fmt.Errorf("line_count of %v is %T %v, want an integer", en.ID, v, v)
			}
			r.LineCount = &lc
		}
		out = append(out, r)
	}
	return out, nil
}

// GraphQLRows runs w's GraphQL query once and returns its rows.
func GraphQLRows(gql *GraphQL, w Workload) ([]Row, error) {
	data, err := gql.Query(w)
	if err != nil {
		return nil, err
	}
	var d gqlData
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("@neo4j/graphql answer: %w", err)
	}
	return w.graphQLRows(d), nil
}

func same(a, b []Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].String() != b[i].String() {
			return false
		}
	}
	return true
}

// diff lays the three answers side by side, marking the rows that differ.
func diff(want, rf, gq []Row) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %-4s %-48s %-48s %s\n", "#", "expected (Go, from the source)", "ragforge", "@neo4j/graphql")
	at := func(rs []Row, i int) string {
		if i < len(rs) {
			return rs[i].String()
		}
		return "-"
	}
	for i := range max(len(want), len(rf), len(gq)) {
		mark := " "
		if at(want, i) != at(rf, i) || at(want, i) != at(gq, i) {
			mark = "≠"
		}
		fmt.Fprintf(&b, "%s %-4d %-48s %-48s %s\n", mark, i+1, at(want, i), at(rf, i), at(gq, i))
	}
	return b.String()
}

package explore

import (
	"context"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// Statements returns both statements of a call, for tests that check
// them on Neo4j's plan: the candidate statement, and the context
// statement for the given hit ids.
func Statements(ctx context.Context, m *model.Model, env tools.Env, a Args, tn string, hits []string) (kinds map[string]bool, cypher []string, params []map[string]any, err error) {
	x := newExplorer(m, env)
	srcs, err := x.sources(ctx, a, x.tops(nil))
	if err != nil {
		return nil, nil, nil, err
	}
	kinds = map[string]bool{}
	for _, s := range srcs {
		kinds[s.kind] = true
	}
	q1, p1, err := x.candidateStatement(srcs, tn, true)
	if err != nil {
		return nil, nil, nil, err
	}
	q2, p2, err := x.contextStatement(hits, tn)
	return kinds, []string{q1, q2}, []map[string]any{p1, p2}, err
}

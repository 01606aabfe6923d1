package planner

import (
	"github.com/ragforge/ragforge/tools"
)

// candidateFactor is how many vector candidates semantic_search fetches per
// wanted result when conditions may drop some.
const candidateFactor = 10

// semanticSearch plans semantic_search: the vector index's nearest
// neighbours of the embedded query (the engine fills $embedding), at or
// above min_score, filtered by the conditions, best first. With
// conditions, top_k × 10 candidates are fetched so filtering still leaves
// results.
func (p *Planner) semanticSearch(a *tools.SemanticSearchArgs, state State) (*Statement, error) {
	const tool = tools.SemanticSearch
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	if len(e.VectorIndexes) == 0 {
		return nil, tools.Fail(tool, "/entity_type", nil, "%s has no vector index", e.Name)
	}
	vi := e.VectorIndexes[0]
	if a.Index != "" {
		vi = nil
		var names []string
		for _, x := range e.VectorIndexes {
			names = append(names, x.Name)
			if x.Name == a.Index {
				vi = x
			}
		}
		if vi == nil {
			return nil, tools.Fail(tool, "/index", names, "%q is not a vector index of %s", a.Index, e.Name)
		}
	}
	b, err := p.newBuilder(tool, e, state)
	if err != nil {
		return nil, err
	}
	var ps preds
	if err := b.conditions(a.Conditions, "conditions", &ps); err != nil {
		return nil, err
	}
	k := clamp(a.TopK, p.limits.DefaultTopK, p.limits.MaxTopK)
	candidates := k
	// Conditions and the tenant filter drop candidates after the index
	// query, which cannot apply them: ask for more than are returned.
	if len(a.Conditions) > 0 || p.m.Tenant != nil {
		candidates = k * candidateFactor
	}
	b.line("CALL db.index.vector.queryNodes(%s, %s, %s) YIELD node AS n, score", b.named("index", vi.Name), b.named("candidates", int64(candidates)), b.named("embedding", nil))
	where := append(b.scoped("n", []string{"n:" + b.q(e.Name), "score >= " + b.named("min_score", a.MinScore)}), ps.stored...)
	b.line("WHERE %s", joinAnd(where))
	b.scope = append(b.scope, "score")
	if err := b.ensure(ps.refs...); err != nil {
		return nil, err
	}
	b.filterScope(ps.computed)
	orders := []order{scoreOrder(b.q("score")), b.idOrder()}
	b.line("WITH %s\nORDER BY %s\nLIMIT %s", b.carried(), orderList(orders), b.named("limit", int64(k)))
	if err := b.returnEntities(b.defaultStored(), nil, []string{b.q("score") + " AS score"}, orders); err != nil {
		return nil, err
	}
	st, err := b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: k, Extra: []string{"score"}})
	if err != nil {
		return nil, err
	}
	st.Embed = &Embed{Param: "embedding", Text: a.Query, Index: vi.Name, Model: vi.Model, Dimensions: vi.Dimensions}
	return st, nil
}

func joinAnd(preds []string) string {
	out := ""
	for i, p := range preds {
		if i > 0 {
			out += " AND "
		}
		out += p
	}
	return out
}

package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// SemanticSearch compares an embedded text query with the entities' vector
// indexes.
const SemanticSearch = "semantic_search"

// defaultMinScore is min_score's default.
const defaultMinScore = 0.7

// candidateFactor is how many vector candidates semantic_search fetches per
// wanted result when conditions may drop some.
const candidateFactor = 10

func init() {
	register(declaration[SemanticSearchArgs]{
		Kind: tools.Kind{Name: SemanticSearch, Category: tools.CategorySearch, Rank: 50, Offered: func(o tools.Options) bool { return !o.NoSemanticSearch }, Generate: generateSemanticSearch},
		args: func(l tools.Limits) *SemanticSearchArgs {
			return &SemanticSearchArgs{TopK: l.DefaultTopK, MinScore: defaultMinScore}
		},
		check: checkSemantic,
		plan:  (*Planner).semanticSearch,
	})
}

// SemanticSearchArgs are semantic_search's arguments; Index is filled with
// the entity's first vector index when the agent gave none.
type SemanticSearchArgs struct {
	EntityType string            `json:"entity_type"`
	Query      string            `json:"query"`
	Index      string            `json:"index"`
	TopK       int               `json:"top_k"`
	MinScore   float64           `json:"min_score"`
	Conditions []tools.Condition `json:"conditions"`
}

// generateSemanticSearch writes the tool that compares an embedded text
// query with the entities' vector indexes. One tool covers every index: the
// agent picks the entity and, when an entity has several indexes, the index
// (by default its first).
func generateSemanticSearch(g *tools.Generator) *tools.Generated {
	var offers []*tools.EntityOffer
	var entities []*model.Entity
	var indexNames []string
	for _, e := range g.Model().Entities {
		if len(e.VectorIndexes) == 0 {
			continue
		}
		if !tools.Enabled(e, SemanticSearch) {
			continue
		}
		qo := g.QueryOffer(e.Name)
		if qo == nil {
			qo = &tools.EntityOffer{Entity: e}
		}
		offers = append(offers, qo)
		entities = append(entities, e)
		for _, vi := range e.VectorIndexes {
			indexNames = append(indexNames, vi.Name)
		}
	}
	if len(offers) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Entities closest in meaning to query: unique ids, scores, a snippet. conditions: field tests (query_entities) on the hits.\nIndexes: ")
	var idx []string
	for _, e := range entities {
		for i, vi := range e.VectorIndexes {
			s := vi.Name + " (" + e.Name + "." + vi.Field
			if i == 0 && len(e.VectorIndexes) > 1 {
				s += ", default"
			}
			idx = append(idx, s+")")
		}
	}
	b.WriteString(strings.Join(idx, ", ") + ".")
	if c := g.EmbedderCaveat(); c != "" {
		b.WriteString("\n" + c)
	}
	l := g.Limits()
	in := tools.Object(
		tools.EntityTypeProp(tools.OfferEntities(offers)),
		tools.Prop{Name: "query", Schema: &tools.Schema{Type: "string", MinLength: tools.Count(1), MaxLength: tools.Count(4000)}},
		tools.Prop{Name: "index", Schema: &tools.Schema{Type: "string", Enum: indexNames}},
		tools.Prop{Name: "top_k", Schema: &tools.Schema{Type: "integer", Default: l.DefaultTopK, Maximum: tools.Num(float64(l.MaxTopK)), Least: tools.Least(1)}},
		tools.Prop{Name: "min_score", Schema: &tools.Schema{Type: "number", Default: defaultMinScore, Minimum: tools.Num(0), Maximum: tools.Num(1)}},
		tools.Prop{Name: "conditions", Schema: &tools.Schema{Type: "array", Items: tools.FieldTest().Require("field", "operator")}},
	).Require("entity_type", "query")
	return &tools.Generated{Description: b.String(), Input: in, Offers: offers}
}

// checkSemantic checks decoded arguments and fills their defaults.
func checkSemantic(ck *tools.Checker, a *SemanticSearchArgs) {
	o := ck.Entity(a.EntityType, "/entity_type")
	if o == nil {
		return
	}
	var names []string
	for _, vi := range o.Entity.VectorIndexes {
		names = append(names, vi.Name)
	}
	if a.Index == "" && len(names) > 0 {
		a.Index = names[0]
	} else if !slices.Contains(names, a.Index) {
		ck.Choose("/index", names, "%q is not a vector index of %s", a.Index, o.Entity.Name)
	}
	ck.Conditions(o, a.Conditions, "conditions")
}

// semanticSearch plans semantic_search: the vector index's nearest
// neighbours of the embedded query (the engine fills $embedding), at or
// above min_score, filtered by the conditions, best first. With
// conditions, top_k × 10 candidates are fetched so filtering still leaves
// results.
func (p *Planner) semanticSearch(a *SemanticSearchArgs, state model.State) (*Statement, error) {
	const tool = SemanticSearch
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
	b.line("WITH %s\nORDER BY %s\nLIMIT %s", b.carried(), orderList(orders), b.pageSize(k))
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

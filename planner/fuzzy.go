package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/lucene"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// fuzzyEdits is the edit distance fuzzy matching tolerates per word, as the
// tool description promises ("edit distance up to 2 per word").
const fuzzyEdits = 2

// fuzzySearch plans text_pattern_search's fuzzy mode: through the
// entity's full-text index when it covers the field (every word of the
// pattern must match a word of the field within two edits, Lucene's
// word~2), otherwise through APOC's Levenshtein distance on the field's
// words. Without either the mode is not offered.
func (p *Planner) fuzzySearch(a *TextPatternSearchArgs, state model.State) (*Statement, error) {
	const tool = TextPatternSearch
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	words := tools.Words(a.Pattern)
	ft := e.FullTextIndex
	if p.caps.FullText && ft != nil && e.Field(a.Field) != nil && slices.Contains(ft.Fields, a.Field) {
		b, err := p.newBuilder(tool, e, state)
		if err != nil {
			return nil, err
		}
		r, _ := b.field(a.Field, "/field")
		b.use(r, model.UseFilter)
		terms := make([]string, len(words))
		for i, w := range words {
			terms[i] = "+" + lucene.Escape(a.Field) + ":" + lucene.Escape(w) + "~" + itoa(fuzzyEdits)
		}
		limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
		b.line("CALL db.index.fulltext.queryNodes(%s, %s) YIELD node AS n, score", b.named("index", ft.Name), b.named("query", strings.Join(terms, " ")))
		b.line("WHERE %s", joinAnd(b.scoped("n", []string{"n:" + b.q(e.Name)})))
		orders := []order{scoreOrder("score"), b.idOrder()}
		b.scope = append(b.scope, "score")
		b.line("WITH %s\nORDER BY %s\nLIMIT %s", b.carried(), orderList(orders), b.pageSize(limit))
		if err := b.returnEntities(b.defaultStored(), nil, []string{"score AS score"}, orders); err != nil {
			return nil, err
		}
		return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: limit, Extra: []string{"score"}})
	}
	if !p.caps.APOC {
		return nil, tools.Fail(tool, "/mode", []string{"contains", "starts_with", "ends_with", "exact", "regex", "glob"},
			"fuzzy matching on %s.%s needs a full-text index over the field or APOC on the server", e.Name, a.Field)
	}
	s := search{tool: tool, entity: a.EntityType, field: a.Field, limit: a.Limit, notNull: true}
	s.pred = func(b *builder, r fieldRef, x string) ([]string, error) {
		return []string{"all(q IN " + b.named("words", words) + " WHERE any(w IN apoc.text.split(toLower(" + x +
			"), '[^\\\\p{L}\\\\p{N}_]+') WHERE apoc.text.distance(w, q) <= " + itoa(fuzzyEdits) + "))"}, nil
	}
	s.orders = func(b *builder, x string) []order {
		return []order{{expr: "apoc.text.levenshteinSimilarity(toLower(" + x + "), " + b.named("pattern", strings.ToLower(a.Pattern)) + ")", desc: true, key: &SortKey{Name: "similarity"}}}
	}
	st, err := p.search(s, state)
	return st, err
}

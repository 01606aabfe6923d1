package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/tools"
)

// fulltextSearch plans fulltext_search: the agent's words, each
// Lucene-escaped (so no query syntax of the agent's survives), optionally
// fuzzy (word~2), restricted to the chosen fields, any word matching
// (Lucene's OR), ranked by score.
func (p *Planner) fulltextSearch(a *tools.FulltextSearchArgs, state State) (*Statement, error) {
	const tool = tools.FulltextSearch
	e, err := p.entity(tool, a.EntityType, "/entity_type")
	if err != nil {
		return nil, err
	}
	ft := e.FullTextIndex
	if ft == nil {
		return nil, tools.Fail(tool, "/entity_type", nil, "%s has no full-text index", e.Name)
	}
	fields := a.Fields
	for i, f := range fields {
		if !slices.Contains(ft.Fields, f) {
			return nil, tools.Fail(tool, "/fields/"+itoa(i), ft.Fields, "%q is not in %s's full-text index", f, e.Name)
		}
	}
	words := strings.Fields(a.Query)
	terms := make([]string, len(words))
	for i, w := range words {
		terms[i] = LuceneEscape(w)
		if a.Fuzzy {
			terms[i] += "~" + itoa(fuzzyEdits)
		}
	}
	group := "(" + strings.Join(terms, " ") + ")"
	var query string
	if len(fields) == len(ft.Fields) {
		query = group
	} else {
		parts := make([]string, len(fields))
		for i, f := range fields {
			parts[i] = LuceneEscape(f) + ":" + group
		}
		query = strings.Join(parts, " OR ")
	}
	b, err := p.newBuilder(tool, e, state)
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if r, err := b.field(f, "/fields"); err == nil {
			b.use(r, UseFilter)
		}
	}
	limit := clamp(a.Limit, p.limits.DefaultLimit, p.limits.MaxLimit)
	b.line("CALL db.index.fulltext.queryNodes(%s, %s) YIELD node AS n, score", b.named("index", ft.Name), b.named("query", query))
	where := b.scoped("n", []string{"n:" + b.q(e.Name)})
	if a.MinScore != nil {
		where = append(where, "score >= "+b.named("min_score", *a.MinScore))
	}
	b.line("WHERE %s", joinAnd(where))
	b.scope = append(b.scope, "score")
	orders := []order{scoreOrder(b.q("score")), b.idOrder()}
	b.line("WITH %s\nORDER BY %s\nLIMIT %s", b.carried(), orderList(orders), b.named("limit", int64(limit)))
	if err := b.returnEntities(b.defaultStored(), nil, []string{b.q("score") + " AS score"}, orders); err != nil {
		return nil, err
	}
	return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: limit, Extra: []string{"score"}})
}

package planner

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/internal/cypher/lucene"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// FulltextSearch queries the entities' full-text indexes (Lucene).
const FulltextSearch = "fulltext_search"

func init() {
	register(declaration[FulltextSearchArgs]{
		Kind:  tools.Kind{Name: FulltextSearch, Category: tools.CategorySearch, Rank: 60, Offered: withSpecialized, Generate: generateFulltextSearch},
		check: checkFulltext,
		plan:  (*Planner).fulltextSearch,
	})
}

// FulltextSearchArgs are fulltext_search's arguments; Fields is filled with
// all the index's fields when the agent gave none. MinScore is nil when not
// given.
type FulltextSearchArgs struct {
	EntityType string   `json:"entity_type"`
	Query      string   `json:"query"`
	Fields     []string `json:"fields"`
	Fuzzy      bool     `json:"fuzzy"`
	MinScore   *float64 `json:"min_score"`
	Limit      int      `json:"limit"`
}

// generateFulltextSearch writes the tool that queries the entities'
// full-text indexes (Lucene), when the server has them.
func generateFulltextSearch(g *tools.Generator) *tools.Generated {
	if !g.Capabilities().FullText {
		return nil
	}
	var offers []*tools.EntityOffer
	for _, e := range g.Model().Entities {
		ft := e.FullTextIndex
		if ft == nil {
			continue
		}
		if !tools.Enabled(e, FulltextSearch) {
			continue
		}
		o := &tools.EntityOffer{Entity: e}
		for _, name := range ft.Fields {
			if f := e.Field(name); f != nil {
				o.Fields = append(o.Fields, &tools.FieldOffer{Field: f})
			}
		}
		offers = append(offers, o)
	}
	if len(offers) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("Entities whose full-text indexed fields match query (Lucene), best first; fuzzy tolerates typos. Indexed: ")
	for i, o := range offers {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(o.Entity.Name + ": " + strings.Join(o.FieldNames(), ", "))
	}
	b.WriteString(".")
	in := tools.Object(
		tools.EntityTypeProp(tools.OfferEntities(offers)),
		tools.Prop{Name: "query", Schema: &tools.Schema{Type: "string", MinLength: tools.Count(1), MaxLength: tools.Count(1000)}},
		tools.Prop{Name: "fields", Schema: &tools.Schema{Type: "array", Description: "Default: all indexed", Items: &tools.Schema{Type: "string"}, MinItems: tools.Count(1), UniqueItems: true}},
		tools.Prop{Name: "fuzzy", Schema: &tools.Schema{Type: "boolean"}},
		tools.Prop{Name: "min_score", Schema: &tools.Schema{Type: "number", Minimum: tools.Num(0)}},
		g.LimitProp(),
	).Require("entity_type", "query")
	return &tools.Generated{Description: b.String(), Input: in, Offers: offers}
}

// checkFulltext checks decoded arguments and fills their defaults.
func checkFulltext(ck *tools.Checker, a *FulltextSearchArgs) {
	a.Limit = ck.Limit(a.Limit)
	o := ck.Entity(a.EntityType, "/entity_type")
	if o == nil {
		return
	}
	if len(strings.Fields(a.Query)) == 0 {
		ck.Add("/query", "query has no words")
	}
	if len(a.Fields) == 0 {
		a.Fields = o.FieldNames()
	}
	for i, f := range a.Fields {
		if o.Field(f) == nil {
			ck.Choose(tools.Pointer("fields", i), o.FieldNames(), "%q is not in %s's full-text index", f, o.Entity.Name)
		}
	}
}

// fulltextSearch plans fulltext_search: the agent's words, each
// Lucene-escaped (so no query syntax of the agent's survives), optionally
// fuzzy (word~2), restricted to the chosen fields, any word matching
// (Lucene's OR), ranked by score.
func (p *Planner) fulltextSearch(a *FulltextSearchArgs, state model.State) (*Statement, error) {
	const tool = FulltextSearch
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
		terms[i] = lucene.Escape(w)
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
			parts[i] = lucene.Escape(f) + ":" + group
		}
		query = strings.Join(parts, " OR ")
	}
	b, err := p.newBuilder(tool, e, state)
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if r, err := b.field(f, "/fields"); err == nil {
			b.use(r, model.UseFilter)
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
	b.line("WITH %s\nORDER BY %s\nLIMIT %s", b.carried(), orderList(orders), b.pageSize(limit))
	if err := b.returnEntities(b.defaultStored(), nil, []string{b.q("score") + " AS score"}, orders); err != nil {
		return nil, err
	}
	return b.statement(Shape{Kind: ShapeEntities, Entity: e.Name, Limit: limit, Extra: []string{"score"}})
}

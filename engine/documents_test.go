package engine

import (
	"slices"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/retrieval"
	"github.com/ragforge/ragforge/tools"
)

func TestDocumentsCarryConfigKeywordsExamplesAndParameters(t *testing.T) {
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := planner.Generate(m, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	docs := Documents(m, c)
	if len(docs) != len(c.Tools) {
		t.Fatalf("%d documents for %d tools", len(docs), len(c.Tools))
	}
	q := docs[slices.IndexFunc(docs, func(d retrieval.Document) bool { return d.Name == planner.QueryEntities })]
	if !slices.Contains(q.Keywords, "دالة") || !slices.Contains(q.Keywords, "Scope") {
		t.Errorf("query_entities keywords %v lack the Scope tool_docs and entity names", q.Keywords)
	}
	if len(q.Examples) != 2 {
		t.Errorf("examples = %v, want the 2 Scope examples", q.Examples)
	}
	if i := slices.IndexFunc(q.Parameters, func(p retrieval.Parameter) bool { return p.Name == "entity_type" }); i < 0 || !q.Parameters[i].Required || !slices.Contains(q.Parameters[i].Enum, "Scope") {
		t.Errorf("entity_type parameter not described: %+v", q.Parameters)
	}
	ix, err := retrieval.NewIndex(docs)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := ix.Select("find functions whose name starts with Parse", retrieval.Options{TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(sel.Names(), planner.TextPatternSearch) {
		t.Errorf("a pattern question selected %v, want text_pattern_search among them", sel.Names())
	}
}

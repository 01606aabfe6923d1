package retrieval_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/retrieval"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// Index an engine's tools once, then hand the agent only the tools a message
// needs, rendered as for the whole catalog.
func ExampleIndex_Select() {
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ix, err := retrieval.NewIndex(engine.Documents(m, eng.Tools()))
	if err != nil {
		log.Fatal(err)
	}
	sel, err := ix.Select("the 10 largest functions over 200 lines", retrieval.Options{TopK: 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d tools (fallback: %v)\n", len(sel.Selected), ix.Len(), sel.Fallback)
	var chosen []*tools.Tool
	for _, name := range sel.Names() {
		chosen = append(chosen, eng.Tools().Tool(name))
	}
	defs, err := format.Render(chosen, format.Anthropic)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range defs.([]format.AnthropicTool) { // the request's tools
		fmt.Println(d.Name)
	}
	// Output:
	// 3 of 9 tools (fallback: false)
	// number_range_search
	// query_entities
	// explore_relationships
}

// Tools that no config generates are described by catalog files, one JSON
// file per tool; their keywords and example messages may be in any language.
func ExampleLoadCatalog() {
	docs, err := retrieval.LoadCatalog("../testdata/catalog")
	if err != nil {
		log.Fatal(err)
	}
	ix, err := retrieval.NewIndex(docs)
	if err != nil {
		log.Fatal(err)
	}
	for _, msg := range []string{
		"which files changed this week",
		"كم عدد الدوال في المشروع؟", // how many functions are in the project?
	} {
		sel, err := ix.Select(msg, retrieval.Options{TopK: 1})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(sel.Names())
	}
	// Output:
	// [recent_changes]
	// [count_entities]
}

package format_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"maps"
	"slices"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// Marshal renders the tools as a provider's API takes them: the same name,
// description and argument schema under each provider's keys.
func ExampleMarshal() {
	m, err := config.Load("../../testdata/configs/valid/movies.yaml")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range []format.Format{format.MCP, format.OpenAI, format.Anthropic, format.Gemini} {
		b, err := format.Marshal(eng.Tools().Tools, f)
		if err != nil {
			log.Fatal(err)
		}
		var defs []map[string]any
		if err := json.Unmarshal(b, &defs); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d tools, keys %v\n", f, len(defs), slices.Sorted(maps.Keys(defs[0])))
	}
	// Output:
	// mcp: 7 tools, keys [annotations description inputSchema name]
	// openai: 7 tools, keys [function type]
	// anthropic: 7 tools, keys [description input_schema name]
	// gemini: 7 tools, keys [description name parameters]
}

// Render returns the provider's Go values ([]format.OpenAITool here), to
// embed in a request built with the provider's client library. OpenAI's
// strict mode is set where the tool's schema allows it.
func ExampleRender() {
	m, err := config.Load("../../testdata/configs/valid/movies.yaml")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	v, err := format.Render(eng.Tools().Tools, format.OpenAI)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range v.([]format.OpenAITool) {
		fmt.Println(t.Type, t.Function.Name, "strict:", t.Function.Strict)
	}
	// Output:
	// function query_entities strict: false
	// function get_entity_by_id strict: false
	// function explore_relationships strict: false
	// function find_paths strict: false
	// function text_pattern_search strict: false
	// function number_range_search strict: false
	// function find_similar_person strict: false
}

// Listing is the form for a person at a terminal (ragforge-plan tools).
func ExampleListing() {
	m, err := config.Load("../../testdata/configs/valid/movies.yaml")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(format.Listing([]*tools.Tool{eng.Tools().Tool("get_entity_by_id")}))
	// Output:
	// get_entity_by_id [query, read-only]
	//     One entity's properties by its unique id (Movie.title, Person.name). field reads one string field whole, length characters a call from offset; stats: text_length, next_offset.
	//   arguments:
	//     *entity_type        string (Movie|Person)
	//     *id_value           string | number
	//      field              string
	//      offset             integer 0..
	//      length             integer ..20000
}

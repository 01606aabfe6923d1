package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/tools"
)

// An engine built without a driver lists its tools and plans calls but runs
// none. With a driver, New asks the server whether it has the config's
// full-text indexes and APOC, unless the options say so.
func ExampleNew() {
	m, err := config.Load("../testdata/configs/valid/movies.yaml")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{
		// Driver: driver, // to run calls on Neo4j
		Tools: tools.Options{
			Aggregations: true, // add aggregate_entities and query_relationships
			Capabilities: &tools.Capabilities{FullText: true},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range eng.Tools().Tools {
		fmt.Printf("%s (%s)\n", t.Name, t.Category)
	}
	// Output:
	// query_entities (query)
	// get_entity_by_id (query)
	// explore_relationships (graph)
	// find_paths (graph)
	// text_pattern_search (search)
	// number_range_search (search)
	// aggregate_entities (analytics)
	// query_relationships (analytics)
	// find_similar_person (similarity)
}

// Plan turns an agent's call into the one parameterized statement Execute
// would run: the Cypher text comes from the config, every value the agent
// sent is a parameter.
func ExampleEngine_Plan() {
	m, err := config.Load("../testdata/configs/valid/movies.yaml")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	st, err := eng.Plan(context.Background(), engine.Call{
		Name:      "query_entities",
		Arguments: json.RawMessage(`{"entity_type": "Movie", "conditions": [{"field": "released", "operator": ">=", "value": 2000}], "limit": 5}`),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Cypher)
	params, _ := json.Marshal(st.Params) // maps marshal with sorted keys
	fmt.Println(string(params))
	// Output:
	// MATCH (n:`Movie`)
	// WHERE n.`released` >= $p0
	// WITH n
	// ORDER BY n.`title`
	// SKIP $offset LIMIT $limit
	// RETURN n.`title` AS id, n {.`released`, `tagline`: left(n.`tagline`, $text_cut)} AS properties, {} AS computed
	// ORDER BY n.`title`
	// {"limit":5,"offset":0,"p0":2000,"text_cut":501}
}

// A bad call is a *tools.CallError that says what is wrong and lists the
// valid choices, so the agent can correct its call.
func ExampleEngine_Plan_callError() {
	m, err := config.Load("../testdata/configs/valid/movies.yaml")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	_, err = eng.Plan(context.Background(), engine.Call{
		Name:      "query_entities",
		Arguments: json.RawMessage(`{"entity_type": "Film"}`),
	})
	var ce *tools.CallError
	if errors.As(err, &ce) {
		for _, p := range ce.Problems {
			fmt.Printf("%s: %s (valid: %s)\n", p.Path, p.Message, strings.Join(p.Valid, ", "))
		}
	}
	// Output:
	// /entity_type: "Film" is not a valid choice (valid: Movie, Person)
}

package mcpserver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/mcpserver"
)

// A server over an engine, reached here by an in-process MCP client; a
// program serves it with RunStdio or ServeHTTP instead. The engine has no
// driver, so only a bad call (answered before any database work) is shown.
func ExampleNew() {
	m, err := config.Load("../testdata/configs/valid/movies.yaml")
	if err != nil {
		log.Fatal(err)
	}
	eng, err := engine.New(context.Background(), m, engine.Options{})
	if err != nil {
		log.Fatal(err)
	}
	s, err := mcpserver.New(eng, mcpserver.Options{Name: "movies"})
	if err != nil {
		log.Fatal(err)
	}
	// s.RunStdio(ctx, 5*time.Second) would serve an MCP client on stdin and stdout.
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, serverEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range list.Tools {
		fmt.Println(t.Name, "read-only:", t.Annotations.ReadOnlyHint)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      "get_entity_by_id",
		Arguments: map[string]any{"entity_type": "Film", "id_value": "Heat"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("isError:", res.IsError)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// explore_relationships read-only: true
	// find_paths read-only: true
	// find_similar_person read-only: true
	// get_entity_by_id read-only: true
	// number_range_search read-only: true
	// query_entities read-only: true
	// text_pattern_search read-only: true
	// isError: true
	// invalid call to get_entity_by_id: /entity_type: "Film" is not a valid choice (valid: Movie, Person)
}

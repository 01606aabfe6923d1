package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// runTools prints the tools a config generates: a readable listing by
// default, or one JSON array in a provider's format, which is what an
// application hands its LLM.
func runTools(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("tools", stderr,
		"usage: ragforge-plan tools CONFIG... [--format text|mcp|openai|anthropic|gemini|json] [flags]",
	)
	formatName := fs.String("format", "text", "output: text (a listing), or a JSON array in mcp, openai, anthropic, gemini or json format")
	aggregations := fs.Bool("aggregations", false, "add aggregate_entities")
	rawCypher := fs.Bool("raw-cypher", false, "add run_cypher (read-only statements only)")
	noSpecialized := fs.Bool("no-specialized", false, "leave out the specialized search tools and fulltext_search")
	noSemantic := fs.Bool("no-semantic", false, "leave out semantic_search")
	noRelationships := fs.Bool("no-relationships", false, "leave out explore_relationships")
	apoc := fs.Bool("apoc", false, "the server has APOC (fuzzy matching on every string field)")
	noFullText := fs.Bool("no-fulltext", false, "the server lacks the config's full-text indexes")
	configs, ok := parseConfigs(fs, args)
	if !ok {
		return 2
	}
	var f format.Format
	if *formatName != "text" {
		var err error
		if f, err = format.Parse(*formatName); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan tools: %v (or text)\n", err)
			return 2
		}
	}
	m, err := engine.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, strings.TrimRight(err.Error(), "\n"))
		return 1
	}
	trees, err := customTools(m)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return 1
	}
	cat, err := tools.Generate(m, tools.Options{
		CustomTools:      trees,
		NoSemanticSearch: *noSemantic,
		NoRelationships:  *noRelationships,
		NoSpecialized:    *noSpecialized,
		Aggregations:     *aggregations,
		RawCypher:        *rawCypher,
		Capabilities:     &tools.Capabilities{FullText: !*noFullText, APOC: *apoc},
	})
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return 1
	}
	if f == "" {
		fmt.Fprint(stdout, format.Listing(cat.Tools))
		md := cat.Metadata
		fmt.Fprintf(stdout, "\n%d tools for %d entities (%d fields, %d computed fields)\n", md.ToolCount, md.EntityCount, md.SearchableFieldCount, md.ComputedFieldCount)
		return 0
	}
	out, err := format.Marshal(cat.Tools, f)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		return 1
	}
	return 0
}

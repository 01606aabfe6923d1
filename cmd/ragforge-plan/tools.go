package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// runTools prints the tools a config generates: a readable listing by
// default, or one JSON array in a provider's format, which is what an
// application hands its LLM. With --uri it prints the catalog call offers
// on that server: the same engine options and capability detection.
func runTools(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("tools", stderr,
		"usage: ragforge-plan tools CONFIG... [--format text|mcp|openai|anthropic|gemini|json] [flags]",
		"       ragforge-plan tools CONFIG... --uri URI [--raw-cypher] [--tenant T] [--embedder …]   (what call offers on that server)",
	)
	conn := addConnectionFlags(fs)
	ef := addEngineFlags(fs, "with --uri: the tenant, as call takes it")
	formatName := fs.String("format", "text", "output: text (a listing), or a JSON array in mcp, openai, anthropic, gemini or json format")
	aggregations := fs.Bool("aggregations", false, "add aggregate_entities")
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
	m, err := config.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, strings.TrimRight(err.Error(), "\n"))
		return 1
	}
	if flagGiven(fs, "uri") {
		for _, offline := range []string{"aggregations", "no-specialized", "no-semantic", "no-relationships", "apoc", "no-fulltext"} {
			if flagGiven(fs, offline) {
				fmt.Fprintf(stderr, "ragforge-plan tools: --%s describes a catalog without a server; with --uri the catalog is the one call offers there (capabilities detected)\n", offline)
				return 2
			}
		}
		cat, code := serverCatalog(ctx, m, conn, ef, stderr)
		if cat == nil {
			return code
		}
		return printCatalog(cat, f, stdout, stderr)
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
		RawCypher:        *ef.raw,
		Capabilities:     &tools.Capabilities{FullText: !*noFullText, APOC: *apoc},
	})
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return 1
	}
	return printCatalog(cat, f, stdout, stderr)
}

// serverCatalog builds the engine call would run on the server and returns
// its catalog, or nil and the exit code.
func serverCatalog(ctx context.Context, m *model.Model, conn *connection, ef *engineFlags, stderr io.Writer) (*tools.Catalog, int) {
	opts, err := ef.options(m, engine.DefaultTimeout)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return nil, 2
	}
	d, err := conn.open(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return nil, 1
	}
	defer d.Close(context.Background())
	opts.Driver, opts.Database = d, conn.database
	e, err := engine.New(m, opts)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return nil, 1
	}
	return e.Tools(), 0
}

// printCatalog prints a catalog as a listing (f empty) or in format f.
func printCatalog(cat *tools.Catalog, f format.Format, stdout, stderr io.Writer) int {
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

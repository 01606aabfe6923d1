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
		"       ragforge-plan tools CONFIG... --uri URI [--profile P] [--raw-cypher] [--tenant T] [--embedder …]   (what call offers on that server)",
		"The same flags list the same tools as call and serve (and vet, select): without --uri, for a server with the",
		"config's full-text indexes and without APOC or GDS unless --no-fulltext, --apoc, --gds say otherwise.",
	)
	conn := addConnectionFlags(fs)
	ef := addEngineFlags(fs, "with --uri: the tenant, as call takes it")
	cf := addCapabilityFlags(fs)
	formatName := fs.String("format", "text", "output: text (a listing), or a JSON array in mcp, openai, anthropic, gemini or json format")
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
		for _, offline := range []string{"apoc", "gds", "no-fulltext"} {
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
	opts, err := ef.options(m, engine.DefaultTimeout)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return 2
	}
	e, err := offlineEngine(ctx, m, opts, cf)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan tools: %v\n", err)
		return 1
	}
	return printCatalog(e.Tools(), f, stdout, stderr)
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
	e, err := engine.New(ctx, m, opts)
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

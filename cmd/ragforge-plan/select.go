package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/retrieval"
)

// stringList is a repeatable string flag (--catalog A --catalog B).
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// documentsFromConfigs turns the tools the configs offer with the engine
// flags (query_entities, semantic_search, explore, ...) into retrieval
// documents: the catalog serve's search_tools searches with the same flags.
func documentsFromConfigs(ctx context.Context, paths []string, ef *engineFlags, cf *capabilityFlags) ([]retrieval.Document, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	m, err := config.Load(paths...)
	if err != nil {
		return nil, err
	}
	opts, err := ef.options(m, engine.DefaultTimeout)
	if err != nil {
		return nil, err
	}
	e, err := offlineEngine(ctx, m, opts, cf)
	if err != nil {
		return nil, err
	}
	return engine.Documents(m, e.Tools()), nil
}

func runSelect(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("select", stderr,
		"usage: ragforge-plan select [--config FILE]... [--catalog DIR]... [--top-k N] [--always TOOL]... [--debug] [--format text|json] [tool flags] MESSAGE",
	)
	var configs, catalogs stringList
	fs.Var(&configs, "config", "ragforge config whose tools join the catalog, as the tool flags choose them (repeatable)")
	fs.Var(&catalogs, "catalog", "folder of #ToolDoc JSON files, one per tool (repeatable)")
	sf := addSelectionFlags(fs, retrieval.DefaultOptions(), true)
	ef := addEngineFlags(fs, "")
	cf := addCapabilityFlags(fs)
	format := formatFlag(fs)
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(positional) == 0 {
		fs.Usage()
		return 2
	}
	message := strings.Join(positional, " ")
	if len(configs) == 0 && len(catalogs) == 0 {
		fmt.Fprintln(stderr, "ragforge-plan select: give at least one --catalog DIR (or --config FILE)")
		return 2
	}
	opts, err := sf.options()
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan select: %v\n", err)
		return 2
	}

	docs, err := documentsFromConfigs(ctx, configs, ef, cf)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan select: %v\n", err)
		return 1
	}
	if len(catalogs) > 0 {
		more, err := retrieval.LoadCatalog(catalogs...)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		docs = append(docs, more...)
	}
	ix, err := retrieval.NewIndex(docs)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan select: %v\n", err)
		return 1
	}
	sel, err := ix.Select(message, opts)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan select: %v\n", err)
		return 2
	}
	if *format == "json" {
		return writeJSON("select", stdout, stderr, sel)
	}
	if opts.Debug {
		if err := sel.WriteDebug(stdout); err != nil {
			return 1
		}
		return 0
	}
	for _, s := range sel.Selected {
		fmt.Fprintln(stdout, s.Name)
	}
	if sel.Fallback {
		fmt.Fprintf(stderr, "fallback: %s (%d tools)\n", sel.Reason, len(sel.Selected))
	}
	return 0
}

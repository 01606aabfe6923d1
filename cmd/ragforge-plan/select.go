package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/retrieval"
	"github.com/ragforge/ragforge/tools"
)

// stringList is a repeatable string flag (--catalog A --catalog B).
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// documentsFromConfigs turns the tools generated from ragforge configs
// (query_entities, semantic_search, ...) into retrieval documents.
func documentsFromConfigs(paths []string) ([]retrieval.Document, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	m, err := config.Load(paths...)
	if err != nil {
		return nil, err
	}
	trees, err := customTools(m)
	if err != nil {
		return nil, err
	}
	catalog, err := tools.Generate(m, tools.Options{CustomTools: trees})
	if err != nil {
		return nil, err
	}
	return engine.Documents(m, catalog), nil
}

func runSelect(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("select", stderr,
		"usage: ragforge-plan select [--config FILE]... [--catalog DIR]... [--top-k N] [--always TOOL]... [--debug] [--format text|json] MESSAGE",
	)
	var configs, catalogs, always stringList
	fs.Var(&configs, "config", "ragforge config whose generated tools join the catalog (repeatable)")
	fs.Var(&catalogs, "catalog", "folder of #ToolDoc JSON files, one per tool (repeatable)")
	fs.Var(&always, "always", "tool to include for every message (repeatable)")
	topK := fs.String("top-k", "", "tools in a confident selection (default "+strconv.Itoa(retrieval.DefaultTopK)+", or "+retrieval.EnvTopK+")")
	fallbackK := fs.String("fallback-k", "", "tools in an uncertain selection (default "+strconv.Itoa(retrieval.DefaultFallbackK)+", or "+retrieval.EnvFallbackK+")")
	debug := fs.Bool("debug", false, "show each tool's score, signals and matched terms")
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

	opts, err := retrieval.OptionsFromEnv()
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan select: %v\n", err)
		return 2
	}
	for _, f := range []struct {
		name, val string
		dst       *int
	}{{"top-k", *topK, &opts.TopK}, {"fallback-k", *fallbackK, &opts.FallbackK}} {
		if f.val == "" {
			continue
		}
		n, err := strconv.Atoi(f.val)
		if err != nil || n <= 0 {
			fmt.Fprintf(stderr, "ragforge-plan select: --%s %q: want a positive integer\n", f.name, f.val)
			return 2
		}
		*f.dst = n
	}
	if *topK != "" && *fallbackK == "" && opts.FallbackK < opts.TopK {
		opts.FallbackK = opts.TopK
	}
	opts.Always = append(opts.Always, always...)
	if opts.MaxTools < opts.FallbackK+len(opts.Always) {
		opts.MaxTools = opts.FallbackK + len(opts.Always)
	}
	opts.Debug = opts.Debug || *debug

	docs, err := documentsFromConfigs(configs)
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
		return encodeJSON(stdout, stderr, sel)
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

// encodeJSON writes v as indented JSON and returns the exit code.
func encodeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "ragforge-plan: %v\n", err)
		return 1
	}
	return 0
}

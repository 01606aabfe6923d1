package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/retrieval"
	"github.com/ragforge/ragforge/tools"
)

// engineFlags choose what an engine offers — its tools (--profile,
// --raw-cypher, --no-aggregations, --no-specialized, --no-relationships,
// --history),
// the embedder, the tenant — and are the one place that decides the
// default tools of every command. tools, vet, select, call and serve
// register them and build their engine options with
// [engineFlags.options], so the same flags list the same tools wherever
// they are listed, offline or on a server (docs/tools.md, "Which tools an agent
// sees").
type engineFlags struct {
	profile                                                      *string
	raw, noAggregations, noSpecialized, noRelationships, history *bool
	// tenant is nil for the commands that list tools without running
	// them (vet, select): the tenant changes no tool.
	tenant *string
	embed  *embedderFlags
}

// addEngineFlags registers the tool flags and the embedder flags, and
// --tenant (described by tenantHelp) unless tenantHelp is empty.
func addEngineFlags(fs *flag.FlagSet, tenantHelp string) *engineFlags {
	f := &engineFlags{
		profile:         fs.String("profile", "", "offer only the tools of this profile of the config (its profiles: block), of those the other flags offer"),
		raw:             fs.Bool("raw-cypher", false, "offer run_cypher (read-only statements, checked with EXPLAIN)"),
		noAggregations:  fs.Bool("no-aggregations", false, "leave out aggregate_entities and query_relationships"),
		noSpecialized:   fs.Bool("no-specialized", false, "leave out the specialized search tools and fulltext_search"),
		noRelationships: fs.Bool("no-relationships", false, "leave out explore_relationships and find_paths"),
		history:         fs.Bool("history", false, "offer the change-history tools of the config's change_tracking block"),
		embed:           addEmbedderFlags(fs),
	}
	if tenantHelp != "" {
		f.tenant = fs.String("tenant", "", tenantHelp)
	}
	return f
}

// options returns the engine options the flags choose for m; the error is
// a usage error (an embedder that cannot work).
func (f *engineFlags) options(m *model.Model, timeout time.Duration) (engine.Options, error) {
	emb, err := f.embed.build(m)
	if err != nil {
		return engine.Options{}, err
	}
	o := engine.Options{
		Timeout:  timeout,
		Embedder: emb,
		Profile:  *f.profile,
		// aggregate_entities is on unless asked: agents answer "how many"
		// and "on average" questions with it, and the tool reads within the
		// call's deadline like every other.
		Tools: tools.Options{Aggregations: !*f.noAggregations, RawCypher: *f.raw,
			NoSpecialized: *f.noSpecialized, NoRelationships: *f.noRelationships, History: *f.history},
	}
	if f.tenant != nil {
		o.Tenant = *f.tenant
	}
	return o, nil
}

// capabilityFlags describe the server a catalog listed without one is for
// (tools, vet, select); call and serve detect them on their server.
type capabilityFlags struct {
	apoc, gds, noFullText *bool
}

func addCapabilityFlags(fs *flag.FlagSet) *capabilityFlags {
	return &capabilityFlags{
		apoc:       fs.Bool("apoc", false, "the server has APOC (fuzzy matching on every string field)"),
		gds:        fs.Bool("gds", false, "the server has Graph Data Science (the config's analytics tools)"),
		noFullText: fs.Bool("no-fulltext", false, "the server lacks the config's full-text indexes"),
	}
}

// offlineEngine builds, without a driver, the engine of opts (from
// [engineFlags.options]) for a server with the flagged capabilities: the
// catalog call and serve would offer there, every handler-backed tool
// (tree, write, traverse, explore) included, since the engine adds them
// itself.
func offlineEngine(ctx context.Context, m *model.Model, opts engine.Options, cf *capabilityFlags) (*engine.Engine, error) {
	opts.Tools.Capabilities = &tools.Capabilities{FullText: !*cf.noFullText, APOC: *cf.apoc, GDS: *cf.gds}
	return engine.New(ctx, m, opts)
}

// selectionFlags are the flags of tool retrieval: select applies them to
// each message, serve to each search_tools query, over the
// RAGFORGE_TOOL_* settings (retrieval.OverrideFromEnv).
type selectionFlags struct {
	// base is the caller's sizes before the settings and flags.
	base            retrieval.Options
	always          stringList
	topK, fallbackK *string
	debug           *bool
}

// addSelectionFlags registers --always, --top-k and --fallback-k, whose
// help gives base's sizes, and --debug when debug is set.
func addSelectionFlags(fs *flag.FlagSet, base retrieval.Options, debug bool) *selectionFlags {
	f := &selectionFlags{base: base}
	fs.Var(&f.always, "always", "tool to include for every message (repeatable; or "+retrieval.EnvAlways+", comma-separated)")
	f.topK = fs.String("top-k", "", "tools in a confident selection (default "+strconv.Itoa(base.TopK)+", or "+retrieval.EnvTopK+")")
	f.fallbackK = fs.String("fallback-k", "", "tools in an uncertain selection (default "+strconv.Itoa(base.FallbackK)+", or "+retrieval.EnvFallbackK+")")
	if debug {
		f.debug = fs.Bool("debug", false, "show each tool's score, signals and matched terms")
	}
	return f
}

// given reports whether any selection flag was set.
func (f *selectionFlags) given() bool {
	return len(f.always) > 0 || *f.topK != "" || *f.fallbackK != ""
}

// options returns the base options overridden by the RAGFORGE_TOOL_*
// settings, then by the flags; the error is a usage error.
func (f *selectionFlags) options() (retrieval.Options, error) {
	opts, err := retrieval.OverrideFromEnv(f.base)
	if err != nil {
		return opts, err
	}
	for _, fl := range []struct {
		name, val string
		dst       *int
	}{{"top-k", *f.topK, &opts.TopK}, {"fallback-k", *f.fallbackK, &opts.FallbackK}} {
		if fl.val == "" {
			continue
		}
		n, err := strconv.Atoi(fl.val)
		if err != nil || n <= 0 {
			return opts, fmt.Errorf("--%s %q: want a positive integer", fl.name, fl.val)
		}
		*fl.dst = n
	}
	if *f.topK != "" && *f.fallbackK == "" && opts.FallbackK < opts.TopK {
		opts.FallbackK = opts.TopK
	}
	opts.Always = append(opts.Always, f.always...)
	if opts.MaxTools < opts.FallbackK+len(opts.Always) {
		opts.MaxTools = opts.FallbackK + len(opts.Always)
	}
	if f.debug != nil {
		opts.Debug = opts.Debug || *f.debug
	}
	return opts, opts.Validate()
}

package main

import (
	"flag"
	"time"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// engineFlags choose what an engine offers: run_cypher, the tenant and
// the embedder. call, serve and tools --uri register the same flags and
// build their engine options with [engineFlags.options], so the catalog
// tools --uri prints is the one call accepts on that server.
type engineFlags struct {
	raw    *bool
	tenant *string
	embed  *embedderFlags
}

// addEngineFlags registers --raw-cypher, --tenant (described by
// tenantHelp) and the embedder flags.
func addEngineFlags(fs *flag.FlagSet, tenantHelp string) *engineFlags {
	return &engineFlags{
		raw:    fs.Bool("raw-cypher", false, "offer run_cypher (read-only statements, checked with EXPLAIN)"),
		tenant: fs.String("tenant", "", tenantHelp),
		embed:  addEmbedderFlags(fs),
	}
}

// options returns the engine options the flags choose for m; the error is
// a usage error (an embedder that cannot work).
func (f *engineFlags) options(m *model.Model, timeout time.Duration) (engine.Options, error) {
	emb, err := f.embed.build(m)
	if err != nil {
		return engine.Options{}, err
	}
	return engine.Options{
		Timeout:  timeout,
		Embedder: emb,
		Tenant:   *f.tenant,
		Tools:    tools.Options{Aggregations: true, RawCypher: *f.raw},
	}, nil
}

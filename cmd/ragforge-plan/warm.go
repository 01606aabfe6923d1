package main

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/mcpserver"
	"github.com/ragforge/ragforge/tenant"
)

// defaultWarm bounds serve's warm-up of Neo4j's plan cache
// (docs/serving.md, "The first call of a shape", gives its cost).
const defaultWarm = 2 * time.Minute

// warmWorkers is how many warm-up statements run at once: Neo4j plans
// each on one thread, and two keep a second core busy without taking
// every core of a small server from the calls served meanwhile.
const warmWorkers = 2

// startWarm runs the engine's warm-up (engine.WarmCalls) in the
// background, for at most limit (0: none), while serve takes calls, and
// returns the readiness condition for /readyz: an error saying how far
// the warm-up is while it runs, nil once it has ended (done, failed or cut
// by limit: a replica is never held back longer). With tokens, the
// statements run under the first token's tenant, as that token's calls
// do; without, under the engine's (--tenant). It writes one line when it
// starts and one when it ends, with what it did and how long it took.
func startWarm(ctx context.Context, eng *engine.Engine, limit time.Duration, tokens []mcpserver.Token, stderr io.Writer) func() error {
	if limit == 0 {
		return nil
	}
	var done, total atomic.Int64
	var over atomic.Bool
	fmt.Fprintf(stderr, "ragforge-plan serve: warming Neo4j's plan cache for at most %v (--warm-plans 0 turns it off)\n", limit)
	go func() {
		defer over.Store(true)
		ctx, cancel := context.WithTimeoutCause(ctx, limit, fmt.Errorf("--warm-plans %v passed", limit))
		defer cancel()
		if len(tokens) > 0 && tokens[0].Tenant != "" {
			ctx = tenant.With(ctx, tokens[0].Tenant)
		}
		calls, err := eng.WarmCalls(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "ragforge-plan serve: not warming Neo4j's plan cache: %v\n", err)
			return
		}
		total.Store(int64(len(calls)))
		r := eng.Warm(ctx, calls, warmWorkers, func(n int) { done.Store(int64(n)) })
		fmt.Fprintf(stderr, "ragforge-plan serve: warmed Neo4j's plan cache: %d of %d statement shapes planned in %v", r.Planned, r.Calls, r.Took.Round(time.Millisecond))
		if r.Skipped > 0 {
			fmt.Fprintf(stderr, " (%d not offered)", r.Skipped)
		}
		if failed := r.Calls - r.Planned - r.Skipped; failed > 0 {
			fmt.Fprintf(stderr, "; %d failed or not run", failed)
		}
		for _, err := range r.Failed {
			fmt.Fprintf(stderr, "; %v", err)
		}
		fmt.Fprintln(stderr)
	}()
	return func() error {
		if over.Load() {
			return nil
		}
		return fmt.Errorf("warming Neo4j's plan cache (%d of %d statement shapes)", done.Load(), total.Load())
	}
}

package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/history/historytools"
	"github.com/ragforge/ragforge/internal/memory/explore"
	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// unavailableTimeout is the calls' timeout in the unavailability tests:
// short, so each mode costs seconds.
const unavailableTimeout = 2 * time.Second

// kindCall is one kind of tool call, on the engine that offers it.
type kindCall struct {
	e    *engine.Engine
	ctx  context.Context
	name string
	args string
}

// everyKindOfCall builds, on a driver through p, the engines that offer
// every kind of tool (generated reads, run_cypher, traverse, writes, tree
// tools, explore, history) and returns one call of each kind. The memory graph's
// indexes are created on d, directly.
func everyKindOfCall(t *testing.T, p *neo4jtest.Proxy) []kindCall {
	t.Helper()
	d := p.Driver(t)
	ctx := context.Background()
	mem, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schemaapply.Apply(ctx, d, schemaapply.Declared(mem), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	memory, err := engine.New(ctx, mem, engine.Options{Driver: d, Database: neo4jtest.Database(), Timeout: unavailableTimeout,
		Embedder: flatEmbedder, Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}, History: true}})
	if err != nil {
		t.Fatal(err)
	}
	files := newEngine(t, d, "../testdata/configs/valid/file-tree.yaml", engine.Options{Timeout: unavailableTimeout,
		Tools: tools.Options{RawCypher: true, Capabilities: &tools.Capabilities{}}})
	alice := tenant.With(ctx, "alice")
	return []kindCall{
		{files, ctx, "query_entities", `{"entity_type": "File", "limit": 5}`},
		{files, ctx, "query_entities", `{"entity_type": "File", "limit": 5, "total": true}`},
		{files, ctx, planner.RunCypher, `{"query": "MATCH (f:File) RETURN f.path LIMIT 5"}`},
		{files, ctx, "query_file_tree", `{}`},
		{files, ctx, "create_diagram", `{"name": "everything"}`},
		{memory, alice, "query_entities", `{"entity_type": "Person", "limit": 5}`},
		{memory, alice, "create_person", `{"source": "test", "name": "Ada", "canonical_name": "ada", "confidence": 0.8}`},
		{memory, alice, traverse.Name, `{"cypher": "MATCH (p:Person) WHERE p.user_id = $tenant RETURN p.name AS name"}`},
		{memory, alice, explore.ToolName, `{"queries": [{"query": "sailing"}]}`},
		{memory, alice, historytools.Statistics, `{}`},
	}
}

// callAll makes every call at once and returns each one's duration and
// error.
func callAll(calls []kindCall) ([]time.Duration, []error) {
	took := make([]time.Duration, len(calls))
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			_, errs[i] = c.e.Execute(c.ctx, engine.Call{Name: c.name, Arguments: json.RawMessage(c.args)})
			took[i] = time.Since(start)
		}()
	}
	wg.Wait()
	return took, errs
}

// TestEveryCallEndsWithinItsTimeoutWhenTheDatabaseIsUnavailable puts a
// proxy between the engines and the server and makes the database
// unavailable three ways (connections refused, accepted and never
// answered, cut): every kind of call returns within its timeout plus a
// second with the retryable error, and once the proxy forwards again the
// same engines' calls succeed, with no call's work left running.
func TestEveryCallEndsWithinItsTimeoutWhenTheDatabaseIsUnavailable(t *testing.T) {
	neo4jtest.Open(t)
	p := neo4jtest.NewProxy(t)
	calls := everyKindOfCall(t, p)
	succeed := func(when string) {
		t.Helper()
		_, errs := callAll(calls)
		for i, err := range errs {
			if err != nil {
				t.Errorf("%s: %s: %v", when, calls[i].name, err)
			}
		}
	}
	succeed("before")
	for _, mode := range neo4jtest.UnavailableModes {
		if err := p.Set(mode); err != nil {
			t.Fatal(err)
		}
		took, errs := callAll(calls)
		var longest time.Duration
		for i, err := range errs {
			longest = max(longest, took[i])
			if took[i] > unavailableTimeout+time.Second {
				t.Errorf("%s: %s took %v, more than its timeout %v + 1s", mode, calls[i].name, took[i], unavailableTimeout)
			}
			var ue *engine.UnavailableError
			if !errors.Is(err, engine.ErrUnavailable) || !errors.As(err, &ue) || !ue.Retryable() ||
				!strings.Contains(err.Error(), "the database is unavailable") || !strings.Contains(err.Error(), "retry") {
				t.Errorf("%s: %s: got %v, want the retryable unavailable error", mode, calls[i].name, err)
			}
		}
		t.Logf("%s: the longest call took %v (timeout %v); %s: %v", mode, longest.Round(time.Millisecond), unavailableTimeout, calls[0].name, errs[0])
		if err := p.Set(neo4jtest.Forward); err != nil {
			t.Fatal(err)
		}
		succeed("after " + mode.String())
	}
	// The work of the calls that hit their deadline ended on its own.
	deadline := time.Now().Add(10 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "engine.(*Engine).execute(") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a call's work is still running 10s after the calls returned:\n%s", stacks)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// TestEveryToolWithoutADriverReturnsErrNoDriver builds the engines of the
// every-tool tests without a driver (as `ragforge-plan tools` does) and
// calls every tool they offer, plus run_cypher on a config without a
// tenant: each one — generated, tree, write, traverse, explore, run_cypher
// — fails with the one engine.ErrNoDriver (errors.Is), whichever handler
// runs it. Only the application's own tool, which reads no graph,
// answers. It fails naming an offered tool it does not call.
func TestEveryToolWithoutADriverReturnsErrNoDriver(t *testing.T) {
	keys := map[string]string{"person": "p", "concept": "c", "entity": "e", "source": "s", "artifact": "a", "friend": "f", "root": "r", "httptest": "h", "diagram": "diagram-1"}
	for _, tc := range tenancyCases {
		t.Run(tc.config, func(t *testing.T) {
			var whoamiCalls atomic.Int32
			e, err := engine.New(t.Context(), tc.model(t), engine.Options{Embedder: tc.embedder, Tenant: "alice", Tools: tc.toolOptions(appTool(&whoamiCalls))})
			if err != nil {
				t.Fatal(err)
			}
			called := map[string]bool{}
			for _, c := range tc.calls(keys, keys) {
				called[c.tool] = true
				raw, _ := json.Marshal(c.args)
				_, err := e.Execute(context.Background(), engine.Call{Name: c.tool, Arguments: raw})
				if c.tool == "whoami" {
					if err != nil {
						t.Errorf("whoami, which reads no graph: %v", err)
					}
					continue
				}
				if !errors.Is(err, engine.ErrNoDriver) {
					t.Errorf("%s %s: got %v, want engine.ErrNoDriver", c.tool, raw, err)
				}
			}
			for _, tl := range e.Tools().Tools {
				if !called[tl.Name] {
					t.Errorf("tool %s is offered but not called: add a call of it to the %s case of tenancyCases", tl.Name, tc.config)
				}
			}
		})
	}
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Tools: tools.Options{RawCypher: true, Capabilities: &tools.Capabilities{}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Execute(tenant.With(context.Background(), "alice"), engine.Call{Name: planner.RunCypher, Arguments: json.RawMessage(`{"query":"RETURN 1 AS x"}`)})
	if !errors.Is(err, engine.ErrNoDriver) || err.Error() != "no Neo4j driver configured: the tools can be listed and planned but not run" {
		t.Errorf("run_cypher: got %v, want engine.ErrNoDriver", err)
	}
}

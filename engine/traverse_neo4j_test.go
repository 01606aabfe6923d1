package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

func TestTraverseIsOfferedWithATenantAndRunsUnderTheBoundOne(t *testing.T) {
	d := neo4jtest.Open(t)
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database(), Tenant: "bob",
		Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if tl := e.Tools().Tool(traverse.Name); tl == nil || !tl.Custom() || !strings.Contains(tl.Description, "x.user_id = $tenant") {
		t.Fatalf("traverse is not offered with its scoping rule: %+v", tl)
	}
	neo4jtest.Run(t, d, "UNWIND ['alice', 'bob'] AS u CREATE (:Person {user_id: u, name: u + '-person'})-[:thinks_about]->(:Concept {user_id: u, name: u + '-concept'})", nil)
	call := func(ctx context.Context, cypher string) (string, error) {
		raw, _ := json.Marshal(map[string]any{"cypher": cypher})
		res, err := e.Execute(ctx, engine.Call{Name: traverse.Name, Arguments: raw})
		if err != nil {
			return "", err
		}
		out, _ := json.Marshal(res)
		return string(out), nil
	}
	q := "MATCH (p:Person)-[:thinks_about]->(c:Concept) WHERE p.user_id = $tenant AND c.user_id = $tenant RETURN p.name AS p, c.name AS c"
	for ctx, want := range map[context.Context]string{context.Background(): `"c":"bob-concept"`, tenant.With(context.Background(), "alice"): `"c":"alice-concept"`} {
		out, err := call(ctx, q)
		if err != nil || !strings.Contains(out, want) || strings.Count(out, "-concept") != 1 {
			t.Errorf("got %s, %v, want one row with %s", out, err, want)
		}
	}
	// The engine's string cut (DefaultMaxString) applies to traverse too.
	long := "MATCH (p:Person) WHERE p.user_id = $tenant RETURN reduce(s = '', i IN range(1, 400) | s + 'ab') AS text"
	if out, err := call(context.Background(), long); err != nil || strings.Count(out, "ab") != engine.DefaultMaxString/2 || !strings.Contains(out, "whole_text") {
		t.Errorf("traverse did not cut an 800-character string to %d: %s, %v", engine.DefaultMaxString, out, err)
	}
	_, err = call(context.Background(), "MATCH (p:Person)-[:thinks_about]->(c) WHERE p.user_id = $tenant RETURN c.name")
	var ce *tools.CallError
	if !errors.As(err, &ce) || !strings.Contains(ce.Error(), "node variable c") {
		t.Errorf("an unscoped hop was not refused: %v", err)
	}
}

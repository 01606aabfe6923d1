package traverse_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

func TestTraverseOnNeo4j(t *testing.T) {
	d := neo4jtest.Open(t)
	twoTenants(t, d)
	opts := tools.Env{Driver: d, Database: neo4jtest.Database()}
	run := func(ctx context.Context, opts tools.Env, cypher string, params map[string]any) (*traverse.Result, error) {
		args := map[string]any{"cypher": cypher, "params": params}
		if whole, ok := params["whole_text"]; ok {
			// A switch of the call, not a query parameter.
			delete(params, "whole_text")
			args["whole_text"] = whole
		}
		raw, _ := json.Marshal(args)
		v, err := traverse.New(testModel(), opts)[0].Handler(ctx, raw)
		if err != nil {
			return nil, err
		}
		return v.(*traverse.Result), nil
	}
	alice := tenant.With(context.Background(), "alice")

	t.Run("nodes come back as their properties without the tenant field and embeddings", func(t *testing.T) {
		res, err := run(alice, opts, "MATCH (c:Concept) WHERE c.user_id = $tenant RETURN c ORDER BY c.marker LIMIT $n", map[string]any{"n": 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Count != 2 || fmt.Sprint(res.Columns) != "[c]" {
			t.Fatalf("got %+v", res)
		}
		c := res.Rows[0]["c"].(map[string]any)
		if c["marker"] != "alice-c-1" || c["user_id"] != nil || c["embedding"] != nil {
			t.Errorf("got node %v, want alice-c-1's properties without user_id and embedding", c)
		}
		if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "embedding") {
			t.Errorf("notes %q do not say the embedding was left out", res.Notes)
		}
	})
	t.Run("the query runs under the tenant on the context, and without one not at all", func(t *testing.T) {
		q := "MATCH (p:Person {user_id: $tenant}) RETURN p.marker AS m ORDER BY m LIMIT 1"
		for ctx, want := range map[context.Context]string{tenant.With(context.Background(), "bob"): bobMarker + "-p-1", alice: "alice-p-1"} {
			res, err := run(ctx, opts, q, nil)
			if err != nil || res.Count != 1 || res.Rows[0]["m"] != want {
				t.Errorf("got %+v, %v, want %s", res, err, want)
			}
		}
		if _, err := run(context.Background(), opts, q, nil); !errors.Is(err, tenant.ErrUnbound) {
			t.Errorf("got %v, want tenant.ErrUnbound", err)
		}
	})
	t.Run("rows are capped at MaxRows", func(t *testing.T) {
		capped := opts
		capped.MaxRows = 3
		res, err := run(alice, capped, "MATCH (n) WHERE n.user_id = $tenant RETURN n.marker AS m", nil)
		if err != nil || res.Count != 3 || !res.Truncated || len(res.Notes) == 0 {
			t.Fatalf("got %+v, %v, want 3 rows, truncated, with a note", res, err)
		}
	})
	t.Run("an unscoped hop is refused naming the variable and the fix", func(t *testing.T) {
		_, err := run(alice, opts, "MATCH (p:Person)-[r:KNOWS]->(q) WHERE p.user_id = $tenant RETURN q.marker", nil)
		var ce *tools.CallError
		want := "node variable q (introduced by Expand(All) on (p)-[r:KNOWS]->(q)) is not scoped to the tenant: add WHERE q.user_id = $tenant"
		if !errors.As(err, &ce) || ce.Problems[0].Path != "/cypher" || !strings.Contains(ce.Problems[0].Message, want) {
			t.Fatalf("got %v, want a CallError saying %q", err, want)
		}
	})
	t.Run("long strings are cut as in the other tools, and whole_text returns them up to WholeText", func(t *testing.T) {
		cut := opts
		cut.MaxString = 500
		q := "MATCH (p:Person {user_id: $tenant}) WITH p ORDER BY p.marker LIMIT 1 RETURN reduce(s = '', i IN range(1, $n) | s + 'ab') AS text, p AS person"
		res, err := run(alice, cut, q, map[string]any{"n": 600})
		if err != nil {
			t.Fatal(err)
		}
		if got := []rune(res.Rows[0]["text"].(string)); len(got) != 501 || got[500] != '…' {
			t.Errorf("text of %d characters, want 500 and an ellipsis", len(got))
		}
		if notes := strings.Join(res.Notes, "; "); !strings.Contains(notes, "shortened to 500 characters in text") || !strings.Contains(notes, "whole_text: true (up to 10000 characters)") {
			t.Errorf("notes %q do not say what was cut and how to get it whole", notes)
		}
		res, err = run(alice, cut, q, map[string]any{"n": 600, "whole_text": true})
		if err != nil || len(res.Rows[0]["text"].(string)) != 1200 || len(res.Notes) != 0 {
			t.Errorf("whole_text: %d characters, notes %q, %v; want the 1200 whole", len(res.Rows[0]["text"].(string)), res.Notes, err)
		}
		res, err = run(alice, cut, q, map[string]any{"n": 6000, "whole_text": true})
		if got := []rune(res.Rows[0]["text"].(string)); err != nil || len(got) != traverse.WholeText+1 || len(res.Notes) != 1 {
			t.Errorf("whole_text over the cap: %d characters, notes %q, %v; want %d and an ellipsis, noted", len(got), res.Notes, err, traverse.WholeText)
		}
	})
	t.Run("writes and syntax errors are the agent's to fix", func(t *testing.T) {
		for q, want := range map[string]string{
			"MATCH (n) WHERE n.user_id = $tenant SET n.x = 1": "read-only",
			"MATCH (n WHERE": "cannot plan",
			"MATCH (n) WHERE n.user_id = $tenant RETURN n.age / 0 AS x": "/ by zero",
		} {
			_, err := run(alice, opts, q, nil)
			var ce *tools.CallError
			if !errors.As(err, &ce) || !strings.Contains(ce.Error(), want) {
				t.Errorf("%s: got %v, want a CallError saying %q", q, err, want)
			}
		}
	})
}

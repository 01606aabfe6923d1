package engine_test

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/memory/explore"
	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// TestAReadAfterAWriteInOneBookmarkChainSeesIt runs the memory graph's
// tools over a neo4j:// (routing) URI: a write adds its bookmark to the
// call chain's manager, and every kind of read in the chain waits for the
// chain's bookmarks (a chain holding a bookmark the server never issued
// fails them), so it sees the write even on a cluster member that
// received it later. On the single test server the routing table names
// the server for every role.
func TestAReadAfterAWriteInOneBookmarkChainSeesIt(t *testing.T) {
	neo4jtest.Open(t)
	s := neo4jtest.ServerSettings(t)
	u, err := url.Parse(s.URI)
	if err != nil {
		t.Fatal(err)
	}
	d, err := neo4j.NewDriverWithContext("neo4j://"+u.Host, neo4j.BasicAuth(s.User, s.Password, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schemaapply.Apply(context.Background(), d, schemaapply.Declared(m), schemaapply.Options{Database: s.Database}); err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: s.Database, Embedder: flatEmbedder,
		Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}})
	if err != nil {
		t.Fatal(err)
	}
	exec := func(ctx context.Context, tool, args string) (string, error) {
		res, err := e.Execute(ctx, engine.Call{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(res)
		return string(b), nil
	}
	reads := []struct{ tool, args string }{
		{"query_entities", `{"entity_type": "Person", "limit": 10}`},
		{traverse.Name, `{"cypher": "MATCH (p:Person) WHERE p.user_id = $tenant RETURN p.name AS name"}`},
	}

	bm := neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{})
	chain := engine.WithBookmarkManager(tenant.With(context.Background(), "alice"), bm)
	var last neo4j.Bookmarks
	for _, name := range []string{"Ada", "Bo"} {
		if _, err := exec(chain, "create_person", `{"source": "test", "name": "`+name+`", "canonical_name": "`+strings.ToLower(name)+`", "notes": "sails", "confidence": 0.8}`); err != nil {
			t.Fatal(err)
		}
		got, err := bm.GetBookmarks(context.Background())
		if err != nil || len(got) == 0 || slices.Equal(got, last) {
			t.Fatalf("after writing %s the chain holds bookmarks %v (before: %v), %v", name, got, last, err)
		}
		last = got
		for _, r := range reads {
			out, err := exec(chain, r.tool, r.args)
			if err != nil || !strings.Contains(out, name) {
				t.Errorf("%s after writing %s in the chain: %s, %v", r.tool, name, out, err)
			}
		}
	}

	// The reads send the chain's bookmarks: one the server never issued
	// fails them.
	bogus := engine.WithBookmarkManager(tenant.With(context.Background(), "alice"),
		neo4j.NewBookmarkManager(neo4j.BookmarkManagerConfig{InitialBookmarks: neo4j.Bookmarks{"FB:not-a-bookmark"}}))
	// (explore reads vector and full-text indexes, which Neo4j updates
	// after the commit: it is checked for the bookmarks only.)
	for _, r := range append(reads, struct{ tool, args string }{explore.ToolName, `{"queries": [{"query": "sails"}]}`}) {
		if _, err := exec(bogus, r.tool, r.args); err == nil || !strings.Contains(err.Error(), "Bookmark") {
			t.Errorf("%s ignored the chain's bookmark: %v", r.tool, err)
		}
	}

	// engine.WithBookmarks starts a chain of its own.
	fresh := engine.WithBookmarks(tenant.With(context.Background(), "alice"))
	if _, err := exec(fresh, "create_person", `{"source": "test", "name": "Cy", "canonical_name": "cy", "confidence": 0.8}`); err != nil {
		t.Fatal(err)
	}
	if out, err := exec(fresh, "query_entities", `{"entity_type": "Person", "limit": 10}`); err != nil || !strings.Contains(out, "Cy") {
		t.Errorf("query_entities after writing Cy in a WithBookmarks chain: %s, %v", out, err)
	}
}

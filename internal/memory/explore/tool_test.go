package explore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/memory/explore"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

func TestExploreIsOfferedOnlyWithAnExploreBlock(t *testing.T) {
	m := memoryModel(t)
	if got := explore.New(m, tools.Env{}); len(got) != 1 || got[0].Name != explore.ToolName || !got[0].ReadOnly {
		t.Fatalf("New = %+v; want the read-only explore tool", got)
	}
	m.Explore = nil
	if got := explore.New(m, tools.Env{}); len(got) != 0 {
		t.Errorf("New without an explore block = %d tools", len(got))
	}
}

func TestExploreWithoutAnEmbedderSearchesByNameOnly(t *testing.T) {
	m := memoryModel(t)
	with := explore.New(m, tools.Env{Embedder: embedder.Offline{}})[0]
	without := explore.New(m, tools.Env{})[0]
	if !strings.Contains(string(with.InputJSON()), `"queries"`) || strings.Contains(string(without.InputJSON()), `"queries"`) {
		t.Errorf("queries offered with an embedder: %s; without: %s", with.InputJSON(), without.InputJSON())
	}
	_, err := without.Handler(tenant.With(context.Background(), "alice"), json.RawMessage(`{"queries":[{"query":"x"}]}`))
	var ce *tools.CallError
	if !errors.As(err, &ce) || ce.Problems[0].Path != "/queries" {
		t.Errorf("queries without an embedder: %v; want a call error at /queries", err)
	}
}

// TestExploreRefusesBadCallsBeforeReading: what the schema cannot say is
// refused with a path, before any read (the tool has no driver here).
func TestExploreRefusesBadCallsBeforeReading(t *testing.T) {
	tool := explore.New(memoryModel(t), tools.Env{Embedder: embedder.Offline{}})[0]
	ctx := tenant.With(context.Background(), "alice")
	for args, path := range map[string]string{
		`{}`:                           "",
		`{"queries":[{"query":"  "}]}`: "/queries/0/query",
		`{"text_matches":["!!"]}`:      "/text_matches/0",
		`{"text_matches":["x"],"top":{"Nope":1}}`: "/top/Nope",
	} {
		_, err := tool.Handler(ctx, json.RawMessage(args))
		var ce *tools.CallError
		if !errors.As(err, &ce) || ce.Problems[0].Path != path {
			t.Errorf("%s: %v; want a call error at %q", args, err, path)
		}
	}
	if _, err := tool.Handler(context.Background(), json.RawMessage(`{"text_matches":["x"]}`)); !errors.Is(err, tenant.ErrUnbound) {
		t.Errorf("unbound: %v; want tenant.ErrUnbound", err)
	}
	if _, err := tool.Handler(ctx, json.RawMessage(`{"text_matches":["x"]}`)); !errors.Is(err, neo4jtx.ErrNoDriver) {
		t.Errorf("no driver: %v; want ErrNoDriver", err)
	}
}

// TestExploreDescribesOnlyWhatItDoes: the description names meaning
// search only when queries can run, the owner only when one is declared,
// recency only with a recency field, and the bounds the code keeps.
func TestExploreDescribesOnlyWhatItDoes(t *testing.T) {
	m := memoryModel(t)
	full := explore.New(m, tools.Env{Embedder: embedder.Offline{}})[0].Description
	for _, want := range []string{"queries by meaning", "typos tolerated", "× recency (halved every 30 days)", "the user's own node", "up to 3 neighbours per hit", "the 10 most relevant edges"} {
		if !strings.Contains(full, want) {
			t.Errorf("description %q lacks %q", full, want)
		}
	}
	m.Explore.OwnerEntity, m.Explore.RecencyField = "", ""
	bare := explore.New(m, tools.Env{})[0].Description
	for _, unsaid := range []string{"queries", "own node", "recency"} {
		if strings.Contains(bare, unsaid) {
			t.Errorf("description without an embedder, owner or recency field %q says %q", bare, unsaid)
		}
	}
}

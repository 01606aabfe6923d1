package engine_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/tools"
)

// TestAProfileOffersOnlyItsToolsAndRefusesTheOthers builds the memory
// graph's engines with each of its profiles: the catalog is the profile's
// tools that the options offer (semantic_search only with an embedder) in
// catalog order, plus the application's own tool; a tool outside the
// profile is refused as unknown, naming the profile's tools as the choices.
func TestAProfileOffersOnlyItsToolsAndRefusesTheOthers(t *testing.T) {
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	own := appTool(&calls)
	for _, tc := range []struct {
		profile  string
		embedder engine.Embedder
		want     []string
		refused  string
	}{
		{"conversation", embedder.Offline{}, []string{"query_entities", "get_entity_by_id", "explore_relationships", "semantic_search", "fulltext_search", "traverse", "explore", own.Name}, "create_person"},
		{"conversation", nil, []string{"query_entities", "get_entity_by_id", "explore_relationships", "fulltext_search", "traverse", "explore", own.Name}, "semantic_search"},
		{"ingestion", nil, []string{"get_entity_by_id", "create_person", "update_person", "create_concept", "update_concept", "create_entity", "update_entity",
			"create_source", "update_source", "create_artifact", "update_artifact", "create_relationship", "update_relationship", own.Name}, "query_entities"},
	} {
		e, err := engine.New(t.Context(), m, engine.Options{Profile: tc.profile, Embedder: tc.embedder, Tenant: "alice",
			Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}, CustomTools: []tools.CustomTool{own}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Tools().Names(); !slices.Equal(got, tc.want) {
			t.Errorf("%s (embedder %v): tools %v\nwant %v", tc.profile, tc.embedder != nil, got, tc.want)
		}
		if n := e.Tools().Metadata.ToolCount; n != len(tc.want) {
			t.Errorf("%s: metadata counts %d tools, the catalog has %d", tc.profile, n, len(tc.want))
		}
		_, err = e.Execute(context.Background(), engine.Call{Name: tc.refused, Arguments: []byte(`{}`)})
		var ce *tools.CallError
		if !errors.As(err, &ce) || !strings.Contains(ce.Error(), "unknown tool") || !slices.Equal(ce.Problems[0].Valid, tc.want) {
			t.Errorf("%s: calling %s gave %v; want an unknown-tool error naming the profile's tools", tc.profile, tc.refused, err)
		}
	}
}

// TestAnUnknownProfileIsRefusedNamingTheProfiles: a typo in --profile (or
// Options.Profile) stops the engine, with the choices, rather than serving
// every tool.
func TestAnUnknownProfileIsRefusedNamingTheProfiles(t *testing.T) {
	for name, want := range map[string]string{
		"memory-graph": `unknown profile "convo" (profiles: conversation, ingestion)`,
		"code-rag":     `unknown profile "convo": the config declares no profiles`,
	} {
		m, err := config.Load("../testdata/configs/valid/" + name + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		_, err = engine.New(t.Context(), m, engine.Options{Profile: "convo", Tenant: "alice"})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", name, err, want)
		}
	}
}

package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// listedNames lists the tools `tools ARGS --format json` prints.
func listedNames(t *testing.T, args ...string) []string {
	t.Helper()
	code, out, errOut := execute(t, append(append([]string{"tools"}, args...), "--format", "json")...)
	if code != 0 {
		t.Fatalf("tools %v: exit %d: %s", args, code, errOut)
	}
	var listed []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range listed {
		names = append(names, l.Name)
	}
	return names
}

// acceptedNames calls an unknown tool with `call ARGS` and returns the
// tools the refusal names as the valid choices: the catalog of the engine
// call runs, which is serve's.
func acceptedNames(t *testing.T, args ...string) []string {
	t.Helper()
	_, out, errOut := execute(t, append(args, "--tool", "no_such_tool", "--format", "json")...)
	var refused struct {
		Error struct {
			Problems []struct {
				Valid []string `json:"valid"`
			} `json:"problems"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &refused); err != nil || len(refused.Error.Problems) == 0 {
		t.Fatalf("call %v of an unknown tool: %v\n%s%s", args, err, out, errOut)
	}
	return refused.Error.Problems[0].Valid
}

// capabilityFlagsOf are the offline flags that describe the test server for m:
// the catalog tools and vet list without a server is then the one call
// and serve offer on it.
func capabilityFlagsOf(t *testing.T, d neo4j.DriverWithContext, m string) []string {
	t.Helper()
	model, err := config.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	caps, err := engine.DetectCapabilities(context.Background(), d, neo4jtest.Database(), model)
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	if !caps.FullText {
		flags = append(flags, "--no-fulltext")
	}
	if caps.APOC {
		flags = append(flags, "--apoc")
	}
	if caps.GDS {
		flags = append(flags, "--gds")
	}
	return flags
}

// TestToolsVetAndCallOfferTheSameToolsForEveryConfigAndFlagSet: for every
// example config and every set of tool flags (none, each --no-…, an
// embedder, run_cypher, each of the config's profiles), tools and vet
// without a server list exactly the tools call accepts on the test server
// (the engine's catalog, which serve lists): aggregate_entities, explore,
// traverse, the tree and write tools included.
func TestToolsVetAndCallOfferTheSameToolsForEveryConfigAndFlagSet(t *testing.T) {
	d := neo4jtest.Open(t)
	conn := neo4jtest.Flags(t)
	configs, err := filepath.Glob("../../testdata/configs/valid/*.yaml")
	if err != nil || len(configs) < 6 {
		t.Fatalf("example configs: %v %v", configs, err)
	}
	for _, path := range configs {
		m, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		server := capabilityFlagsOf(t, d, path)
		flagSets := [][]string{nil, {"--no-aggregations"}, {"--embedder", "offline"}, {"--no-specialized", "--no-relationships"}}
		if m.Tenant == nil {
			flagSets = append(flagSets, []string{"--raw-cypher"})
		}
		for _, p := range m.Profiles {
			flagSets = append(flagSets, []string{"--profile", p.Name, "--embedder", "offline"})
		}
		for _, flags := range flagSets {
			name := filepath.Base(path) + " " + strings.Join(flags, " ")
			offline := listedNames(t, append(append([]string{path}, flags...), server...)...)

			code, out, errOut := execute(t, append(append([]string{"vet", path, "--format", "json"}, flags...), server...)...)
			var vetted vetReport
			if err := json.Unmarshal([]byte(out), &vetted); code != 0 || err != nil {
				t.Fatalf("%s: vet exit %d: %v %s", name, code, err, errOut)
			}

			args := append(append([]string{"call", path}, flags...), conn...)
			if m.Tenant != nil {
				args = append(args, "--tenant", "alice")
			}
			accepted := acceptedNames(t, args...)

			if !slices.Equal(offline, accepted) || !slices.Equal(vetted.Tools, accepted) {
				t.Errorf("%s:\ntools lists %v\nvet lists   %v\ncall offers %v", name, offline, vetted.Tools, accepted)
			}
			if want := !slices.Contains(flags, "--no-aggregations") && (len(flags) == 0 || flags[0] != "--profile"); want != slices.Contains(offline, "aggregate_entities") {
				t.Errorf("%s: aggregate_entities listed %v, want %v (on unless --no-aggregations)", name, !want, want)
			}
		}
	}
}

// TestServeOffersAProfileAsToolsListsIt serves the memory graph's
// conversation profile to the official MCP client (TypeScript SDK) over
// stdio: tools/list is what `tools --profile conversation` prints for the
// same flags (engine tests show a tool outside the profile is refused).
func TestServeOffersAProfileAsToolsListsIt(t *testing.T) {
	node := requireClient(t)
	bin := buildCommand(t)
	d := neo4jtest.Open(t)
	flags := []string{"--profile", "conversation", "--embedder", "offline"}
	want := listedNames(t, append(append([]string{memoryGraph}, flags...), capabilityFlagsOf(t, d, memoryGraph)...)...)
	steps := []any{map[string]any{"op": "list"}}
	args := append(append([]string{"stdio", bin, "serve", absPath(t, memoryGraph), "--tenant", "alice"}, flags...), neo4jtest.Flags(t)...)
	code, out := runClient(t, node, steps, args...)
	var got []clientStep
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got) != 1 {
		t.Fatalf("client exit %d: %v\n%s", code, err, out)
	}
	var listed []string
	for _, tl := range got[0].Tools {
		listed = append(listed, tl.Name)
	}
	if !slices.Equal(slices.Sorted(slices.Values(listed)), slices.Sorted(slices.Values(want))) || !slices.Contains(listed, "explore") {
		t.Errorf("serve --profile conversation lists %v\ntools --profile conversation lists %v", listed, want)
	}
	if slices.Contains(listed, "create_person") {
		t.Errorf("create_person, outside the profile, is listed: %v", listed)
	}
}

// TestServeSearchToolsTakesAlwaysAndTheToolSettingsAsSelectDoes: serve
// --search-tools with --always and RAGFORGE_TOOL_TOP_K answers an MCP
// client (TypeScript SDK) with the top-k tools plus the always-include
// one, of the profile's tools only; select with the same flags and
// setting chooses the same tools.
func TestServeSearchToolsTakesAlwaysAndTheToolSettingsAsSelectDoes(t *testing.T) {
	node := requireClient(t)
	bin := buildCommand(t)
	neo4jtest.Open(t)
	t.Setenv("RAGFORGE_TOOL_TOP_K", "2")
	t.Setenv("RAGFORGE_TOOL_FALLBACK_K", "2")
	const query = "create a person named Alice"
	flags := []string{"--profile", "ingestion", "--always", "get_entity_by_id"}
	steps := []any{
		map[string]any{"op": "list"},
		map[string]any{"op": "call", "name": "search_tools", "arguments": map[string]any{"query": query}},
	}
	args := append(append([]string{"stdio", bin, "serve", absPath(t, memoryGraph), "--tenant", "alice", "--search-tools"}, flags...), neo4jtest.Flags(t)...)
	code, out := runClient(t, node, steps, args...)
	var got []clientStep
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got) != 2 {
		t.Fatalf("client exit %d: %v\n%s", code, err, out)
	}
	if len(got[0].Tools) != 1 || got[0].Tools[0].Name != "search_tools" {
		t.Errorf("tools/list: %+v, want search_tools alone", got[0].Tools)
	}
	var found struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(got[1].Text), &found); err != nil || got[1].IsError {
		t.Fatalf("search_tools: %v %s", err, got[1].Text)
	}
	var names []string
	for _, tl := range found.Tools {
		names = append(names, tl.Name)
	}
	code, selected, errOut := execute(t, append([]string{"select", "--config", memoryGraph, "--profile", "ingestion", "--always", "get_entity_by_id", "--top-k", "2", "--fallback-k", "2"}, query)...)
	if code != 0 {
		t.Fatalf("select: exit %d: %s", code, errOut)
	}
	if len(names) != 3 || !slices.Contains(names, "get_entity_by_id") || !slices.Contains(names, "create_person") || slices.Contains(names, "query_entities") {
		t.Errorf("search_tools found %v; want 2 tools of the ingestion profile and get_entity_by_id", names)
	}
	if want := strings.Fields(selected); !slices.Equal(names, want) {
		t.Errorf("search_tools found %v, select %v", names, want)
	}
}

// absPath is path from the working directory, for a server the client
// starts in its own directory.
func absPath(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

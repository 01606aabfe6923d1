package analytics_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/analytics"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// TestAnalyticsToolsNeedGDS: without GDS (or without an analytics block)
// there is no analytics tool, and an engine told the server lacks GDS
// offers none.
func TestAnalyticsToolsNeedGDS(t *testing.T) {
	m, err := config.Load("testdata/planted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(analytics.New(m, tools.Env{}).Tools()); n != 0 {
		t.Errorf("%d tools without GDS, want 0", n)
	}
	if n := len(analytics.New(&model.Model{}, tools.Env{Capabilities: tools.Capabilities{GDS: true}}).Tools()); n != 0 {
		t.Errorf("%d tools without an analytics block, want 0", n)
	}
	var names []string
	for _, tl := range analytics.New(m, tools.Env{Capabilities: tools.Capabilities{GDS: true}}).Tools() {
		names = append(names, tl.Name)
	}
	want := []string{"find_important_fn", "find_important_doc", "find_fn_clusters", "find_doc_clusters"}
	if !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Tools: tools.Options{Capabilities: &tools.Capabilities{}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range want {
		if e.Tools().Tool(name) != nil {
			t.Errorf("%s offered on a server without GDS", name)
		}
	}
	e, err = engine.New(t.Context(), m, engine.Options{Tools: tools.Options{Capabilities: &tools.Capabilities{GDS: true}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range want {
		if e.Tools().Tool(name) == nil {
			t.Errorf("%s not offered on a server with GDS", name)
		}
	}
	// Without a driver, a call fails as every handler's does.
	_, err = e.Execute(tenant.With(context.Background(), "alice"), engine.Call{Name: want[0], Arguments: json.RawMessage(`{}`)})
	if !errors.Is(err, engine.ErrNoDriver) {
		t.Errorf("a call without a driver: %v, want engine.ErrNoDriver", err)
	}
}

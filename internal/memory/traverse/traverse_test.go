package traverse_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

func TestNewOffersTraverseOnlyForATenantScopedModel(t *testing.T) {
	if got := traverse.New(&model.Model{Entities: testModel().Entities}, tools.Env{}); len(got) != 0 {
		t.Errorf("a model without a tenant got %d tools", len(got))
	}
	got := traverse.New(testModel(), tools.Env{})
	if len(got) != 1 || got[0].Name != traverse.Name || !got[0].ReadOnly {
		t.Fatalf("got %+v, want one read-only traverse tool", got)
	}
	for _, want := range []string{"x.user_id = $tenant", "Variable-length", "db.index.fulltext.queryNodes", "Labels, relationship types, properties: see the graph schema"} {
		if !strings.Contains(got[0].Description, want) {
			t.Errorf("the description does not say %q:\n%s", want, got[0].Description)
		}
	}
	// An entity the graph schema leaves out (query_entities disabled):
	// the relationship types are listed here.
	m := testModel()
	m.Entities[1].ExposedTools = map[string]model.ToolControl{planner.QueryEntities: {Enabled: false}}
	if d := traverse.New(m, tools.Env{})[0].Description; !strings.Contains(d, "Labels: Person, Concept") || !strings.Contains(d, "KNOWS (Person→Person)") {
		t.Errorf("the description does not list the relationship types:\n%s", d)
	}
	var schema map[string]any
	if err := json.Unmarshal(got[0].InputJSON(), &schema); err != nil {
		t.Errorf("schema: %v", err)
	}
}

func TestTraverseRefusesAParameterNamedTenant(t *testing.T) {
	tool := traverse.New(testModel(), tools.Env{})[0]
	_, err := tool.Handler(tenant.With(context.Background(), "alice"), json.RawMessage(`{"cypher":"MATCH (n) WHERE n.user_id = $tenant RETURN n","params":{"tenant":"bob"}}`))
	var ce *tools.CallError
	if !errors.As(err, &ce) || ce.Problems[0].Path != "/params/tenant" || !strings.Contains(ce.Problems[0].Message, "bound by the engine") {
		t.Fatalf("got %v, want a CallError on /params/tenant", err)
	}
}

func TestTraverseRefusesACallWithoutATenant(t *testing.T) {
	tool := traverse.New(testModel(), tools.Env{})[0]
	_, err := tool.Handler(context.Background(), json.RawMessage(`{"cypher":"RETURN 1 AS x"}`))
	if !errors.Is(err, tenant.ErrUnbound) {
		t.Fatalf("got %v, want tenant.ErrUnbound", err)
	}
}

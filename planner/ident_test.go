package planner_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/planner"
)

// TestPlanRefusesANameOutsideTheIdentifierRules: a model built in Go skips
// the config's validation, so it may hold a label or property that breaks
// the identifier rules. Plan returns an *ident.Error naming it, never a
// panic and never a statement.
func TestPlanRefusesANameOutsideTheIdentifierRules(t *testing.T) {
	for _, bad := range []string{"na`me", `x\u0060y`, "has space", "1st", ""} {
		m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
		if err != nil {
			t.Fatal(err)
		}
		e := m.Entity("Scope")
		e.Field("name").Name = bad
		st, err := planner.Plan(m, planner.Call{Tool: planner.QueryEntities, Args: &planner.QueryEntitiesArgs{EntityType: "Scope", Limit: 5}}, nil)
		var ie *ident.Error
		if !errors.As(err, &ie) || ie.Name != bad || !strings.Contains(err.Error(), "is not a valid name") {
			t.Errorf("%q: Plan = %v, %v; want an *ident.Error naming it", bad, st, err)
		}
		if st != nil {
			t.Errorf("%q: Plan returned Cypher:\n%s", bad, st.Cypher)
		}
	}
}

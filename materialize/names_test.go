package materialize

import (
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/model"
)

func TestOwnLabelsAreQuotedAsIdentQuotesThem(t *testing.T) {
	for label, quoted := range map[string]string{LockLabel: lockLabelQ, StateLabel: stateLabelQ, UsageLabel: usageLabelQ} {
		if want, err := ident.Quote(label); err != nil || quoted != want {
			t.Errorf("%s is written as %s; ident.Quote gives %q, %v", label, quoted, want, err)
		}
	}
}

func TestIndexNameStaysAValidDistinctIdentifierForLongNames(t *testing.T) {
	if got := IndexName("Scope", "line_count"); got != "ragforge_mat_Scope_line_count" {
		t.Errorf("short name changed: %s", got)
	}
	entity := strings.Repeat("E", 100)
	a, b := IndexName(entity, strings.Repeat("p", 99)+"a"), IndexName(entity, strings.Repeat("p", 99)+"b")
	for _, n := range []string{a, b} {
		if err := ident.Check(n); err != nil {
			t.Errorf("IndexName gave %q: %v", n, err)
		}
	}
	if a == b {
		t.Errorf("two properties share the index name %s", a)
	}
}

func TestRecomputeRefusesANameOutsideTheIdentifierRules(t *testing.T) {
	m := scopeModel(model.Auto)
	m.Entities[0].UniqueField = "uuid`) DETACH DELETE n //"
	q, err := Recompute(MustCompile(t, m), "Scope", []string{"line_count"})
	var ie *ident.Error
	if !errors.As(err, &ie) || q != "" {
		t.Fatalf("Recompute = %q, %v; want an *ident.Error and no statement", q, err)
	}
	if !strings.Contains(err.Error(), "Scope property") {
		t.Errorf("error does not say which name: %v", err)
	}
}

package materialize

import (
	"testing"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
)

// MustCompile compiles m's computed fields, as an owner of the model does
// once before handing them to New, NewStateCache, Plan or Recompute.
// Exported for the external tests too.
func MustCompile(t testing.TB, m *model.Model) *computed.Model {
	t.Helper()
	cm, err := computed.CompileModel(m)
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

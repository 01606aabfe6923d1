package traverse

import (
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// NewWith is New allowing procedures, for the scope corpus's
// statements that call procedures the tool refuses by default.
func NewWith(m *model.Model, env tools.Env, procedures []string) []tools.CustomTool {
	return newWith(m, env, procedures)
}

package tree

import (
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// NewBounded is New reading at most maxNodes nodes per call, so a test
// reaches the cap on a small tree.
func NewBounded(m *model.Model, env tools.Env, maxNodes int) (*Runner, error) {
	r, err := New(m, env)
	if err == nil {
		r.maxNodes = maxNodes
	}
	return r, err
}

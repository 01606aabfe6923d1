package planner_test

import (
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/internal/golden/plancase"
	"github.com/ragforge/ragforge/planner"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// loadModel loads a config of the golden cases once per test binary.
func loadModel(t testing.TB, name string) *model.Model { return plancase.Model(t, "..", name) }

// fixture is a model with its catalog and planner, as the engine builds
// them: every tool on, the given capabilities.
type fixture struct {
	m   *model.Model
	cat *tools.Catalog
	p   *planner.Planner
}

func newFixture(t testing.TB, config string, caps tools.Capabilities) *fixture {
	t.Helper()
	m := loadModel(t, config)
	cat, err := planner.Generate(m, tools.Options{Aggregations: true, RawCypher: true, Capabilities: &caps})
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.New(m, planner.Options{Capabilities: &caps, Now: plancase.Now, MaxString: engine.DefaultMaxString})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{m: m, cat: cat, p: p}
}

// plan parses and plans one call.
func (f *fixture) plan(tool, args string, state model.State) (*planner.Statement, error) {
	a, err := f.cat.Parse(tool, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	return f.p.Plan(planner.Call{Tool: tool, Args: a}, state)
}

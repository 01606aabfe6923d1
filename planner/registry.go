package planner

import (
	"encoding/json"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// A generated tool lives in one file of this package, named for it
// (query_entities.go, …): its name, its argument type, its schema and
// description, its defaults and checks, and its plan. The file registers
// it from init with [register], so adding a tool edits no list.

// declaration is one generated tool as its file declares it; A is its
// argument type, which Catalog.Parse returns (a *A) and plan receives.
type declaration[A any] struct {
	tools.Kind
	// args returns new arguments holding the defaults the JSON leaves
	// as they are when an argument is missing (nil: the zero value).
	args func(tools.Limits) *A
	// check checks decoded arguments and fills the other defaults (nil:
	// nothing to check beyond the schema).
	check func(*tools.Checker, *A)
	// plan turns checked arguments into a statement.
	plan func(*Planner, *A, model.State) (*Statement, error)
}

// tool is a registered tool: its kind for the catalog and its plan.
type tool struct {
	kind tools.Kind
	plan func(p *Planner, args any, state model.State) (*Statement, error)
}

// registry holds the generated tools by name.
var registry = map[string]*tool{}

// register adds a generated tool; each tool's file calls it from init.
func register[A any](d declaration[A]) {
	if _, taken := registry[d.Name]; taken {
		panic("planner: two generated tools are named " + d.Name)
	}
	k := d.Kind
	k.Parse = func(ck *tools.Checker, raw json.RawMessage) any {
		a := new(A)
		if d.args != nil {
			a = d.args(ck.Limits())
		}
		if ck.Decode(raw, a) && d.check != nil {
			d.check(ck, a)
		}
		return a
	}
	registry[d.Name] = &tool{kind: k, plan: func(p *Planner, args any, state model.State) (*Statement, error) {
		a, ok := args.(*A)
		if !ok {
			return nil, tools.Fail(d.Name, "", nil, "the planner has no plan for arguments of type %T (%s takes %T)", args, d.Name, a)
		}
		return d.plan(p, a, state)
	}}
}

// Kinds are the generated tools, for tools.Generate.
func Kinds() []tools.Kind {
	out := make([]tools.Kind, 0, len(registry))
	for _, t := range registry {
		out = append(out, t.kind)
	}
	return out
}

// Generate builds the catalog of m's generated tools (the registered
// ones the options offer) and opts.CustomTools: tools.Generate with this
// package's tools. engine.New builds its catalog with it.
func Generate(m *model.Model, opts tools.Options) (*tools.Catalog, error) {
	return tools.Generate(m, Kinds(), opts)
}

// plan looks the call's tool up and plans it.
func (p *Planner) plan(call Call, state model.State) (*Statement, error) {
	t := registry[call.Tool]
	if t == nil {
		return nil, tools.Fail(call.Tool, "", nil, "the planner has no tool named %q", call.Tool)
	}
	return t.plan(p, call.Args, state)
}

// withRelationships offers the tools that follow relationships unless
// Options.NoRelationships leaves them out.
func withRelationships(o tools.Options) bool { return !o.NoRelationships }

// withSpecialized offers the specialized search tools unless
// Options.NoSpecialized leaves them out.
func withSpecialized(o tools.Options) bool { return !o.NoSpecialized }

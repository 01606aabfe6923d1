package tools

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ragforge/ragforge/model"
)

// Handlers is a family of handler-backed tools as its package declares
// it (the tree tools, the write tools, traverse, …): the package
// registers it from init with [RegisterHandlers], and engine.New builds
// every registered family for its model with one [Env], in rank order,
// so adding such a tool edits no list outside its package
// (docs/design.md, "Adding a tool").
type Handlers struct {
	// Name names the family in errors and in the registry.
	Name string
	// Rank orders the families in a catalog, lowest first, after the
	// generated tools; the application's own tools come at
	// [ApplicationRank]. The order is part of every golden catalog.
	Rank int
	// Build returns the family's tools for m: none when the config (or
	// env: a capability, an option) gives it nothing to offer.
	Build func(m *model.Model, env Env) ([]CustomTool, error)
}

// ApplicationRank is where an application's own tools
// (Options.CustomTools) come among the handler-backed families.
const ApplicationRank = 50

// handlers holds the registered families by name; init writes it, so
// reading it needs no lock.
var handlers = map[string]Handlers{}

// RegisterHandlers adds a family of handler-backed tools; its package
// calls it from init. Two families of one name are a programming error
// found at start-up, so it panics, as a duplicate generated tool does.
func RegisterHandlers(h Handlers) {
	if _, taken := handlers[h.Name]; taken || h.Build == nil || h.Rank == ApplicationRank {
		panic(fmt.Sprintf("tools: handler family %q registered twice, without Build, or at the application's rank", h.Name))
	}
	handlers[h.Name] = h
}

// BuildHandlers returns the tools of every registered family for m, in
// rank order, with own (the application's tools) at ApplicationRank:
// the handler-backed part of a catalog (Options.CustomTools).
func BuildHandlers(m *model.Model, env Env, own []CustomTool) ([]CustomTool, error) {
	fams := slices.SortedFunc(maps.Values(handlers), func(a, b Handlers) int { return a.Rank - b.Rank })
	env = env.WithDefaults()
	var out []CustomTool
	placed := false
	for _, h := range fams {
		if !placed && h.Rank > ApplicationRank {
			out, placed = append(out, own...), true
		}
		ts, err := h.Build(m, env)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	if !placed {
		out = append(out, own...)
	}
	return out, nil
}

package tree

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// MaxDiagramNodes bounds a diagram, so one call cannot ship a whole
// million-file disk to a browser; a call over it is told to narrow its
// filters.
const MaxDiagramNodes = 25000

// Runner runs the tree tools of one model.
type Runner struct {
	m     *model.Model
	env   tools.Env
	trees []*compiledTree
	// maxNodes bounds the nodes one call reads (MaxFetchNodes), so a call
	// on a huge tree fails fast with advice instead of holding the server
	// and the process.
	maxNodes int
	// presetKey identifies a preset in statements (see presetKey).
	presetKey string
}

// compiledTree is a declared tree with its read statement.
type compiledTree struct {
	t  *model.Tree
	st *statement
}

// The tree tools are the tools of a declared tree (tools.go).
func init() {
	tools.RegisterHandlers(tools.Handlers{Name: "tree", Rank: 10, Build: func(m *model.Model, env tools.Env) ([]tools.CustomTool, error) {
		r, err := New(m, env)
		if err != nil {
			return nil, err
		}
		return r.Tools(), nil
	}})
}

// New prepares the read statements of m's trees; a model without trees
// gives a runner without tools.
func New(m *model.Model, env tools.Env) (*Runner, error) {
	key, err := presetKey(m)
	if err != nil {
		return nil, err
	}
	r := &Runner{m: m, env: env.WithDefaults(), maxNodes: MaxFetchNodes, presetKey: key}
	for _, t := range m.Trees {
		st, err := compile(m, t)
		if err != nil {
			return nil, err
		}
		r.trees = append(r.trees, &compiledTree{t: t, st: st})
	}
	return r, nil
}

// params starts the parameters of a statement the call runs: the tenant
// bound to ctx when the config declares one (engine.Execute resolved it
// before calling the handler), else nothing. An unbound call of a
// tenant-scoped config is tenant.ErrUnbound: it reads and writes nothing.
func (r *Runner) params(ctx context.Context) (map[string]any, error) {
	p := map[string]any{}
	if r.m.Tenant == nil {
		return p, nil
	}
	v, err := tenant.Required(ctx, true)
	if err != nil {
		return nil, err
	}
	p[tenant.Param] = v
	return p, nil
}

// tree returns the named tree (the first when name is ""), or a CallError
// naming the trees.
func (r *Runner) tree(tool, name string) (*compiledTree, error) {
	if name == "" && len(r.trees) > 0 {
		return r.trees[0], nil
	}
	var names []string
	for _, t := range r.trees {
		if t.t.Name == name {
			return t, nil
		}
		names = append(names, t.t.Name)
	}
	return nil, tools.Fail(tool, "/tree", names, "unknown tree %q", name)
}

// read reads and filters a tree, after checking the filters.
func (r *Runner) read(ctx context.Context, tool, at string, tr *compiledTree, f Filters) (*view, error) {
	if r.env.Driver == nil {
		return nil, neo4jtx.ErrNoDriver
	}
	if ps := f.check(); len(ps) > 0 {
		ce := &tools.CallError{Tool: tool}
		for _, p := range ps {
			ce.Problems = append(ce.Problems, tools.Problem{Path: at + p.path, Message: p.msg})
		}
		return nil, ce
	}
	nodes, err := r.fetch(ctx, tr, f.fetchRoot())
	if errors.Is(err, errTooLarge) {
		return nil, tools.Fail(tool, at+"/path_patterns", nil, "%v; give path_patterns that start with a directory (\"src/app/**\" rather than \"**/app/**\")", err)
	}
	if err != nil {
		return nil, err
	}
	return filter(nodes, f), nil
}

// CreateDiagram builds the diagram of a tree's filtered part and saves it
// as a new preset.
func (r *Runner) CreateDiagram(ctx context.Context, treeName, name, description string, f Filters) (*Diagram, error) {
	tr, err := r.tree(CreateDiagram, treeName)
	if err != nil {
		return nil, err
	}
	now := r.env.Now().UTC()
	p := &preset{ID: "diagram-" + rand.Text(), Tree: tr.t.Name, Name: name, Description: description, Filters: f, CreatedAt: now, UpdatedAt: now}
	d, err := r.draw(ctx, CreateDiagram, tr, p)
	if err != nil {
		return nil, err
	}
	return d, r.savePreset(ctx, p, true)
}

// UpdateDiagram changes a saved diagram's filters (merged into the saved
// ones when additive, else replacing them), redraws it and saves it.
func (r *Runner) UpdateDiagram(ctx context.Context, id string, f Filters, additive bool) (*Diagram, error) {
	p, tr, err := r.preset(ctx, UpdateDiagramFilters, id)
	if err != nil {
		return nil, err
	}
	p.Filters = p.Filters.Merge(f, additive)
	p.UpdatedAt = r.env.Now().UTC()
	d, err := r.draw(ctx, UpdateDiagramFilters, tr, p)
	if err != nil {
		return nil, err
	}
	return d, r.savePreset(ctx, p, false)
}

// Diagram redraws a saved diagram from its preset, without writing
// (ragforge-plan diagram render).
func (r *Runner) Diagram(ctx context.Context, id string) (*Diagram, error) {
	p, tr, err := r.preset(ctx, "diagram", id)
	if err != nil {
		return nil, err
	}
	return r.draw(ctx, "diagram", tr, p)
}

// preset loads a saved diagram and its tree, or a CallError saying the id
// is unknown.
func (r *Runner) preset(ctx context.Context, tool, id string) (*preset, *compiledTree, error) {
	if r.env.Driver == nil {
		return nil, nil, neo4jtx.ErrNoDriver
	}
	p, err := r.loadPreset(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if p == nil {
		return nil, nil, tools.Fail(tool, "/diagram_id", nil, "unknown diagram id %q: no saved diagram has it (create_diagram returns the id of a new one)", id)
	}
	tr, err := r.tree(tool, p.Tree)
	if err != nil {
		return nil, nil, tools.Fail(tool, "/diagram_id", nil, "diagram %s was made from tree %q, which this config does not declare", id, p.Tree)
	}
	return p, tr, nil
}

// draw reads, filters and lays out the preset's diagram.
func (r *Runner) draw(ctx context.Context, tool string, tr *compiledTree, p *preset) (*Diagram, error) {
	v, err := r.read(ctx, tool, "/filters", tr, p.Filters)
	if err != nil {
		return nil, err
	}
	if len(v.nodes) > MaxDiagramNodes {
		return nil, tools.Fail(tool, "/filters", nil, "the diagram would have %d nodes (at most %d); narrow it with path_patterns, exclude_paths, languages or a smaller max_depth", len(v.nodes), MaxDiagramNodes)
	}
	nodes, edges := v.draw()
	return &Diagram{ID: p.ID, Tree: tr.t.Name, Name: p.Name, Description: p.Description, Filters: p.Filters,
		Layout: LayoutHierarchical, Nodes: nodes, Edges: edges, Stats: v.stats(),
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}, nil
}

// QueryResult is query_file_tree's answer.
type QueryResult struct {
	Tree    string   `json:"tree"`
	Filters Filters  `json:"filters"`
	Summary Summary  `json:"summary"`
	Nodes   []Listed `json:"nodes"`
	// Truncated says Nodes lists only the first Limit of the matches.
	Truncated bool   `json:"truncated"`
	Note      string `json:"note,omitempty"`
	Answer    string `json:"answer"`
}

// Query summarizes a tree's filtered part and lists its first limit nodes
// in tree order.
func (r *Runner) Query(ctx context.Context, treeName string, f Filters, limit int) (*QueryResult, error) {
	tr, err := r.tree(QueryFileTree, treeName)
	if err != nil {
		return nil, err
	}
	v, err := r.read(ctx, QueryFileTree, "/filters", tr, f)
	if err != nil {
		return nil, err
	}
	s := v.summarize()
	res := &QueryResult{Tree: tr.t.Name, Filters: f, Summary: s, Nodes: []Listed{}, Answer: s.answer(v)}
	for _, n := range v.nodes {
		if len(res.Nodes) == limit {
			res.Truncated = true
			res.Note = fmt.Sprintf("showing the first %d of %d nodes in tree order; narrow with path_patterns, languages or max_depth, or raise limit", limit, len(v.nodes))
			break
		}
		res.Nodes = append(res.Nodes, Listed{Path: n.Path, Kind: n.Kind, Depth: n.Depth, Size: n.Size, Language: n.Language})
	}
	return res, nil
}

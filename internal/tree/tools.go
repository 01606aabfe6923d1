package tree

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/tools"
)

// The tree tools' names.
const (
	CreateDiagram        = "create_diagram"
	QueryFileTree        = "query_file_tree"
	UpdateDiagramFilters = "update_diagram_filters"
)

// Category groups the tree tools in a catalog.
const Category tools.Category = "tree"

// Query limits of query_file_tree's node list.
const (
	DefaultQueryLimit = 50
	MaxQueryLimit     = 500
)

// Action tells the application's UI what to do with a diagram result.
type Action struct {
	Type      string `json:"type"`
	DiagramID string `json:"diagram_id"`
}

// DiagramResult is what create_diagram and update_diagram_filters return.
type DiagramResult struct {
	*Diagram
	Action Action `json:"action"`
}

// Tools returns the tree tools for the catalog (none when the model
// declares no tree). They run through the engine's custom-tool dispatch:
// the catalog validates their arguments against the schema, the handler
// does the rest.
func (r *Runner) Tools() []tools.CustomTool {
	if len(r.trees) == 0 {
		return nil
	}
	// All three touch only the graph. create_diagram adds a preset and
	// changes nothing; update_diagram_filters overwrites a preset's filters
	// (and its update time, so a repeat is not idempotent either).
	return []tools.CustomTool{
		{Name: CreateDiagram, Category: Category, Description: r.describe(CreateDiagram), Input: r.schema(CreateDiagram), Handler: r.handleCreate,
			Behavior: tools.Behavior{Additive: true, ClosedWorld: true}},
		{Name: QueryFileTree, Category: Category, Description: r.describe(QueryFileTree), Input: r.schema(QueryFileTree), Handler: r.handleQuery, ReadOnly: true,
			Behavior: tools.Behavior{Idempotent: true, ClosedWorld: true}},
		{Name: UpdateDiagramFilters, Category: Category, Description: r.describe(UpdateDiagramFilters), Input: r.schema(UpdateDiagramFilters), Handler: r.handleUpdate,
			Behavior: tools.Behavior{ClosedWorld: true}},
	}
}

// describe writes a tool's description: what it does, the trees, and the
// filters.
func (r *Runner) describe(tool string) string {
	var b strings.Builder
	switch tool {
	case CreateDiagram:
		b.WriteString("Create a diagram of a file tree (directories and the files in them): the tree is filtered, laid out left to right (layout hierarchical: one column per depth) and returned as React Flow nodes and edges with positions, stats, and an action opening it in a new tab. ")
		b.WriteString("The diagram is saved at once (its name, description and filters) so update_diagram_filters can change it; this preset is the one thing the tool writes (a " + PresetLabel + " node in its own write transaction) — the files and directories are only read.\n")
	case QueryFileTree:
		b.WriteString("Answer questions about a file tree without drawing it: how many files and directories match, their languages and total size, how deep the tree goes, the largest folder, and the matching nodes in tree order (the first `limit`). Read-only.\n")
	case UpdateDiagramFilters:
		b.WriteString("Change the filters of a saved diagram (diagram_id from create_diagram): additive=true adds the given patterns and languages to the saved ones (and takes max_depth if given); additive=false replaces all filters. The diagram is redrawn, saved, and returned with an action updating its open tab. It writes only the diagram's preset (its " + PresetLabel + " node, in its own write transaction); the files are only read.\n")
	}
	b.WriteString("\nTrees:\n")
	for _, t := range r.trees {
		fmt.Fprintf(&b, "- %s: %s nodes joined by %s, located by their %s field", t.t.Name, strings.Join(t.t.Nodes, " and "), t.t.Contains, t.t.Path)
		if t.t.Description != "" {
			b.WriteString(" - " + t.t.Description)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nFilters (all optional, combined with AND):\n")
	b.WriteString("- path_patterns: globs on the path (e.g. \"net/http/**\", \"**/*.go\"; * stays within one path element, ** crosses them, {a,b} alternates); keeps matching nodes and the directories holding them\n")
	b.WriteString("- exclude_paths: globs; a matching node is dropped with everything under it (e.g. \"**/testdata\", \"**/*_test.go\")\n")
	if langs := r.languages(); langs != nil {
		b.WriteString("- languages: keep files of these languages")
		if len(langs) > 0 {
			b.WriteString(" (" + strings.Join(langs, ", ") + ")")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "- max_depth: levels shown below the root, the deepest directory holding every match (default %d, at most %d)", DefaultMaxDepth, MaxMaxDepth)
	return b.String()
}

// languages lists the language values the trees' enum language fields
// allow; empty (not nil) when a language field is free text, nil when no
// tree declares one.
func (r *Runner) languages() []string {
	var out []string
	free := false
	for _, t := range r.trees {
		if t.t.Language == "" {
			continue
		}
		if out == nil {
			out = []string{}
		}
		for _, name := range t.t.Nodes {
			f := r.m.Entity(name).Field(t.t.Language)
			switch {
			case f == nil:
			case len(f.Values) > 0:
				for _, v := range f.Values {
					if !slices.Contains(out, v) {
						out = append(out, v)
					}
				}
			default:
				free = true
			}
		}
	}
	if free && out != nil {
		return []string{}
	}
	return out
}

// schema is a tool's input schema.
func (r *Runner) schema(tool string) *tools.Schema {
	globs := func(desc string) *tools.Schema {
		return &tools.Schema{Type: "array", Description: desc, MaxItems: tools.Count(maxPatterns), Items: &tools.Schema{Type: "string", MinLength: tools.Count(1)}}
	}
	fprops := []tools.Prop{
		{Name: "path_patterns", Schema: globs("Globs on the path; keep matching nodes and their directories")},
		{Name: "exclude_paths", Schema: globs("Globs on the path; drop matching nodes and everything under them")},
	}
	if langs := r.languages(); langs != nil {
		item := &tools.Schema{Type: "string"}
		if len(langs) > 0 {
			item.Enum = langs
		}
		fprops = append(fprops, tools.Prop{Name: "languages", Schema: &tools.Schema{Type: "array", Description: "Keep files of these languages", Items: item}})
	}
	fprops = append(fprops, tools.Prop{Name: "max_depth", Schema: &tools.Schema{Type: "integer", Description: fmt.Sprintf("Levels shown below the root (default %d)", DefaultMaxDepth),
		Default: DefaultMaxDepth, Minimum: tools.Num(0), Maximum: tools.Num(MaxMaxDepth)}})
	filters := tools.Object(fprops...)
	filters.Description = "What to show; omitted parts keep everything"
	filters.Narrow = tools.Narrows(tools.NarrowFilter, "narrower filters")
	in := tools.Object()
	if len(r.trees) > 1 && tool != UpdateDiagramFilters {
		var names []string
		for _, t := range r.trees {
			names = append(names, t.t.Name)
		}
		in.Props = append(in.Props, tools.Prop{Name: "tree", Schema: &tools.Schema{Type: "string", Description: "Tree to read (default " + names[0] + ")", Enum: names}})
	}
	switch tool {
	case CreateDiagram:
		in.Props = append(in.Props,
			tools.Prop{Name: "name", Schema: &tools.Schema{Type: "string", Description: "Title of the diagram", MinLength: tools.Count(1), MaxLength: tools.Count(200)}},
			tools.Prop{Name: "description", Schema: &tools.Schema{Type: "string", Description: "What the diagram is for", MaxLength: tools.Count(2000)}},
			tools.Prop{Name: "filters", Schema: filters},
			tools.Prop{Name: "layout", Schema: &tools.Schema{Type: "string", Enum: []string{LayoutHierarchical}, Default: LayoutHierarchical}})
		in.Require("name")
	case QueryFileTree:
		in.Props = append(in.Props, tools.Prop{Name: "filters", Schema: filters},
			tools.Prop{Name: "limit", Schema: &tools.Schema{Type: "integer", Description: fmt.Sprintf("Nodes to list (default %d, at most %d)", DefaultQueryLimit, MaxQueryLimit),
				Default: DefaultQueryLimit, Minimum: tools.Num(1), Maximum: tools.Num(MaxQueryLimit), Narrow: tools.LimitNarrows()}})
	case UpdateDiagramFilters:
		in.Props = append(in.Props,
			tools.Prop{Name: "diagram_id", Schema: &tools.Schema{Type: "string", Description: "Id of a saved diagram (from create_diagram)", MinLength: tools.Count(1)}},
			tools.Prop{Name: "filters", Schema: filters},
			tools.Prop{Name: "additive", Schema: &tools.Schema{Type: "boolean", Description: "true: add to the saved filters; false: replace them", Default: false}})
		in.Require("diagram_id", "filters")
	}
	return in
}

// createArgs are create_diagram's arguments (the schema has checked them).
type createArgs struct {
	Tree        string  `json:"tree"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Filters     Filters `json:"filters"`
}

func (r *Runner) handleCreate(ctx context.Context, raw json.RawMessage) (any, error) {
	var a createArgs
	if err := decode(CreateDiagram, raw, &a); err != nil {
		return nil, err
	}
	d, err := r.CreateDiagram(ctx, a.Tree, a.Name, a.Description, a.Filters)
	if err != nil {
		return nil, err
	}
	return DiagramResult{Diagram: d, Action: Action{Type: "CREATE_DIAGRAM_TAB", DiagramID: d.ID}}, nil
}

func (r *Runner) handleQuery(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		Tree    string  `json:"tree"`
		Filters Filters `json:"filters"`
		Limit   int     `json:"limit"`
	}
	if err := decode(QueryFileTree, raw, &a); err != nil {
		return nil, err
	}
	if a.Limit <= 0 {
		a.Limit = DefaultQueryLimit
	}
	return r.Query(ctx, a.Tree, a.Filters, min(a.Limit, MaxQueryLimit))
}

func (r *Runner) handleUpdate(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		DiagramID string  `json:"diagram_id"`
		Filters   Filters `json:"filters"`
		Additive  bool    `json:"additive"`
	}
	if err := decode(UpdateDiagramFilters, raw, &a); err != nil {
		return nil, err
	}
	d, err := r.UpdateDiagram(ctx, a.DiagramID, a.Filters, a.Additive)
	if err != nil {
		return nil, err
	}
	return DiagramResult{Diagram: d, Action: Action{Type: "UPDATE_DIAGRAM", DiagramID: d.ID}}, nil
}

// decode reads validated arguments; a failure is still the agent's to fix.
func decode(tool string, raw json.RawMessage, dst any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return tools.Fail(tool, "", nil, "arguments do not fit the tool's schema: %v", err)
	}
	return nil
}

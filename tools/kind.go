package tools

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Kind is one generated tool as its file declares it: everything
// [Generate] needs to write the tool into a catalog and [Catalog.Parse]
// needs to check a call to it. Package tools knows no particular tool;
// each lives in one file of package planner, beside its plan, and the
// planner hands its kinds to Generate (docs/design.md, "Adding a tool").
type Kind struct {
	// Name is what the agent calls, and the tool's key in an entity's
	// exposed_tools (the CUE schema's #ToolNames).
	Name     string
	Category Category
	// Rank orders the generated tools in a catalog, lowest first; the
	// order is part of every golden catalog.
	Rank int
	// Offered says whether the options offer the tool at all (nil:
	// always), e.g. Options.Aggregations for aggregate_entities.
	Offered func(Options) bool
	// Generate writes the tool for the model g holds, or returns nil
	// when the model gives it nothing to offer. Tools are generated in
	// rank order, so a tool may refer to what a lower-ranked one
	// described (the graph schema).
	Generate func(g *Generator) *Generated
	// Parse decodes arguments that passed the tool's schema (with
	// [Checker.Decode]) into the tool's argument type, fills its defaults
	// and checks the rules the schema leaves to code, reporting each
	// problem on ck. It returns a pointer to the arguments, which is what
	// Catalog.Parse hands the planner.
	Parse func(ck *Checker, raw json.RawMessage) any
	// Rewrite, when set, turns older forms of the tool's arguments into
	// the ones its schema shows, before the schema check (e.g.
	// explore_relationships' relationship_type).
	Rewrite func(args map[string]any)
	// TruncationNote, when set, is the note of a result cut at limit
	// rows, instead of the catalog's suggestions read from the schema.
	TruncationNote func(limit int) string
	// CapNote, for a tool that traverses, is the note of a traversal
	// stopped at Limits.MaxExpanded (maxExpanded).
	CapNote func(maxExpanded int) string
	// LongTextNote, for a tool that reads a text whole (get_entity_by_id's
	// field), says how; a result that shortened a text ends its note with
	// it when the catalog has the tool ([Catalog.LongTextNote]).
	LongTextNote string
	// StatementArg is the argument holding Cypher the agent wrote
	// (run_cypher's "/query"), "" for a tool whose statement the planner
	// writes; see [Tool.StatementArg].
	StatementArg string
}

// Generated is what a Kind's Generate writes for one model.
type Generated struct {
	// Description is the tool's description.
	Description string
	// Input is the input schema.
	Input *Schema
	// Offers are the entities, fields and modes the tool offers, which
	// Parse checks calls against ([Checker.Entity], [Checker.Field]).
	Offers []*EntityOffer
	// GraphSchema is the part of Description that is the graph's schema,
	// set by the one tool that carries it (see [Tool.GraphSchema]).
	GraphSchema string
}

// ordered checks kinds (names valid and distinct) and returns them in
// rank order.
func ordered(kinds []Kind) ([]Kind, error) {
	seen := map[string]bool{}
	for _, k := range kinds {
		switch {
		case !toolNamePattern.MatchString(k.Name):
			return nil, fmt.Errorf("tools: generated tool name %q is invalid", k.Name)
		case seen[k.Name]:
			return nil, fmt.Errorf("tools: two generated tools are named %s", k.Name)
		case k.Generate == nil || k.Parse == nil:
			return nil, fmt.Errorf("tools: generated tool %s needs Generate and Parse", k.Name)
		}
		seen[k.Name] = true
	}
	return slices.SortedStableFunc(slices.Values(kinds), func(a, b Kind) int { return a.Rank - b.Rank }), nil
}

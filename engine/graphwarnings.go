package engine

import (
	"encoding/json"
	"slices"

	"github.com/ragforge/ragforge/planner"
)

// GraphWarning is one thing the live graph contradicts in the config (a
// field whose every value reads as null, a declared type the values do not
// have, a name the graph lacks), as `vet --uri` words it. A host that
// serves such a config anyway passes them in Options.GraphWarnings, so an
// answer that may be wrong because of one says so instead of being
// silently empty.
type GraphWarning struct {
	// Owner is the label or relationship type the warning is about.
	Owner string
	// Note is the warning as the answer says it.
	Note string
}

// graphNotes are the graph warnings a call's answer carries: those whose
// owner the statement filters, sorts or aggregates on (st.Uses), whose
// entities it returns (st.Shape.Entity), or whose name the call's
// arguments hold (an entity_type, a via, a relationship type). Custom
// tools' answers are the handler's own and carry none.
func (e *Engine) graphNotes(call Call, st *planner.Statement) []string {
	if len(e.opts.GraphWarnings) == 0 {
		return nil
	}
	named := map[string]bool{st.Shape.Entity: true}
	for _, u := range st.Uses {
		named[u.Entity] = true
	}
	var args any
	if json.Unmarshal(call.Arguments, &args) == nil {
		stringsIn(args, named)
	}
	var notes []string
	for _, w := range e.opts.GraphWarnings {
		note := "the graph contradicts the config, so this answer may miss data: " + w.Note
		if named[w.Owner] && !slices.Contains(notes, note) {
			notes = append(notes, note)
		}
	}
	return notes
}

// stringsIn adds every string value v holds, at any depth, to set.
func stringsIn(v any, set map[string]bool) {
	switch x := v.(type) {
	case string:
		set[x] = true
	case []any:
		for _, y := range x {
			stringsIn(y, set)
		}
	case map[string]any:
		for _, y := range x {
			stringsIn(y, set)
		}
	}
}

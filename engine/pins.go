package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/planner"
)

// maxPinValues bounds the distinct values of a pinned field read to find
// the closest ones: those with the pinned value as a case-insensitive
// prefix come first, shortest first, so they are never cut.
const maxPinValues = 5000

// pinScan bounds the entities read to find the closest values, so an
// empty answer over a label of millions costs a bounded read; a note says
// when the bound cut the search. A variable so a test can lower it.
var pinScan int64 = 100_000

// closestShown is how many close values a pin's note names at most.
const closestShown = 3

// pinNotes says, for an empty answer, which of the statement's pins
// (Shape.Pins) names no entity, with up to closestShown values the graph
// holds that start with it (ignoring case) or are a few edits from it, as
// get_entity_by_id says of an unknown id: an empty answer then carries
// its reason instead of reading as "none exist". A pin whose note the
// answer already has (the id a call named) gets the closest values added
// to it. It costs one bounded read per pin, only after an empty answer,
// scoped to the call's tenant.
func (e *Engine) pinNotes(ctx context.Context, st *planner.Statement, res *Result) error {
	if res.Count != 0 || res.kind == kindCustom {
		return nil
	}
	for _, p := range st.Shape.Pins {
		found, closest, cut, err := e.closest(ctx, st, p)
		if err != nil {
			return err
		}
		if found {
			continue
		}
		note := p.Note + closestNote(closest, cut)
		if i := slices.Index(res.Notes, p.Note); i >= 0 {
			res.Notes[i] = note
		} else {
			res.Notes = append(res.Notes, note)
		}
	}
	return nil
}

func closestNote(values []string, cut bool) string {
	among := ""
	if cut {
		among = fmt.Sprintf(" among the first %d read", pinScan)
	}
	if len(values) == 0 {
		return "; no value is close" + among
	}
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = fmt.Sprintf("%q", v)
	}
	return "; closest values" + among + ": " + strings.Join(quoted, ", ")
}

// closest reads whether some entity has the pinned value, and else the
// closest values among the first pinScan entities (cut says the label
// has more).
func (e *Engine) closest(ctx context.Context, st *planner.Statement, p planner.Pin) (found bool, closest []string, cut bool, err error) {
	label, err := ident.Quote(p.Entity)
	if err != nil {
		return false, nil, false, err
	}
	prop, err := ident.Quote(p.Field)
	if err != nil {
		return false, nil, false, err
	}
	params := map[string]any{"value": p.Value, "max": int64(maxPinValues)}
	scoped, err := e.tenantAnd("n", st, params)
	if err != nil {
		return false, nil, false, err
	}
	// Whether some entity has the value: an equality read, which an index
	// on the field serves.
	rows, err := e.readRows(ctx, "MATCH (n:"+label+") WHERE n."+prop+" = $value"+scoped+"\nRETURN true LIMIT 1", params)
	if err != nil {
		return false, nil, false, fmt.Errorf("engine: looking up %s.%s = %q: %w", p.Entity, p.Field, p.Value, err)
	}
	if len(rows) > 0 {
		return true, nil, false, nil
	}
	// One more than the bound, so that reading it says the bound cut the
	// search, and a label of exactly pinScan entities does not.
	params["scan"] = pinScan + 1
	q := "MATCH (n:" + label + ") WHERE n." + prop + " IS NOT NULL" + scoped + "\nWITH n." + prop + " AS v LIMIT $scan\n" +
		"WITH collect(v) AS vs, count(*) AS seen UNWIND vs AS v\nWITH DISTINCT v, seen, toLower(toString(v)) STARTS WITH toLower($value) AS prefix\n" +
		"ORDER BY prefix DESC, size(toString(v)), v\nLIMIT $max\nRETURN toString(v) AS v, prefix, seen"
	if rows, err = e.readRows(ctx, q, params); err != nil {
		return false, nil, false, fmt.Errorf("engine: looking for values close to %s.%s = %q: %w", p.Entity, p.Field, p.Value, err)
	}
	var rest []string
	for _, r := range rows {
		v, _ := r[0].(string)
		switch prefix := r[1] == true; {
		case prefix && len(closest) < closestShown:
			closest = append(closest, v)
		case !prefix:
			rest = append(rest, v)
		}
	}
	closest = append(closest, computed.Closest(p.Value, rest, closestShown-len(closest))...)
	if len(rows) > 0 {
		seen, _ := rows[0][2].(int64)
		cut = seen > pinScan
	}
	return false, closest, cut, nil
}

package historytools

import (
	"context"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Modified is one entity with its changes in a window.
type Modified struct {
	EntityType   string `json:"entity_type"`
	Key          string `json:"key"`
	Changes      int64  `json:"changes"`
	LinesAdded   int64  `json:"lines_added"`
	LinesRemoved int64  `json:"lines_removed"`
	LastModified string `json:"last_modified"`
}

// ModifiedResult lists entities by their changes.
type ModifiedResult struct {
	From     string     `json:"from,omitempty"`
	To       string     `json:"to,omitempty"`
	Entities []Modified `json:"entities"`
	Notes    []string   `json:"notes,omitempty"`
}

// modified groups the Changes the filter selects by entity and returns
// the first n in order (an ORDER BY over the grouped columns), reading
// one more to say whether the list was cut and whether the cut splits a
// tie of the order's first key.
func (h *historian) modified(ctx context.Context, tool string, w window, typ, kind, tn, order, first string, n int) (any, error) {
	match, params, err := h.changeFilter(tool, w, typ, kind, tn)
	if err != nil {
		return nil, err
	}
	f := h.t.Q.Fields
	q := match + "WITH c." + f.EntityType + " AS type, c." + f.EntityKey + " AS key, count(c) AS changes, " +
		"sum(coalesce(c." + f.LinesAdded + ", 0)) AS added, sum(coalesce(c." + f.LinesRemoved + ", 0)) AS removed, max(c." + f.Timestamp + ") AS last\n" +
		"RETURN type, key, changes, added, removed, last, added + removed AS churn\nORDER BY " + order + ", type, key\nLIMIT $limit"
	params["limit"] = int64(n + 1)
	out, err := h.read(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		recs, err := rows(ctx, tx, q, params)
		if err != nil {
			return nil, err
		}
		r := ModifiedResult{Entities: []Modified{}}
		if from, ok := params["from"]; ok {
			r.From = timeOf(from)
		}
		if to, ok := params["to"]; ok {
			r.To = timeOf(to)
		}
		for i, rec := range recs {
			if i == n {
				r.Notes = append(r.Notes, fmt.Sprintf("showing the first %d entities; raise limit (at most %d) or narrow the window for more", n, MaxLimit))
				if a, _ := rec.Get(first); a == mustGet(recs[n-1], first) {
					r.Notes = append(r.Notes, "the cut splits entities tied on "+first)
				}
				break
			}
			v := rec.AsMap()
			r.Entities = append(r.Entities, Modified{EntityType: v["type"].(string), Key: fmt.Sprint(v["key"]), Changes: v["changes"].(int64),
				LinesAdded: v["added"].(int64), LinesRemoved: v["removed"].(int64), LastModified: timeOf(v["last"])})
		}
		return r, nil
	})
	return out, err
}

func mustGet(r *neo4j.Record, k string) any {
	v, _ := r.Get(k)
	return v
}

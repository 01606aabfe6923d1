package historytools

import (
	"context"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
)

// Modified is one entity with its changes in a window.
type Modified struct {
	EntityType string `json:"entity_type"`
	Key        string `json:"key"`
	// Display are the entity's display fields (model.DisplayFields); none
	// when its node is gone (its Changes remain).
	Display      map[string]any `json:"display,omitempty"`
	Changes      int64          `json:"changes"`
	LinesAdded   int64          `json:"lines_added"`
	LinesRemoved int64          `json:"lines_removed"`
	LastModified string         `json:"last_modified"`
}

// ModifiedResult lists entities by their changes.
type ModifiedResult struct {
	From     string     `json:"from,omitempty"`
	To       string     `json:"to,omitempty"`
	Entities []Modified `json:"entities"`
	// LatestChange is the time of the latest recorded change of the
	// entities asked about, when the window counts from it or the list is
	// empty.
	LatestChange string   `json:"latest_change,omitempty"`
	Notes        []string `json:"notes,omitempty"`
}

// modified groups the query's Changes by their entity's node (a file's
// Changes from before a rename with its later ones), or by type and key
// for a Change whose node is gone, and returns the first n in order (an
// ORDER BY over the grouped columns), reading one more to say whether
// the list was cut and whether the cut splits a tie of the order's first
// key.
func (h *historian) modified(ctx context.Context, q query, order, first string, n int) (any, error) {
	f := h.t.Q.Fields
	types := q.s.types
	return h.read(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		fr, err := h.frame(ctx, tx, q)
		if err != nil {
			return nil, err
		}
		stmt := fr.match
		if q.s.sel == nil {
			stmt += "OPTIONAL MATCH (n)-[:" + h.t.Q.Rel + "]->(c)" + h.tenantWhere("n") + "\n"
		}
		stmt += "WITH c." + f.EntityType + " AS type, n, CASE WHEN n IS NULL THEN c." + f.EntityKey + " END AS gone, count(c) AS changes, " +
			"sum(coalesce(c." + f.LinesAdded + ", 0)) AS added, sum(coalesce(c." + f.LinesRemoved + ", 0)) AS removed, max(c." + f.Timestamp + ") AS last\n" +
			"WITH type, n, coalesce(" + h.keyOf("n", types) + ", gone) AS key, changes, added, removed, last, added + removed AS churn\n" +
			"ORDER BY " + order + ", type, key\nLIMIT $limit\n" +
			"RETURN type, key, " + h.displayOf("n", types) + " AS display, changes, added, removed, last, churn"
		fr.params["limit"] = int64(n + 1)
		recs, err := rows(ctx, tx, stmt, fr.params)
		if err != nil {
			return nil, err
		}
		r := ModifiedResult{Entities: []Modified{}}
		r.From, r.To = fr.window()
		if !fr.latest.IsZero() {
			r.LatestChange = timeOf(fr.latest)
		}
		conv := neo4jvalue.New(ctx, h.m, MaxDisplayString)
		gone := 0
		for i, rec := range recs {
			if i == n {
				r.Notes = append(r.Notes, fmt.Sprintf("showing the first %d entities; raise limit (at most %d) or narrow the window for more", n, MaxLimit))
				if a, _ := rec.Get(first); a == mustGet(recs[n-1], first) {
					r.Notes = append(r.Notes, "the cut splits entities tied on "+first)
				}
				break
			}
			v := rec.AsMap()
			m := Modified{EntityType: fmt.Sprint(v["type"]), Key: fmt.Sprint(v["key"]), Display: display(conv, v["display"]), Changes: v["changes"].(int64),
				LinesAdded: v["added"].(int64), LinesRemoved: v["removed"].(int64), LastModified: timeOf(v["last"])}
			if v["display"] == nil {
				gone++
			}
			r.Entities = append(r.Entities, m)
		}
		if gone > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%d of these entities are no longer in the graph (their changes remain): they show no display fields", gone))
		}
		r.Notes = append(r.Notes, conv.Notes()...)
		if len(r.Entities) == 0 {
			note, latest, err := h.empty(ctx, tx, q, fr)
			if err != nil {
				return nil, err
			}
			r.Notes, r.LatestChange = append(r.Notes, note), latest
		}
		return r, nil
	})
}

func mustGet(r *neo4j.Record, k string) any {
	v, _ := r.Get(k)
	return v
}

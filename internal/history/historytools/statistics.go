package historytools

import (
	"context"
	"fmt"
	"sort"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/timebucket"
	"github.com/ragforge/ragforge/tools"
)

// Statistics is get_change_statistics' name.
const Statistics = "get_change_statistics"

type statisticsArgs struct {
	window
	target
	Bucket string `json:"bucket"`
}

// Tally counts changes and their lines.
type Tally struct {
	Changes      int64 `json:"changes"`
	LinesAdded   int64 `json:"lines_added"`
	LinesRemoved int64 `json:"lines_removed"`
}

func (t *Tally) add(o Tally) {
	t.Changes, t.LinesAdded, t.LinesRemoved = t.Changes+o.Changes, t.LinesAdded+o.LinesAdded, t.LinesRemoved+o.LinesRemoved
}

// BucketTally is a time bucket's tally.
type BucketTally struct {
	Bucket string `json:"bucket"`
	Tally
}

// StatisticsResult is the tallies of a window.
type StatisticsResult struct {
	From         string           `json:"from,omitempty"`
	To           string           `json:"to,omitempty"`
	Total        Tally            `json:"total"`
	ByKind       map[string]Tally `json:"by_kind"`
	ByEntityType map[string]Tally `json:"by_entity_type"`
	Buckets      []BucketTally    `json:"buckets,omitempty"`
	// LatestChange is as in ModifiedResult.
	LatestChange string   `json:"latest_change,omitempty"`
	Notes        []string `json:"notes,omitempty"`
}

func (h *historian) statistics() tools.CustomTool {
	in := tools.Object(append(append(h.targetProps(), windowProps()...),
		tools.Prop{Name: "bucket", Schema: &tools.Schema{Type: "string", Enum: tools.Buckets, Description: "also tally per time bucket (UTC)"}})...)
	return tool(h, Statistics,
		"Changes and lines added and removed in a window (all time without one; relative_to as in "+RecentlyModified+"): in total, by kind, by entity type, per time bucket when asked; only of entity_type's entities meeting conditions (query_entities') when given.",
		in,
		func(ctx context.Context, tn string, a statisticsArgs) (any, error) {
			f := h.t.Q.Fields
			bucket := "null"
			if a.Bucket != "" {
				var ok bool
				// The label comes from timebucket's fixed table, never the agent's text.
				if bucket, ok = timebucket.Label(a.Bucket, "c."+f.Timestamp); !ok {
					return nil, tools.Fail(Statistics, "/bucket", tools.Buckets, "%s is not a bucket", a.Bucket)
				}
			}
			q, err := h.newQuery(Statistics, a.target, a.window, "", tn)
			if err != nil {
				return nil, err
			}
			return h.read(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
				fr, err := h.frame(ctx, tx, q)
				if err != nil {
					return nil, err
				}
				stmt := fr.match + "RETURN c." + f.Kind + " AS kind, c." + f.EntityType + " AS type, " + bucket + " AS bucket, count(c) AS changes, " +
					"sum(coalesce(c." + f.LinesAdded + ", 0)) AS added, sum(coalesce(c." + f.LinesRemoved + ", 0)) AS removed"
				recs, err := rows(ctx, tx, stmt, fr.params)
				if err != nil {
					return nil, err
				}
				r := StatisticsResult{ByKind: map[string]Tally{}, ByEntityType: map[string]Tally{}}
				r.From, r.To = fr.window()
				if !fr.latest.IsZero() {
					r.LatestChange = timeOf(fr.latest)
				}
				buckets := map[string]*Tally{}
				for _, rec := range recs {
					v := rec.AsMap()
					t := Tally{Changes: v["changes"].(int64), LinesAdded: v["added"].(int64), LinesRemoved: v["removed"].(int64)}
					r.Total.add(t)
					for _, g := range []struct {
						m map[string]Tally
						k any
					}{{r.ByKind, v["kind"]}, {r.ByEntityType, v["type"]}} {
						k := fmt.Sprint(g.k)
						sum := g.m[k]
						sum.add(t)
						g.m[k] = sum
					}
					if b, ok := v["bucket"].(string); ok {
						if buckets[b] == nil {
							buckets[b] = &Tally{}
						}
						buckets[b].add(t)
					}
				}
				if a.Bucket != "" {
					r.Buckets = []BucketTally{}
					for b, t := range buckets {
						r.Buckets = append(r.Buckets, BucketTally{Bucket: b, Tally: *t})
					}
					sort.Slice(r.Buckets, func(i, j int) bool { return r.Buckets[i].Bucket < r.Buckets[j].Bucket })
					if len(r.Buckets) > MaxBuckets {
						r.Notes = append(r.Notes, fmt.Sprintf("showing the first %d of %d buckets; narrow the window or use a wider bucket", MaxBuckets, len(r.Buckets)))
						r.Buckets = r.Buckets[:MaxBuckets]
					}
				}
				if r.Total.Changes == 0 {
					note, latest, err := h.empty(ctx, tx, q, fr)
					if err != nil {
						return nil, err
					}
					r.Notes, r.LatestChange = append(r.Notes, note), latest
				}
				return r, nil
			})
		})
}

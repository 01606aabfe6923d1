package historytools

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/tools"
)

// CompareVersions is compare_entity_versions' name.
const CompareVersions = "compare_entity_versions"

// MaxCompared bounds the changes one comparison reads.
const MaxCompared = 1000

type compareArgs struct {
	one
	From       string `json:"from"`
	To         string `json:"to"`
	FromChange string `json:"from_change"`
	ToChange   string `json:"to_change"`
}

// FieldVersion is one field's value at both ends, with a diff for text.
type FieldVersion struct {
	Before any    `json:"before"`
	After  any    `json:"after"`
	Diff   string `json:"diff,omitempty"`
}

// CompareResult is what changed between two versions of an entity.
type CompareResult struct {
	EntityType string         `json:"entity_type"`
	Key        string         `json:"key"`
	Display    map[string]any `json:"display,omitempty"`
	// From and To are the window's ends: changes after From up to To.
	From    string                  `json:"from,omitempty"`
	To      string                  `json:"to,omitempty"`
	Changes []string                `json:"changes"`
	Fields  map[string]FieldVersion `json:"fields,omitempty"`
	// Diff is the changes' own diffs in order (recorded commits carry no
	// field values, only their diffs).
	Diff         string   `json:"diff,omitempty"`
	LinesAdded   int      `json:"lines_added"`
	LinesRemoved int      `json:"lines_removed"`
	Notes        []string `json:"notes,omitempty"`
}

func (h *historian) compareVersions() tools.CustomTool {
	str := func(d string) *tools.Schema { return &tools.Schema{Type: "string", Description: d} }
	in := tools.Object(append(h.oneProps(),
		tools.Prop{Name: "from", Schema: str("datetime; default: before the first change")}, tools.Prop{Name: "to", Schema: str("datetime; default: now")},
		tools.Prop{Name: "from_change", Schema: str("change id: compare from just after it")}, tools.Prop{Name: "to_change", Schema: str("change id: up to and including it")})...).Require("entity_type")
	return tool(h, CompareVersions,
		"What changed in one entity between two times or two recorded changes (ids from get_entity_change_history): each changed field's value before and after (a relationship's property as TYPE->key.property), with a unified diff for text, and lines added and removed. "+
			"Name the entity by key or by conditions only it meets, as in "+EntityHistory+".",
		in,
		func(ctx context.Context, tn string, a compareArgs) (any, error) {
			if a.From != "" && a.FromChange != "" || a.To != "" && a.ToChange != "" {
				return nil, tools.Fail(CompareVersions, "", nil, "give from or from_change, and to or to_change, not both of a pair")
			}
			var from, to time.Time
			if _, err := parseTimes(CompareVersions, timeArg{a.From, "/from", &from}, timeArg{a.To, "/to", &to}); err != nil {
				return nil, err
			}
			return h.read(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
				t, key, err := h.resolve(ctx, tx, CompareVersions, a.one, tn)
				if err != nil {
					return nil, err
				}
				q := "MATCH " + h.node(t) + "\nOPTIONAL MATCH (n)-[:" + h.t.Q.Rel + "]->(c:" + h.t.Q.Label + ")" + h.tenantWhere("c") +
					"\nWITH n, c ORDER BY c." + h.t.Q.Fields.Timestamp + ", c." + h.t.Q.Fields.Key + " LIMIT $max" +
					"\nRETURN collect(c " + h.projection() + ") AS changes, " + h.displayOf("n", []string{t.e.Name}) + " AS display"
				recs, err := rows(ctx, tx, q, map[string]any{"key": key, "tenant": tn, "max": int64(MaxCompared + 1)})
				if err != nil {
					return nil, err
				}
				if len(recs) == 0 {
					return nil, notFound(CompareVersions, t.e, key)
				}
				var all []Change
				for _, v := range recs[0].Values[0].([]any) {
					all = append(all, changeOf(v))
				}
				cut := len(all) > MaxCompared
				all = all[:min(len(all), MaxCompared)]
				sort.Slice(all, func(i, j int) bool {
					if !all[i].at.Equal(all[j].at) {
						return all[i].at.Before(all[j].at)
					}
					return all[i].ID < all[j].ID
				})
				lo, hi, err := span(all, a, fmt.Sprint(key), from, to)
				if err != nil {
					return nil, err
				}
				r := h.compare(t.e.Name, fmt.Sprint(key), all[lo:hi], from, to)
				conv := neo4jvalue.New(ctx, h.m, MaxDisplayString)
				r.Display = display(conv, recs[0].Values[1])
				if cut {
					r.Notes = append(r.Notes, fmt.Sprintf("only the entity's first %d changes were read", MaxCompared))
				}
				r.Notes = append(r.Notes, conv.Notes()...)
				return r, nil
			})
		})
}

// span returns the index range of the changes after the start and up to
// the end, the ends given as times or as change ids.
func span(all []Change, a compareArgs, key string, from, to time.Time) (lo, hi int, err error) {
	lo, hi = 0, len(all)
	find := func(id, path string) (int, error) {
		for i, c := range all {
			if c.ID == id {
				return i, nil
			}
		}
		return 0, tools.Fail(CompareVersions, path, nil, "%s has no change %q (list its changes with %s)", key, id, EntityHistory)
	}
	if a.FromChange != "" {
		i, err := find(a.FromChange, "/from_change")
		if err != nil {
			return 0, 0, err
		}
		lo = i + 1
	}
	if a.ToChange != "" {
		i, err := find(a.ToChange, "/to_change")
		if err != nil {
			return 0, 0, err
		}
		hi = i + 1
	}
	for lo < hi && !from.IsZero() && !all[lo].at.After(from) {
		lo++
	}
	for hi > lo && !to.IsZero() && all[hi-1].at.After(to) {
		hi--
	}
	if lo > hi {
		return 0, 0, tools.Fail(CompareVersions, "/to_change", nil, "to_change is before from_change")
	}
	return lo, hi, nil
}

// compare folds the changes into each field's first old and last new
// value, diffs text, and joins the changes' own diffs when they carry no
// values (imported commits).
func (h *historian) compare(typ, key string, cs []Change, from, to time.Time) CompareResult {
	r := CompareResult{EntityType: typ, Key: key, Changes: []string{}}
	if !from.IsZero() {
		r.From = from.UTC().Format(time.RFC3339Nano)
	}
	if !to.IsZero() {
		r.To = to.UTC().Format(time.RFC3339Nano)
	}
	if len(cs) == 0 {
		r.Notes = append(r.Notes, "no recorded change in this range: both versions are the same")
		return r
	}
	fields := map[string]*FieldVersion{}
	var diffs []string
	for _, c := range cs {
		r.Changes = append(r.Changes, c.ID)
		if c.RenamedFrom != "" {
			r.Notes = append(r.Notes, fmt.Sprintf("commit %s in this range renamed the file from %s", c.Commit, c.RenamedFrom))
		}
		for _, name := range c.ChangedFields {
			fv := fields[c.field(name)]
			if fv == nil {
				fv = &FieldVersion{Before: c.OldValues[name]}
				fields[c.field(name)] = fv
			}
			fv.After = c.NewValues[name]
		}
		if len(c.ChangedFields) == 0 && c.Relationship == nil {
			if c.Diff != "" {
				diffs = append(diffs, fmt.Sprintf("commit %s %s (%s)\n%s", c.Commit, c.Timestamp, c.Message, c.Diff))
			}
			r.LinesAdded += int(c.LinesAdded)
			r.LinesRemoved += int(c.LinesRemoved)
		}
	}
	if len(fields) > 0 {
		r.Fields = map[string]FieldVersion{}
		for name, fv := range fields {
			before, bok := fv.Before.(string)
			after, aok := fv.After.(string)
			if bok || aok {
				d, added, removed := change.Unified(name, before, after)
				fv.Diff = change.Cut(d, h.t.MaxDiffBytes)
				r.LinesAdded += added
				r.LinesRemoved += removed
			}
			r.Fields[name] = *fv
		}
	}
	if len(diffs) > 0 {
		r.Diff = change.Cut(strings.Join(diffs, ""), h.t.MaxDiffBytes)
	}
	return r
}

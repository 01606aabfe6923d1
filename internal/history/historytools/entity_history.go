package historytools

import (
	"context"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/tools"
)

// EntityHistory is get_entity_change_history's name.
const EntityHistory = "get_entity_change_history"

type entityHistoryArgs struct {
	one
	Limit       int  `json:"limit"`
	IncludeDiff bool `json:"include_diff"`
}

// EntityHistoryResult is an entity's changes, newest first.
type EntityHistoryResult struct {
	EntityType string         `json:"entity_type"`
	Key        string         `json:"key"`
	Display    map[string]any `json:"display,omitempty"`
	Total      int64          `json:"total"`
	Changes    []Change       `json:"changes"`
	// Renames are the file renames the whole history runs back through,
	// newest first.
	Renames []Rename `json:"renames,omitempty"`
	Notes   []string `json:"notes,omitempty"`
}

func (h *historian) entityHistory() tools.CustomTool {
	in := tools.Object(append(h.oneProps(), limitProp(), tools.Prop{Name: "include_diff", Schema: &tools.Schema{Type: "boolean"}})...).Require("entity_type")
	return tool(h, EntityHistory,
		"The recorded changes of one entity, newest first: kind, time, fields changed with old and new values (a relationship write's: the relationship, its properties'), lines added and removed, provenance or commit; with the entity's display fields. "+
			"Name it by key (its unique field) or by conditions, as in query_entities, that only it meets (e.g. on its name); when several meet them, the error lists them. "+
			"A change whose commit renamed the file carries renamed_from; renames says where the history runs back through one. include_diff adds each change's unified diff.",
		in,
		func(ctx context.Context, tn string, a entityHistoryArgs) (any, error) {
			n := limit(a.Limit)
			return h.read(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
				t, key, err := h.resolve(ctx, tx, EntityHistory, a.one, tn)
				if err != nil {
					return nil, err
				}
				f := h.t.Q.Fields
				q := "MATCH " + h.node(t) + "\nOPTIONAL MATCH (n)-[:" + h.t.Q.Rel + "]->(c:" + h.t.Q.Label + ")" + h.tenantWhere("c") +
					"\nWITH n, c ORDER BY c." + f.Timestamp + " DESC, c." + f.Key +
					"\nWITH n, collect(c) AS cs\nRETURN size(cs) AS total, [c IN cs[..$limit] | c " + h.projection() + "] AS changes, " +
					"[c IN cs WHERE c." + f.RenamedFrom + " IS NOT NULL | c " + h.projection() + "] AS renames, " +
					h.displayOf("n", []string{t.e.Name}) + " AS display, " + h.pathOf("n", []string{t.e.Name}) + " AS path"
				recs, err := rows(ctx, tx, q, map[string]any{"key": key, "tenant": tn, "limit": int64(n)})
				if err != nil {
					return nil, err
				}
				if len(recs) == 0 {
					return nil, notFound(EntityHistory, t.e, key)
				}
				v := recs[0].AsMap()
				conv := neo4jvalue.New(ctx, h.m, MaxDisplayString)
				r := EntityHistoryResult{EntityType: t.e.Name, Key: fmt.Sprint(key), Display: display(conv, v["display"]), Total: v["total"].(int64), Changes: []Change{}}
				for _, x := range v["changes"].([]any) {
					c := changeOf(x)
					if !a.IncludeDiff {
						c.Diff = ""
					}
					r.Changes = append(r.Changes, c)
				}
				if r.Total > int64(len(r.Changes)) {
					r.Notes = append(r.Notes, truncated(len(r.Changes), r.Total))
				}
				var renamed []Change
				for _, x := range v["renames"].([]any) {
					renamed = append(renamed, changeOf(x))
				}
				path, _ := v["path"].(string)
				r.Renames = renames(renamed, path)
				for _, rn := range r.Renames {
					r.Notes = append(r.Notes, renameNote(rn))
				}
				r.Notes = append(r.Notes, conv.Notes()...)
				return r, nil
			})
		})
}

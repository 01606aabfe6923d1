package historytools

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/tools"
)

// EntityHistory is get_entity_change_history's name.
const EntityHistory = "get_entity_change_history"

type entityHistoryArgs struct {
	EntityType  string `json:"entity_type"`
	Key         string `json:"key"`
	Limit       int    `json:"limit"`
	IncludeDiff bool   `json:"include_diff"`
}

// EntityHistoryResult is an entity's changes, newest first.
type EntityHistoryResult struct {
	EntityType string   `json:"entity_type"`
	Key        string   `json:"key"`
	Total      int64    `json:"total"`
	Changes    []Change `json:"changes"`
	Notes      []string `json:"notes,omitempty"`
}

func (h *historian) entityHistory() tools.CustomTool {
	return tool(h, EntityHistory,
		"The recorded changes of one entity, newest first: kind, time, fields changed with old and new values (a relationship write's: the relationship, its properties'), lines added and removed, provenance or commit. include_diff adds each change's unified diff.",
		map[string]any{"required": []string{"entity_type", "key"}, "properties": map[string]any{
			"entity_type": h.entityTypeProp(), "key": map[string]any{"type": "string", "description": "the entity's unique field"},
			"limit": limitProp(), "include_diff": map[string]any{"type": "boolean"}}},
		func(ctx context.Context, tn string, a entityHistoryArgs) (any, error) {
			e, node, err := h.node(EntityHistory, a.EntityType)
			if err != nil {
				return nil, err
			}
			n := limit(a.Limit)
			q := "MATCH " + node + "\nOPTIONAL MATCH (n)-[:" + h.t.Q.Rel + "]->(c:" + h.t.Q.Label + ")" + h.tenantWhere("c") +
				"\nWITH n, c ORDER BY c." + h.t.Q.Fields.Timestamp + " DESC, c." + h.t.Q.Fields.Key +
				"\nWITH n, collect(c) AS cs\nRETURN size(cs) AS total, [c IN cs[..$limit] | c " + h.projection() + "] AS changes"
			out, err := h.read(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
				recs, err := rows(ctx, tx, q, map[string]any{"key": a.Key, "tenant": tn, "limit": int64(n)})
				if err != nil {
					return nil, err
				}
				if len(recs) == 0 {
					return nil, notFound(EntityHistory, e, a.Key)
				}
				r := EntityHistoryResult{EntityType: e.Name, Key: a.Key, Total: recs[0].Values[0].(int64), Changes: []Change{}}
				for _, v := range recs[0].Values[1].([]any) {
					c := changeOf(v)
					if !a.IncludeDiff {
						c.Diff = ""
					}
					r.Changes = append(r.Changes, c)
				}
				if r.Total > int64(len(r.Changes)) {
					r.Notes = append(r.Notes, truncated(len(r.Changes), r.Total))
				}
				return r, nil
			})
			return out, err
		})
}

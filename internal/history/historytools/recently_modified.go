package historytools

import (
	"context"

	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/tools"
)

// RecentlyModified is find_recently_modified_entities' name.
const RecentlyModified = "find_recently_modified_entities"

type recentlyModifiedArgs struct {
	window
	target
	Kind  string `json:"kind"`
	Limit int    `json:"limit"`
}

func (h *historian) recentlyModified() tools.CustomTool {
	in := tools.Object(append(append(h.targetProps(), windowProps()...),
		tools.Prop{Name: "kind", Schema: &tools.Schema{Type: "string", Enum: change.Kinds}}, limitProp())...)
	return tool(h, RecentlyModified,
		"Entities changed in a time window (default "+DefaultPeriod+"), most recently changed first, each with its key, display fields, last change time and change count in the window. "+
			"conditions narrow entity_type's entities as in query_entities (e.g. by name, kind, path prefix). "+
			"On a graph not changed lately, relative_to latest_change counts the period back from the latest change; an empty answer says when that was.",
		in,
		func(ctx context.Context, tn string, a recentlyModifiedArgs) (any, error) {
			if a.RelativePeriod == "" && a.Since == "" && a.Until == "" {
				a.RelativePeriod = DefaultPeriod
			}
			q, err := h.newQuery(RecentlyModified, a.target, a.window, a.Kind, tn)
			if err != nil {
				return nil, err
			}
			return h.modified(ctx, q, "last DESC", "last", limit(a.Limit))
		})
}

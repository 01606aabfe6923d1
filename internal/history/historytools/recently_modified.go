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
		"Entities changed in a window (default "+DefaultPeriod+"), last changed first: key, display fields, last change time, changes in the window. "+
			"conditions on entity_type's fields and relationships, as in query_entities, narrow them (e.g. IN a list of values, STARTS WITH a path). "+
			"relative_to latest_change counts relative_period back from the latest recorded change instead of now (a graph not changed lately); an empty answer says when that change was.",
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

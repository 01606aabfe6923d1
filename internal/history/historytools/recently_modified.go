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
	EntityType string `json:"entity_type"`
	Kind       string `json:"kind"`
	Limit      int    `json:"limit"`
}

func (h *historian) recentlyModified() tools.CustomTool {
	props := windowProps(map[string]any{"entity_type": h.entityTypeProp(), "kind": map[string]any{"type": "string", "enum": change.Kinds}, "limit": limitProp()})
	return tool(h, RecentlyModified,
		"Entities changed in a time window (default "+DefaultPeriod+"), most recently changed first, with their last change time and change count in the window.",
		map[string]any{"properties": props},
		func(ctx context.Context, tn string, a recentlyModifiedArgs) (any, error) {
			if a.RelativePeriod == "" && a.Since == "" && a.Until == "" {
				a.RelativePeriod = DefaultPeriod
			}
			return h.modified(ctx, RecentlyModified, a.window, a.EntityType, a.Kind, tn, "last DESC", "last", limit(a.Limit))
		})
}

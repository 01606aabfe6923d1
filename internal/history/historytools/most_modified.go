package historytools

import (
	"context"

	"github.com/ragforge/ragforge/tools"
)

// MostModified is get_most_modified_entities' name.
const MostModified = "get_most_modified_entities"

// MostModifiedOrders are what get_most_modified_entities ranks by: the
// number of changes, or churn (lines added plus removed).
var MostModifiedOrders = []string{"changes", "churn"}

type mostModifiedArgs struct {
	window
	EntityType string `json:"entity_type"`
	OrderBy    string `json:"order_by"`
	Limit      int    `json:"limit"`
}

func (h *historian) mostModified() tools.CustomTool {
	props := windowProps(map[string]any{"entity_type": h.entityTypeProp(), "limit": limitProp(),
		"order_by": map[string]any{"type": "string", "enum": MostModifiedOrders, "description": "default changes; churn is lines added + removed"}})
	return tool(h, MostModified,
		"The entities changed most in a window (all time without one): by number of changes or by churn, with lines added and removed.",
		map[string]any{"properties": props},
		func(ctx context.Context, tn string, a mostModifiedArgs) (any, error) {
			by := a.OrderBy
			switch by {
			case "":
				by = "changes"
			case "changes", "churn":
			default:
				return nil, tools.Fail(MostModified, "/order_by", MostModifiedOrders, "%s is not an order", by)
			}
			// by is one of two fixed column names, never the agent's text.
			order := map[string]string{"changes": "changes DESC, churn DESC", "churn": "churn DESC, changes DESC"}[by]
			return h.modified(ctx, MostModified, a.window, a.EntityType, "", tn, order, by, limit(a.Limit))
		})
}

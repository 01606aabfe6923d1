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
	target
	OrderBy string `json:"order_by"`
	Limit   int    `json:"limit"`
}

func (h *historian) mostModified() tools.CustomTool {
	in := tools.Object(append(append(h.targetProps(), windowProps()...), limitProp(),
		tools.Prop{Name: "order_by", Schema: &tools.Schema{Type: "string", Enum: MostModifiedOrders, Description: "default changes; churn is lines added + removed"}})...)
	return tool(h, MostModified,
		"The entities changed most in a window (all time without one; relative_to as in "+RecentlyModified+"), by number of changes or by churn: key, display fields, lines added and removed. "+
			"conditions, as in query_entities, narrow entity_type's entities (e.g. to some kinds or a path).",
		in,
		func(ctx context.Context, tn string, a mostModifiedArgs) (any, error) {
			by := a.OrderBy
			switch by {
			case "":
				by = "changes"
			case "changes", "churn":
			default:
				return nil, tools.Fail(MostModified, "/order_by", MostModifiedOrders, "%s is not an order", by)
			}
			q, err := h.newQuery(MostModified, a.target, a.window, "", tn)
			if err != nil {
				return nil, err
			}
			// by is one of two fixed column names, never the agent's text.
			order := map[string]string{"changes": "changes DESC, churn DESC", "churn": "churn DESC, changes DESC"}[by]
			return h.modified(ctx, q, order, by, limit(a.Limit))
		})
}

package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// narrowers are the suggestions a truncation note may make, each for the
// argument it needs, in the order the note lists them. An agent told to
// use an argument its tool lacks wastes a call on a schema error, so a
// note names only arguments the tool's input schema has.
var narrowers = []struct{ arg, text string }{
	{"offset", "page with offset"},
	{"order", "use order (desc for the largest first, asc for the smallest)"},
	{"conditions", "add conditions"},
	{"start_conditions", "add start_conditions"},
	{"target_entity_type", "set target_entity_type"},
	{"target_conditions", "add target_conditions"},
	{"pattern", "make pattern more specific"},
	{"upper_value", "narrow the range (between with value and upper_value)"},
	{"start_datetime", "narrow the period"},
	{"values", "pass fewer values"},
	{"radius_km", "lower radius_km"},
	{"min_score", "raise min_score"},
}

// TruncationNote is the note of a result that stopped at its limit while
// more results exist: what the agent can change in the call to see the
// rest or to narrow it. limit is the limit the call ran with; raising it is
// suggested only below the maximum the tool's schema states. It returns ""
// for a tool the catalog does not hold.
func (c *Catalog) TruncationNote(tool string, limit int) string {
	t := c.Tool(tool)
	if t == nil {
		return ""
	}
	if t.kind != nil && t.kind.TruncationNote != nil {
		return t.kind.TruncationNote(limit)
	}
	props := schemaProps(t)
	tips := raiseTips(props, limit)
	for _, n := range narrowers {
		if props[n.arg] != nil {
			tips = append(tips, n.text)
		}
	}
	return withTips("more results exist than were returned", tips)
}

// TieNote is the note of a ranked result whose first entity (or group)
// beyond the limit ties with the last one returned on every sort key: the
// tie-break (the unique id, the group's label), not the agent's ranking,
// chose which of the tied ones made the cut. noun is "entities" or
// "groups"; on says the keys and the tied values, e.g. "line_count =
// 120". The tips name only arguments the tool has: a larger limit (below
// its maximum), offset, or another order_by key.
func (c *Catalog) TieNote(tool, noun, on string, limit int) string {
	t := c.Tool(tool)
	if t == nil {
		return ""
	}
	props := schemaProps(t)
	tips := raiseTips(props, limit)
	if props["offset"] != nil {
		tips = append(tips, "page with offset")
	}
	if props["order_by"] != nil {
		tips = append(tips, "add a sort key to order_by")
	}
	return withTips(fmt.Sprintf("more %s beyond the cut tie with the last one on %s", noun, on), tips)
}

// schemaProps are the top-level properties of a tool's input schema, each
// with its schema.
func schemaProps(t *Tool) map[string]json.RawMessage {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(t.InputSchema, &s); err != nil {
		return nil
	}
	return s.Properties
}

// raiseTips suggests raising top_k or limit when the call's limit is below
// the maximum the property's schema states.
func raiseTips(props map[string]json.RawMessage, limit int) []string {
	for _, name := range []string{"top_k", "limit"} {
		var p struct {
			Maximum *float64 `json:"maximum"`
		}
		if props[name] == nil || json.Unmarshal(props[name], &p) != nil {
			continue
		}
		if p.Maximum != nil && float64(limit) < *p.Maximum {
			return []string{fmt.Sprintf("raise %s (at most %d)", name, int(*p.Maximum))}
		}
		return nil
	}
	return nil
}

// withTips joins a note and what to do about it.
func withTips(note string, tips []string) string {
	switch len(tips) {
	case 0:
		return note
	case 1:
		return note + "; " + tips[0]
	}
	return note + "; " + strings.Join(tips[:len(tips)-1], ", ") + " or " + tips[len(tips)-1]
}

// HistogramTruncationNote is the note of a bucket_width histogram that
// stopped at its most buckets (limit): only wider buckets show the rest.
func HistogramTruncationNote(limit int) string {
	return fmt.Sprintf("more buckets exist than the %d returned; use a larger bucket_width", limit)
}

// CapNote is the note of a traversal that stopped at Limits.MaxExpanded
// (explore_relationships, find_paths): what may be missing, and the
// arguments of the tool that make the traversal smaller, as the tool's
// [Kind] CapNote says; "" for a tool that does not traverse.
func (c *Catalog) CapNote(tool string) string {
	if t := c.Tool(tool); t != nil && t.kind != nil && t.kind.CapNote != nil {
		return t.kind.CapNote(c.limits.MaxExpanded)
	}
	return ""
}

// LongTextNote says how to read a text a result shortened whole: the
// [Kind] LongTextNote of the catalog's first tool that has one, "" when
// none has (the host can still lift the cut, see engine.Call.Verbose).
func (c *Catalog) LongTextNote() string {
	for _, t := range c.Tools {
		if t.kind != nil && t.kind.LongTextNote != "" {
			return t.kind.LongTextNote
		}
	}
	return ""
}

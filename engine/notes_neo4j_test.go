package engine_test

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/planner"
)

// TestTruncatedResultsSuggestOnlyTheCalledToolsArguments: a result cut at
// its limit says how to see more with the arguments of the tool that was
// called (offset only where the tool pages, order where it sorts), and a
// result with shortened text points at nothing the agent cannot pass:
// get_entity_by_id's field, not the host's verbose.
func TestTruncatedResultsSuggestOnlyTheCalledToolsArguments(t *testing.T) {
	f := loadNetHTTP(t, engine.Options{})
	for _, c := range []struct {
		tool, args    string
		want, notWant []string
	}{
		{planner.QueryEntities, `{"entity_type":"Scope","limit":2}`, []string{"page with offset", "add conditions"}, nil},
		{planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"gt","value":1,"limit":2}`, []string{"use order"}, []string{"offset", "conditions"}},
		{planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"Serve","limit":2}`, []string{"make pattern more specific"}, []string{"offset", "conditions"}},
		{planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"Serve.*","mode":"regex","limit":2}`, []string{"make pattern more specific"}, []string{"offset", "conditions"}},
	} {
		r := f.call(t, c.tool, c.args)
		// The note of shortened text names get_entity_by_id's arguments,
		// which the agent can pass to that tool, and no other tool's.
		var own []string
		for _, n := range r.Notes {
			if strings.HasPrefix(n, "long text shortened") {
				if !strings.HasSuffix(n, "; get_entity_by_id with field reads one whole, 20000 characters a call from offset") {
					t.Errorf("%s %s: note %q does not say how to read the text whole", c.tool, c.args, n)
				}
				continue
			}
			own = append(own, n)
		}
		notes := strings.Join(own, "\n")
		if !r.Truncated {
			t.Errorf("%s %s: not truncated", c.tool, c.args)
		}
		for _, w := range c.want {
			if !strings.Contains(notes, w) {
				t.Errorf("%s %s: notes %q lack %q", c.tool, c.args, notes, w)
			}
		}
		for _, w := range append(c.notWant, "verbose") {
			if strings.Contains(notes, w) {
				t.Errorf("%s %s: notes %q suggest %q, which the tool lacks", c.tool, c.args, notes, w)
			}
		}
	}
}

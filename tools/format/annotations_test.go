package format_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ragforge/ragforge/tools"
	"github.com/ragforge/ragforge/tools/format"
)

// TestMCPAnnotationsOfACustomToolClaimOnlyWhatItsBehaviorSays: a custom
// tool that writes is left to MCP's worst-case defaults (destructive, not
// idempotent, open world) except where its Behavior says otherwise, and a
// generated tool stays read-only and closed-world. A read-only tool says
// nothing of destruction or idempotence, which MCP defines only for tools
// that are not read-only.
func TestMCPAnnotationsOfACustomToolClaimOnlyWhatItsBehaviorSays(t *testing.T) {
	handler := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	cases := []struct {
		tool *tools.Tool
		want string
	}{
		{&tools.Tool{Name: "generated", ReadOnly: true},
			`{"readOnlyHint":true,"openWorldHint":false}`},
		{&tools.Tool{Name: "writes", Handler: handler},
			`{"readOnlyHint":false}`},
		{&tools.Tool{Name: "reads", ReadOnly: true, Handler: handler},
			`{"readOnlyHint":true}`},
		{&tools.Tool{Name: "adds", Handler: handler, Behavior: tools.Behavior{Additive: true, ClosedWorld: true}},
			`{"readOnlyHint":false,"destructiveHint":false,"openWorldHint":false}`},
		{&tools.Tool{Name: "overwrites", Handler: handler, Behavior: tools.Behavior{Idempotent: true}},
			`{"readOnlyHint":false,"idempotentHint":true}`},
	}
	for _, c := range cases {
		got, err := json.Marshal(format.ToMCP(c.tool).Annotations)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s: annotations %s, want %s", c.tool.Name, got, c.want)
		}
	}
}

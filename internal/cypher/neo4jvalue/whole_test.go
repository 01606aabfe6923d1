package neo4jvalue_test

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/model"
)

// A converter made for a call that asks for long text whole (the host's
// verbose call) cuts nothing; any other cuts at its length.
func TestAConverterForAWholeCallCutsNothing(t *testing.T) {
	long := strings.Repeat("x", 40)
	for _, c := range []struct {
		whole bool
		want  string
	}{{false, "xxxxxxxx…"}, {true, long}} {
		ctx := t.Context()
		if c.whole {
			ctx = neo4jvalue.WithWhole(ctx)
		}
		got, _ := neo4jvalue.New(ctx, &model.Model{}, 8).Value("s", long)
		if got != c.want {
			t.Errorf("whole %v: got %q, want %q", c.whole, got, c.want)
		}
	}
}

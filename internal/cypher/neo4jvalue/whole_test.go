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

// A list field the model declares comes back whole however many numbers
// it holds; the same list under an undeclared name is taken for an
// embedding and left out, with a note.
func TestADeclaredListOfNumbersIsNeverTakenForAnEmbedding(t *testing.T) {
	m := &model.Model{Entities: []*model.Entity{{Name: "Run", Relationships: []*model.Relationship{{Type: "TIMED",
		Properties: []*model.Field{{Name: "laps", Type: model.NumberList}}}}}}}
	long := make([]any, 40)
	for i := range long {
		long[i] = float64(i)
	}
	c := neo4jvalue.New(t.Context(), m, 0)
	got := c.Props(map[string]any{"laps": long, "vector": long})
	if l, _ := got["laps"].([]any); len(l) != len(long) {
		t.Errorf("laps = %v, want the 40 numbers", got["laps"])
	}
	if _, ok := got["vector"]; ok || len(c.Notes()) == 0 {
		t.Errorf("vector kept (%v) or not noted (%q)", got["vector"], c.Notes())
	}
}

package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/model"
)

// A handler tool declared with the kit gets the advice its arguments
// declare and the kit's advice for the shapes generated tools share, in
// the order results, reach, filters; one given as JSON gets none.
func TestNarrowingComesFromTheDeclarationsInResultsReachFilterOrder(t *testing.T) {
	in := Object(
		ConditionsProp("start_conditions", TestDef),
		Prop{"filters", &Schema{Type: "object", Narrow: Narrows(NarrowFilter, "narrower filters")}},
		Prop{"buckets", &Schema{Type: "integer", Least: Least(1)}},
		Prop{"depth", &Schema{Type: "integer", Least: Least(1)}},
		Prop{"offset", &Schema{Type: "integer", Least: Least(0)}},
		Prop{"name", &Schema{Type: "string"}},
		Prop{"limit", &Schema{Type: "integer", Narrow: LimitNarrows()}},
	)
	in.Defs = TestDefs()
	handler := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	c, err := Generate(&model.Model{}, nil, Options{CustomTools: []CustomTool{
		{Name: "declared", Description: "d", Input: in, Handler: handler},
		{Name: "raw", Description: "r", InputSchema: json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer"}}}`), Handler: handler},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range c.Tool("declared").Narrowing() {
		got = append(got, n.Arg+": "+n.Advice)
	}
	want := []string{"limit: a smaller limit", "buckets: fewer buckets", "depth: a smaller depth",
		"start_conditions: more selective start conditions", "filters: narrower filters"}
	if !slices.Equal(got, want) {
		t.Errorf("narrowing %q, want %q", got, want)
	}
	if n := c.Tool("raw").Narrowing(); n != nil {
		t.Errorf("a tool given as JSON declares no narrowing, got %v", n)
	}
}

// An open object says only what it has: no empty properties, and
// additionalProperties left out (Open) or the values' schema (Values);
// a tool gives its schema once, as Input or as InputSchema.
func TestOpenObjectsAndOneInputSchema(t *testing.T) {
	for _, c := range []struct {
		s    *Schema
		want string
	}{
		{&Schema{Type: "object", Description: "params", Open: true}, `{"type":"object","description":"params"}`},
		{&Schema{Type: "object", Open: true, Props: []Prop{{"x", &Schema{Type: "number"}}}, Required: []string{"x"}},
			`{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}`},
		{&Schema{Type: "object", Values: &Schema{Type: "integer", Minimum: Num(1)}}, `{"type":"object","additionalProperties":{"type":"integer","minimum":1}}`},
		{Object(), `{"type":"object","properties":{},"additionalProperties":false}`},
	} {
		if got := string(marshal(c.s)); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
	handler := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	_, err := Generate(&model.Model{}, nil, Options{CustomTools: []CustomTool{
		{Name: "both", Description: "d", Input: Object(), InputSchema: json.RawMessage(`{"type":"object"}`), Handler: handler}}})
	if err == nil || !strings.Contains(err.Error(), "both Input and InputSchema") {
		t.Errorf("a tool with both schemas: got %v", err)
	}
}

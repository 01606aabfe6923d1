package jsonout_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/jsonout"
)

type inner struct {
	Score float64 `json:"score"`
}

type size struct {
	Nodes float64 `json:"nodes"`
}

type result struct {
	size
	Name    string          `json:"name"`
	Skipped float64         `json:"-"`
	hidden  float64         // unexported: JSON skips it
	Items   []inner         `json:"items"`
	Extra   map[string]any  `json:"extra,omitempty"`
	Ptr     *inner          `json:"ptr"`
	Raw     json.RawMessage `json:"raw,omitempty"`
	Self    *result         `json:"self,omitempty"`
}

// wrapped has its own MarshalJSON, as engine.Result does.
type wrapped struct{ Custom any }

func (w wrapped) MarshalJSON() ([]byte, error) { return json.Marshal(w.Custom) }

// TestErrorNamesWhereTheValueIs: a NaN or infinite float anywhere in a
// value (a struct field under its JSON name, an embedded struct's field,
// a list item, a map entry, behind a pointer, an interface or a
// MarshalJSON) fails Marshal and Indent with an *Error naming its path
// and value; fields JSON skips are not blamed; a value that holds itself
// is walked once; a valid value encodes as encoding/json does.
func TestErrorNamesWhereTheValueIs(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	loop := &result{Name: "loop", Skipped: nan, hidden: nan}
	loop.Self = loop
	for _, c := range []struct {
		name string
		v    any
		path string
	}{
		{"top", nan, "the top"},
		{"field", result{Ptr: &inner{Score: inf}}, ".ptr.score"},
		{"embedded", result{size: size{Nodes: nan}}, ".nodes"},
		{"list item", []any{1, result{Items: []inner{{1}, {math.Inf(-1)}}}}, "[1].items[1].score"},
		{"map entry", map[string]any{"b": 1.0, "a": map[string]any{"x": []float64{0, nan}}}, ".a.x[1]"},
		{"behind MarshalJSON", wrapped{Custom: &result{Extra: map[string]any{"modularity": nan}}}, ".Custom.extra.modularity"},
		{"beside a loop", &result{Self: &result{Self: loop, Ptr: &inner{Score: nan}}}, ".self.ptr.score"},
	} {
		for fn, encode := range map[string]func(any) ([]byte, error){"Marshal": jsonout.Marshal, "Indent": jsonout.Indent} {
			_, err := encode(c.v)
			var e *jsonout.Error
			if !errors.As(err, &e) || e.Path != c.path {
				t.Errorf("%s %s: %v; want an *Error at %s", fn, c.name, err, c.path)
				continue
			}
			var uv *json.UnsupportedValueError
			if !errors.As(err, &uv) || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), "JSON has no number for") {
				t.Errorf("%s %s: %q does not say where, or does not wrap encoding/json's error", fn, c.name, err)
			}
		}
	}
	// The loop itself: encoding/json fails on the cycle, and no float is
	// blamed (its NaNs are in fields JSON skips).
	_, err := jsonout.Marshal(loop)
	var e *jsonout.Error
	if !errors.As(err, &e) || e.Path != "" || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("a cycle: %v; want an *Error with no path", err)
	}
	ok := result{Name: "<a&b>", Items: []inner{{0.5}}, Skipped: nan}
	b, err := jsonout.Indent(ok)
	if err != nil || !strings.Contains(string(b), `"name": "<a&b>"`) || !strings.HasSuffix(string(b), "}\n") {
		t.Errorf("Indent of a valid value: %s, %v", b, err)
	}
	if b, err := jsonout.Marshal(ok); err != nil || !strings.HasPrefix(string(b), `{"nodes":0,"name":"\u003ca\u0026b\u003e"`) {
		t.Errorf("Marshal of a valid value: %s, %v", b, err)
	}
}

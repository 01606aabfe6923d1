package write

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/model"
)

// TestWritesKeepTheTextForm: a write into a field stored_as: text stores
// the text that field's reads parse back to the value written, not a
// number or temporal every read would take for null.
func TestWritesKeepTheTextForm(t *testing.T) {
	for _, c := range []struct {
		f    model.Field
		json string
		want any
	}{
		{model.Field{Name: "freight", Type: model.Number, StoredAs: model.Text}, `1e-7`, 1e-7},
		{model.Field{Name: "freight", Type: model.Number, StoredAs: model.Text}, `-32.38`, -32.38},
		{model.Field{Name: "via", Type: model.Integer, StoredAs: model.Text}, `3`, int64(3)},
	} {
		v, err := storedValue(&c.f, json.RawMessage(c.json))
		if err != nil {
			t.Fatal(err)
		}
		s, _ := v.(string)
		got, ok := textvalue.ParseNumber(s, c.f.Type == model.Integer)
		if !ok || got != c.want {
			t.Errorf("%s: stored %#v, which reads as %v (ok %v), want %v", c.json, v, got, ok, c.want)
		}
	}
	at := time.Date(1996, 7, 16, 10, 30, 0, 123e6, time.UTC)
	for _, layout := range []string{"", "02/01/2006 15:04:05.000"} {
		f := &model.Field{Name: "shipped", Type: model.Datetime, StoredAs: model.Text, Layout: layout}
		v, err := storedValue(f, json.RawMessage(`"1996-07-16T12:30:00.123+02:00"`))
		if err != nil {
			t.Fatal(err)
		}
		parse, _, err := textvalue.DatetimeReader(layout)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := v.(string)
		if got, ok, err := parse(s); !ok || err != nil || !got.Equal(at) {
			t.Errorf("layout %q: stored %#v, which reads as %v (ok %v, %v), want %v", layout, v, got, ok, err, at)
		}
	}
}

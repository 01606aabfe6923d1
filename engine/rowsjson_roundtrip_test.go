package engine

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

// TestRowsJSONKeepsEveryDriverValue: each value rows.json has a form for
// comes back as the driver gave it (a float that is a whole number stays
// a float, an integer an integer), and a value without a form is an
// error naming its type.
func TestRowsJSONKeepsEveryDriverValue(t *testing.T) {
	at := time.Date(2026, 1, 15, 12, 30, 45, 120000000, time.FixedZone("", 3600))
	values := []any{
		nil, true, int64(-3), 2.0, 0.1, 1e21, math.Inf(1), math.Inf(-1), "a \"quoted\" <text>",
		[]any{int64(1), 1.5, "x"}, map[string]any{"k": []any{}, "n": nil},
		at, dbtype.Date(time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC)),
		dbtype.LocalDateTime(time.Date(2026, 1, 15, 12, 30, 45, 5, time.UTC)),
		dbtype.Point2D{SpatialRefId: 4326, X: 2.35, Y: 48.85}, dbtype.Point3D{SpatialRefId: 9157, X: 1, Y: 2, Z: 3},
	}
	rec := &neo4j.Record{}
	for i, v := range values {
		rec.Keys = append(rec.Keys, string(rune('a'+i)))
		rec.Values = append(rec.Values, v)
	}
	data, err := encodeRows([]*neo4j.Record{rec})
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRows(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !reflect.DeepEqual(got[0].Keys, rec.Keys) {
		t.Fatalf("decoded %+v\nfrom %s", got, data)
	}
	for i, v := range got[0].Values {
		want := values[i]
		if w, ok := want.(time.Time); ok {
			if g, ok := v.(time.Time); !ok || !g.Equal(w) {
				t.Errorf("%s: %#v, want %v", rec.Keys[i], v, w)
			}
			continue
		}
		if !reflect.DeepEqual(v, want) {
			t.Errorf("%s: %#v, want %#v", rec.Keys[i], v, want)
		}
	}
	nan, err := decodeRows(`[{"x": {"$float": "NaN"}}]`)
	if err != nil || !math.IsNaN(nan[0].Values[0].(float64)) {
		t.Errorf("NaN: %v, %v", nan, err)
	}
	if _, err := encodeRows([]*neo4j.Record{{Keys: []string{"d"}, Values: []any{dbtype.Duration{Days: 1}}}}); err == nil {
		t.Error("a Duration encoded; rows.json has no form for it")
	}
	if _, err := decodeRows(`[{"x": {"$duration": "P1D"}}]`); err == nil {
		t.Error(`{"$duration": …} decoded; rows.json has no such form`)
	}
}

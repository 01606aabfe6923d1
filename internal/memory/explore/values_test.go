package explore

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/ragforge/ragforge/model"
)

func TestTimeOfReadsEveryDatetimeStorage(t *testing.T) {
	want := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		v       any
		storage model.DatetimeStorage
	}{
		{want, model.Temporal},
		{dbtype.LocalDateTime(want), model.Temporal},
		{"2026-11-01T12:00:00Z", model.ISOString},
		{"2026-11-01T13:00:00+01:00", model.ISOString},
		{want.Unix(), model.EpochSeconds},
		{want.UnixMilli(), model.EpochMillis},
		{float64(want.UnixMilli()), model.EpochMillis},
		// Undeclared storage: the number's size says which.
		{want.Unix(), ""},
		{want.UnixMilli(), ""},
	} {
		got, ok := timeOf(c.v, c.storage)
		if !ok || !got.Equal(want) {
			t.Errorf("timeOf(%v, %q) = %v, %v; want %v", c.v, c.storage, got, ok, want)
		}
	}
	if d, ok := timeOf(dbtype.Date(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)), model.Temporal); !ok || d.Day() != 1 {
		t.Errorf("a date reads as %v, %v", d, ok)
	}
	for _, v := range []any{nil, "yesterday", true, math.NaN()} {
		if _, ok := timeOf(v, model.ISOString); ok {
			t.Errorf("timeOf(%v) reads a datetime", v)
		}
	}
}

func TestRecencyWeightHalvesEveryHalfLife(t *testing.T) {
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	f := &model.Field{Name: "updated_at", Type: model.Datetime, StoredAs: model.EpochMillis}
	for _, c := range []struct {
		v    any
		want float64
	}{
		{now.UnixMilli(), 1},
		{now.AddDate(0, 0, -30).UnixMilli(), 0.5},
		{now.AddDate(0, 0, -60).UnixMilli(), 0.25},
		{now.AddDate(0, 0, 5).UnixMilli(), 1}, // the future is now
		{nil, 0.5},                            // no date: one half-life
	} {
		if got := recencyWeight(c.v, f, now, 30); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("recencyWeight(%v) = %v; want %v", c.v, got, c.want)
		}
	}
	if got := recencyWeight(nil, nil, now, 30); got != 1 {
		t.Errorf("an entity without the recency field weighs %v; want 1", got)
	}
}

func TestLuceneFuzzyEscapesAndScalesEditsWithWordLength(t *testing.T) {
	for in, want := range map[string]string{
		"Al":                 "al",
		"Acme":               "acme~1",
		"Marie-Curie":        "marie~1 curie~1",
		"Lisbonne OR x":      "lisbonne~2 or x",
		`a*b:c) (d~ "e" AND`: "a b c d e and~1",
		"café NOT résumé!!!": "café~1 not~1 résumé~2",
	} {
		if got := luceneFuzzy(in); got != want {
			t.Errorf("luceneFuzzy(%q) = %q; want %q", in, got, want)
		}
	}
	if got := luceneFuzzy("AND"); strings.Contains(got, "AND") {
		t.Errorf("luceneFuzzy(AND) = %q keeps an operator", got)
	}
}

func TestMatchTermsAreTheWholeTextAndItsLongerWords(t *testing.T) {
	got := strings.Join(matchTerms([]string{"Mari Curie", "Bo", "mari"}), "|")
	if want := "mari curie|mari|curie|bo"; got != want {
		t.Errorf("matchTerms = %q; want %q", got, want)
	}
}

func TestJSONValueShowsDatetimesAsISOWhateverTheStorage(t *testing.T) {
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		v    any
		f    *model.Field
		want any
	}{
		{at.UnixMilli(), &model.Field{Type: model.Datetime, StoredAs: model.EpochMillis}, "2026-11-01T12:00:00Z"},
		{at.Unix(), &model.Field{Type: model.Timestamp, StoredAs: model.EpochSeconds}, "2026-11-01T12:00:00Z"},
		{"2026-11-01T13:00:00+01:00", &model.Field{Type: model.Datetime, StoredAs: model.ISOString}, "2026-11-01T12:00:00Z"},
		{int64(7), &model.Field{Type: model.Integer}, int64(7)},
		{math.Inf(1), nil, "Infinity"},
	} {
		if got := jsonValue(c.v, c.f); got != c.want {
			t.Errorf("jsonValue(%v) = %v; want %v", c.v, got, c.want)
		}
	}
	p := jsonValue(dbtype.Point2D{X: 2.35, Y: 48.85, SpatialRefId: 4326}, nil).(map[string]any)
	if p["latitude"] != 48.85 || p["longitude"] != 2.35 {
		t.Errorf("a WGS-84 point shows as %v", p)
	}
}

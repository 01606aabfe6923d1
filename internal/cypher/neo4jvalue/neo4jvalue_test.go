package neo4jvalue

import (
	"fmt"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

func TestTemporalWritesDatesAsISOAndPointsAsMaps(t *testing.T) {
	ts := time.Date(2024, 3, 1, 12, 30, 0, 500, time.UTC)
	for _, c := range []struct {
		in   any
		want string
	}{
		{ts, "2024-03-01T12:30:00.0000005Z"},
		{dbtype.Date(ts), "2024-03-01"},
		{dbtype.LocalDateTime(ts), "2024-03-01T12:30:00.0000005"},
		{dbtype.Duration{Months: 1, Days: 2, Seconds: 3}, "P1M2DT3S"},
		{dbtype.Point2D{X: 2, Y: 48, SpatialRefId: 4326}, "map[latitude:48 longitude:2]"},
		{dbtype.Point2D{X: 1, Y: 2, SpatialRefId: 7203}, "map[srid:7203 x:1 y:2]"},
		{dbtype.Point3D{X: 2, Y: 48, Z: 30, SpatialRefId: 4979}, "map[height:30 latitude:48 longitude:2]"},
	} {
		got, ok := Temporal(c.in)
		if !ok || fmt.Sprint(got) != c.want {
			t.Errorf("Temporal(%#v) = %v, %v, want %s", c.in, got, ok, c.want)
		}
	}
	if _, ok := Temporal("2024-03-01"); ok {
		t.Error("a string was taken for a temporal value")
	}
}

package planner

import (
	"testing"
	"time"
	_ "time/tzdata" // named zones whatever the machine has installed
)

// TestZoneNameIsWhatNeo4jReads: datetime buckets name the planner's zone
// to Neo4j as a fixed offset when it never changes (time.FixedZone's
// name means nothing to Neo4j), else by its IANA name.
func TestZoneNameIsWhatNeo4jReads(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		loc  *time.Location
		want string
	}{
		{time.UTC, "+00:00"},
		{time.FixedZone("IST", 5*3600+1800), "+05:30"},
		{time.FixedZone("", -3*3600-1800), "-03:30"},
		{tokyo, "+09:00"},
		{paris, "Europe/Paris"},
	} {
		if got := zoneName(c.loc); got != c.want {
			t.Errorf("zoneName(%v) = %q, want %q", c.loc, got, c.want)
		}
	}
	if got := zoneLabel(tokyo); got != "Asia/Tokyo (+09:00)" {
		t.Errorf("zoneLabel(Asia/Tokyo) = %q", got)
	}
}

package computed

import (
	"testing"

	"github.com/ragforge/ragforge/model"
)

// testEntity is an entity with one stored field of every kind an expression
// reads, plus the given computed fields (name, type, expression).
func testEntity(computed ...[3]string) *model.Entity {
	e := &model.Entity{Name: "T"}
	for _, f := range []struct {
		name string
		t    model.Type
		s    model.DatetimeStorage
	}{
		{"i1", model.Integer, ""}, {"i2", model.Integer, ""},
		{"x1", model.Number, ""}, {"x2", model.Number, ""},
		{"s1", model.String, ""}, {"s2", model.String, ""},
		{"b1", model.Boolean, ""}, {"b2", model.Boolean, ""},
		{"kind", model.Enum, ""},
		{"d1", model.Datetime, model.Temporal}, {"d2", model.Datetime, model.ISOString},
		{"d3", model.Timestamp, model.EpochMillis}, {"d4", model.Datetime, model.EpochSeconds},
		{"loc", model.Point, ""},
		{"t1", model.Number, model.Text}, {"t2", model.Integer, model.Text}, {"t3", model.Datetime, model.Text},
	} {
		e.Fields = append(e.Fields, &model.Field{Name: f.name, Type: f.t, StoredAs: f.s})
	}
	e.Fields = append(e.Fields, &model.Field{Name: "t4", Type: model.Datetime, StoredAs: model.Text, Layout: testLayout})
	for _, c := range computed {
		cf := &model.ComputedField{Field: model.Field{Name: c[0], Type: model.Type(c[1])}, Materialized: model.Never}
		if len(c[2]) > 7 && c[2][:7] == "cypher:" {
			cf.Cypher = c[2][7:]
		} else {
			cf.Expression = c[2]
		}
		e.Computed = append(e.Computed, cf)
	}
	return e
}

func mustCompile(t testing.TB, computed ...[3]string) *Entity {
	t.Helper()
	ce, err := Compile(testEntity(computed...))
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return ce
}

// testLayout is t4's layout, which the differential test also writes.
const testLayout = "02/01/2006 15:04:05.000"

// testNow is now() for tests that run fragments on Neo4j: the parameter
// $now moved to zone Z, as DefaultNow is. The driver sends a UTC time.Time
// in the named zone UTC, and Neo4j neither equals nor orders as equal two
// DATETIMEs of one instant in different zones, UTC and Z included, so a
// datetime equal to now would compare as before or after it.
const testNow = "datetime({datetime: $now, timezone: 'Z'})"

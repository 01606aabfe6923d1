// Package neo4jvalue converts Neo4j's temporal and spatial values to the
// JSON-friendly forms every tool result uses, so the generated tools and
// the traverse tool print a date or a point the same way.
package neo4jvalue

import (
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

// Temporal converts a temporal or spatial value: temporal values become
// ISO-8601 strings, durations Neo4j's duration string, points
// {latitude, longitude[, height]} in WGS-84 and {x, y[, z], srid}
// otherwise. ok is false for any other value.
func Temporal(v any) (out any, ok bool) {
	switch x := v.(type) {
	case time.Time:
		return x.Format(time.RFC3339Nano), true
	case dbtype.Date:
		return x.Time().Format(time.DateOnly), true
	case dbtype.LocalDateTime:
		return x.Time().Format("2006-01-02T15:04:05.999999999"), true
	case dbtype.LocalTime:
		return x.Time().Format("15:04:05.999999999"), true
	case dbtype.Time:
		return x.Time().Format("15:04:05.999999999Z07:00"), true
	case dbtype.Duration:
		return x.String(), true
	case dbtype.Point2D:
		if x.SpatialRefId == 4326 {
			return map[string]any{"latitude": x.Y, "longitude": x.X}, true
		}
		return map[string]any{"x": x.X, "y": x.Y, "srid": int64(x.SpatialRefId)}, true
	case dbtype.Point3D:
		if x.SpatialRefId == 4979 {
			return map[string]any{"latitude": x.Y, "longitude": x.X, "height": x.Z}, true
		}
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z, "srid": int64(x.SpatialRefId)}, true
	}
	return nil, false
}

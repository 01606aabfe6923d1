package explore

import (
	"math"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// epochMillisFrom is the magnitude from which an epoch number whose
// storage is not declared is read as milliseconds (year 5138 in seconds,
// 1973 in milliseconds).
const epochMillisFrom = 1e11

// timeOf reads a stored datetime whichever way it is stored: a Neo4j
// temporal value, an ISO-8601 string, or epoch seconds or milliseconds
// (storage says which; an undeclared number is taken by its magnitude).
// ok is false for null and for what is not a datetime.
func timeOf(v any, storage model.DatetimeStorage) (t time.Time, ok bool) {
	switch x := v.(type) {
	case time.Time:
		return x, true
	case dbtype.Date:
		return x.Time(), true
	case dbtype.LocalDateTime:
		return x.Time(), true
	case string:
		t, err := tools.ParseDatetime(x)
		return t, err == nil
	case int64:
		return epoch(float64(x), storage), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return time.Time{}, false
		}
		return epoch(x, storage), true
	}
	return time.Time{}, false
}

// epoch reads an epoch number as its storage says.
func epoch(x float64, storage model.DatetimeStorage) time.Time {
	switch {
	case storage == model.EpochMillis, storage != model.EpochSeconds && math.Abs(x) >= epochMillisFrom:
		return time.UnixMilli(int64(x)).UTC()
	}
	return time.Unix(int64(x), 0).UTC()
}

// jsonValue converts a property of field f (nil when undeclared) to what
// the result shows: datetimes, however stored, as ISO-8601 strings (a
// UTC instant; a date as a date); every other value as every tool result
// shows it (package neo4jvalue).
func jsonValue(v any, f *model.Field) any {
	if f != nil && f.Type.Kind() == model.Datetime {
		if t, ok := timeOf(v, f.StoredAs); ok {
			if _, date := v.(dbtype.Date); date {
				return t.Format(time.DateOnly)
			}
			return t.UTC().Format(time.RFC3339Nano)
		}
	}
	return neo4jvalue.Value(v)
}

// number reads a numeric property (relevance); ok is false otherwise.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	}
	return 0, false
}

// storage is how a declared datetime field is stored ("" when f is nil:
// the value's own type says).
func storage(f *model.Field) model.DatetimeStorage {
	if f == nil {
		return ""
	}
	return f.StoredAs
}

// stringsOf keeps the strings of a list the driver returned.
func stringsOf(vs []any) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

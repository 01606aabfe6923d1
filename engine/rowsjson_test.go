package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

// The rows.json section of a golden case holds the rows Neo4j returned
// for the case's statement, in the values the driver gives, so the answer
// can be shaped again without a server. It is a JSON array of rows, each
// an object of the row's columns. JSON has one number and no dates, so
// the driver's values are written as:
//
//   - int64: an integer (42); float64: a number with a point or an
//     exponent (42.0, 1e+21), or {"$float": "NaN"} ("Infinity",
//     "-Infinity");
//   - string, bool, null, lists ([]any) and maps (map[string]any) as
//     themselves;
//   - a DATETIME (time.Time) {"$datetime": RFC 3339 with nanoseconds},
//     DATE {"$date": "2006-01-02"}, LOCAL DATETIME {"$localdatetime":
//     "2006-01-02T15:04:05.999999999"}, a point {"$point": {"srid", "x",
//     "y"}} (and "z" in 3D).
//
// Another value is an error naming its type: add its form here when a
// case needs it.

// encodeRows writes records as rows.json.
func encodeRows(recs []*neo4j.Record) (string, error) {
	rows := make([]map[string]any, len(recs))
	for i, r := range recs {
		rows[i] = map[string]any{}
		for j, k := range r.Keys {
			v, err := rowValue(r.Values[j])
			if err != nil {
				return "", fmt.Errorf("row %d, column %s: %w", i, k, err)
			}
			rows[i][k] = v
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rows); err != nil {
		return "", err
	}
	return b.String(), nil
}

// rowValue is v in rows.json's form (encoding/json writes the rest).
func rowValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, int64, string:
		return x, nil
	case float64:
		switch {
		case math.IsNaN(x):
			return map[string]any{"$float": "NaN"}, nil
		case math.IsInf(x, 1):
			return map[string]any{"$float": "Infinity"}, nil
		case math.IsInf(x, -1):
			return map[string]any{"$float": "-Infinity"}, nil
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return json.RawMessage(s), nil
	case []any:
		out := make([]any, len(x))
		for i, y := range x {
			var err error
			if out[i], err = rowValue(y); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, y := range x {
			var err error
			if out[k], err = rowValue(y); err != nil {
				return nil, err
			}
		}
		return out, nil
	case time.Time:
		return map[string]any{"$datetime": x.Format(time.RFC3339Nano)}, nil
	case dbtype.Date:
		return map[string]any{"$date": x.Time().Format(time.DateOnly)}, nil
	case dbtype.LocalDateTime:
		return map[string]any{"$localdatetime": x.Time().Format(localDateTime)}, nil
	case dbtype.Point2D:
		return map[string]any{"$point": map[string]any{"srid": int64(x.SpatialRefId), "x": x.X, "y": x.Y}}, nil
	case dbtype.Point3D:
		return map[string]any{"$point": map[string]any{"srid": int64(x.SpatialRefId), "x": x.X, "y": x.Y, "z": x.Z}}, nil
	}
	return nil, fmt.Errorf("a %T has no form in rows.json (engine/rowsjson_test.go)", v)
}

const localDateTime = "2006-01-02T15:04:05.999999999"

// decodeRows reads rows.json back into records, columns in name order.
func decodeRows(data string) ([]*neo4j.Record, error) {
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	var rows []map[string]any
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("rows.json: %w", err)
	}
	recs := make([]*neo4j.Record, len(rows))
	for i, row := range rows {
		rec := &neo4j.Record{Keys: slices.Sorted(maps.Keys(row))}
		for _, k := range rec.Keys {
			v, err := driverValue(row[k])
			if err != nil {
				return nil, fmt.Errorf("rows.json: row %d, column %s: %w", i, k, err)
			}
			rec.Values = append(rec.Values, v)
		}
		recs[i] = rec
	}
	return recs, nil
}

// driverValue is the driver's value of v, read from rows.json.
func driverValue(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			return x.Int64()
		}
		return x.Float64()
	case []any:
		out := make([]any, len(x))
		for i, y := range x {
			var err error
			if out[i], err = driverValue(y); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		if len(x) == 1 {
			for tag, val := range x {
				if strings.HasPrefix(tag, "$") {
					return tagged(tag, val)
				}
			}
		}
		out := make(map[string]any, len(x))
		for k, y := range x {
			var err error
			if out[k], err = driverValue(y); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

// tagged reads one of rows.json's {"$tag": value} forms.
func tagged(tag string, v any) (any, error) {
	s, _ := v.(string)
	switch tag {
	case "$float":
		switch s {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
	case "$datetime":
		return time.Parse(time.RFC3339Nano, s)
	case "$date":
		t, err := time.Parse(time.DateOnly, s)
		return dbtype.Date(t), err
	case "$localdatetime":
		t, err := time.Parse(localDateTime, s)
		return dbtype.LocalDateTime(t), err
	case "$point":
		p, _ := v.(map[string]any)
		c := map[string]float64{}
		for k, n := range p {
			num, ok := n.(json.Number)
			if !ok {
				return nil, fmt.Errorf("$point: %s is %v, not a number", k, n)
			}
			c[k], _ = num.Float64()
		}
		if _, ok := p["z"]; ok {
			return dbtype.Point3D{SpatialRefId: uint32(c["srid"]), X: c["x"], Y: c["y"], Z: c["z"]}, nil
		}
		return dbtype.Point2D{SpatialRefId: uint32(c["srid"]), X: c["x"], Y: c["y"]}, nil
	}
	return nil, fmt.Errorf("%s %v is not a form of rows.json (engine/rowsjson_test.go)", tag, v)
}

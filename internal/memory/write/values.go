package write

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// storedValue converts an agent's JSON value for field f into the value the
// property stores: integers as int64, datetimes as f.StoredAs says, points
// as WGS-84 points. The catalog's JSON Schema has checked the JSON type;
// this checks what a schema cannot say well (whole numbers, bounds, enum
// values, datetime syntax) and explains the problem.
func storedValue(f *model.Field, raw json.RawMessage) (any, error) {
	if string(raw) == "null" {
		return nil, nil
	}
	switch f.Type.Kind() {
	case model.String:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%s takes a string", f.Name)
		}
		return s, nil
	case model.Enum:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || !slices.Contains(f.Values, s) {
			return nil, fmt.Errorf("%s takes one of %s", f.Name, strings.Join(f.Values, ", "))
		}
		return s, nil
	case model.Boolean:
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, fmt.Errorf("%s takes true or false", f.Name)
		}
		return b, nil
	case model.Number:
		var x float64
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, fmt.Errorf("%s takes a number", f.Name)
		}
		if err := inBounds(f, x); err != nil {
			return nil, err
		}
		if f.Type == model.Integer {
			if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
				return nil, fmt.Errorf("%s takes a whole number, not %v", f.Name, x)
			}
			if f.StoredAs == model.Text {
				return strconv.FormatInt(int64(x), 10), nil
			}
			return int64(x), nil
		}
		if f.StoredAs == model.Text {
			// A decimal without exponent, the form stored_as: text reads.
			return strconv.FormatFloat(x, 'f', -1, 64), nil
		}
		return x, nil
	case model.Datetime:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%s takes a datetime string (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)", f.Name)
		}
		t, err := tools.ParseDatetime(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.Name, err)
		}
		return storedTime(f, t), nil
	case model.Point:
		var p struct {
			Latitude  *float64 `json:"latitude"`
			Longitude *float64 `json:"longitude"`
		}
		if err := json.Unmarshal(raw, &p); err != nil || p.Latitude == nil || p.Longitude == nil ||
			math.Abs(*p.Latitude) > 90 || math.Abs(*p.Longitude) > 180 {
			return nil, fmt.Errorf("%s takes {\"latitude\": -90..90, \"longitude\": -180..180}", f.Name)
		}
		return neo4j.Point2D{X: *p.Longitude, Y: *p.Latitude, SpatialRefId: 4326}, nil
	}
	return nil, fmt.Errorf("%s has type %s, which write tools do not accept", f.Name, f.Type)
}

// inBounds checks a number against the field's min and max.
func inBounds(f *model.Field, x float64) error {
	if f.Min != nil && x < *f.Min || f.Max != nil && x > *f.Max {
		lo, hi := "-inf", "+inf"
		if f.Min != nil {
			lo = fmt.Sprint(*f.Min)
		}
		if f.Max != nil {
			hi = fmt.Sprint(*f.Max)
		}
		return fmt.Errorf("%s is %v, outside [%s, %s]", f.Name, x, lo, hi)
	}
	return nil
}

// storedTime renders t as a datetime field stores it; f nil means a
// temporal value (a provenance time with no declared field).
func storedTime(f *model.Field, t time.Time) any {
	t = t.UTC()
	if f == nil {
		return t
	}
	switch f.StoredAs {
	case model.ISOString:
		return t.Format(time.RFC3339Nano)
	case model.EpochSeconds:
		return t.Unix()
	case model.EpochMillis:
		return t.UnixMilli()
	case model.Text:
		if f.Layout != "" {
			return t.Format(f.Layout)
		}
		return t.Format(time.RFC3339Nano)
	}
	return t
}

// fieldSchema is the schema of one writable field, with its description
// when describe is set (the graph schema does not describe it). A datetime
// says the forms it takes either way.
func fieldSchema(f *model.Field, describe bool) *tools.Schema {
	s := &tools.Schema{}
	switch f.Type.Kind() {
	case model.String:
		s.Type = "string"
	case model.Enum:
		s.Type, s.Enum = "string", f.Values
	case model.Boolean:
		s.Type = "boolean"
	case model.Number:
		s.Type = "number"
		if f.Type == model.Integer {
			s.Type = "integer"
		}
		s.Minimum, s.Maximum = f.Min, f.Max
	case model.Datetime:
		s.Type = "string"
		s.Description = "YYYY-MM-DD[THH:MM:SS][Z|+HH:MM], UTC by default"
	case model.Point:
		// Open, as it always was: a point's other keys are ignored.
		s.Type, s.Open = "object", true
		s.Props = []tools.Prop{{Name: "latitude", Schema: &tools.Schema{Type: "number"}}, {Name: "longitude", Schema: &tools.Schema{Type: "number"}}}
		s.Required = []string{"latitude", "longitude"}
	}
	if describe && f.Description != "" {
		if s.Description != "" {
			s.Description = f.Description + " (" + s.Description + ")"
		} else {
			s.Description = f.Description
		}
	}
	return s
}

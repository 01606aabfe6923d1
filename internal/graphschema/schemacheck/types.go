package schemacheck

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ragforge/ragforge/internal/graphschema/introspect"
	"github.com/ragforge/ragforge/internal/textvalue"
	"github.com/ragforge/ragforge/model"
)

// temporalTypes are the Neo4j types a temporal datetime field reads.
var temporalTypes = []string{"DateTime", "LocalDateTime", "Date"}

// fits reports whether values stored with the Neo4j type t (as
// db.schema.nodeTypeProperties names it) mean what the field's declared
// type says. Arrays fit only the list types (listFits).
func fits(f *model.Field, t string) bool {
	if f.StoredAs == model.Text {
		return t == "String"
	}
	switch f.Type.Kind() {
	case model.List:
		return listFits(f, t)
	case model.String, model.Enum:
		return t == "String"
	case model.Number:
		return t == "Long" || (f.Type == model.Number && t == "Double")
	case model.Boolean:
		return t == "Boolean"
	case model.Point:
		return t == "Point"
	case model.Datetime:
		switch f.StoredAs {
		case model.ISOString:
			return t == "String"
		case model.EpochSeconds, model.EpochMillis:
			return t == "Long"
		}
		for _, tt := range temporalTypes {
			if t == tt {
				return true
			}
		}
	}
	return false
}

// declared names the field's type as the config says it, with stored_as.
func declared(f *model.Field) string {
	if (f.Type.Kind() == model.Datetime && f.StoredAs != model.Temporal) || f.StoredAs == model.Text {
		return fmt.Sprintf("%s (stored_as: %s)", f.Type, f.StoredAs)
	}
	return string(f.Type)
}

// advice says how to declare a field whose values have the Neo4j type t.
func advice(f *model.Field, t string) string {
	if a, ok := listAdvice(f, t); ok {
		return a
	}
	if f.Type.Kind() == model.Datetime {
		switch t {
		case "String":
			return "declare stored_as: iso_string (RFC 3339) or text (such as 1996-07-04 00:00:00.000)"
		case "Long":
			return "declare stored_as: epoch_seconds or epoch_millis"
		case "DateTime", "LocalDateTime", "Date":
			return "remove stored_as (the values are Neo4j temporals)"
		}
	}
	if f.Type.Kind() == model.Number && t == "String" {
		return "declare stored_as: text if the strings are numbers written as text, else type: string"
	}
	switch t {
	case "String":
		return "declare type: string (or enum)"
	case "Long":
		return "declare type: integer"
	case "Double":
		return "declare type: number"
	case "Boolean":
		return "declare type: boolean"
	case "Point":
		return "declare type: point"
	case "DateTime", "LocalDateTime", "Date":
		return "declare type: datetime"
	}
	return "declare the type the values have, or convert the values"
}

// epochMillisAbove separates epoch milliseconds from seconds: as seconds it
// is the year 5138, as milliseconds 1973-03-03.
const epochMillisAbove = 1e11

// datetimeValues samples an ISO-string or epoch field's values and reports
// values its storage cannot read: strings that are not RFC 3339 read as
// null, and seconds read as milliseconds (or the reverse) put every date in
// 1970 or millennia away.
func (c *checker) datetimeValues(path string, f *model.Field, label string) {
	if f.StoredAs == model.Temporal {
		return
	}
	values, err := introspect.Sample(c.ctx, c.d, c.db, label, f.Name, sampleSize, sampleSize)
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return
	}
	var bad []string
	var seconds, millis int
	for _, v := range values {
		switch x := v.Value.(type) {
		case string:
			if f.StoredAs != model.ISOString {
				continue
			}
			if _, err := time.Parse(time.RFC3339Nano, x); err != nil {
				bad = append(bad, fmt.Sprintf("%q", x))
			}
		case int64:
			if x > epochMillisAbove || x < -epochMillisAbove {
				millis++
			} else {
				seconds++
			}
		}
	}
	switch {
	case len(bad) == len(values) && len(bad) > 0:
		c.add(Error, f.Pos, path+".stored_as", "no sampled %s.%s value is an RFC 3339 date-time (such as 2024-05-01T10:00:00Z), so every value reads as null: %s",
			label, f.Name, strings.Join(bad[:min(3, len(bad))], ", "))
	case len(bad) > 0:
		c.add(Warning, f.Pos, path+".stored_as", "%d of %d sampled %s.%s values are not RFC 3339 date-times and read as null: %s",
			len(bad), len(values), label, f.Name, strings.Join(bad[:min(3, len(bad))], ", "))
	case f.StoredAs == model.EpochSeconds && millis > 0 && seconds == 0:
		c.add(Error, f.Pos, path+".stored_as", "the sampled %s.%s values are too large for epoch seconds (they read as dates thousands of years away): declare stored_as: epoch_millis", label, f.Name)
	case f.StoredAs == model.EpochMillis && seconds > 0 && millis == 0:
		c.add(Error, f.Pos, path+".stored_as", "the sampled %s.%s values are too small for epoch milliseconds (they read as dates in early 1970): declare stored_as: epoch_seconds", label, f.Name)
	}
}

// enumValues samples an enum field's stored values and reports those the
// config does not list: enum_filter_search offers only the listed values,
// so nodes holding others cannot be reached, and when no sampled value is
// listed every filter matches nothing.
func (c *checker) enumValues(path string, f *model.Field, label string) {
	values, err := introspect.Sample(c.ctx, c.d, c.db, label, f.Name, sampleSize, sampleSize)
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return
	}
	var unlisted []string
	for _, v := range values {
		if s, ok := v.Value.(string); ok && !slices.Contains(f.Values, s) {
			unlisted = append(unlisted, fmt.Sprintf("%q", s))
		}
	}
	if len(unlisted) == 0 {
		return
	}
	sev, what := Warning, "some sampled"
	if len(unlisted) == len(values) {
		sev, what = Error, "no sampled"
	}
	if sev == Error {
		c.add(sev, f.Pos, path+".values", "%s %s.%s value is one of the declared values, so filters on it match nothing; the graph holds %s",
			what, label, f.Name, strings.Join(unlisted[:min(5, len(unlisted))], ", "))
		return
	}
	c.add(sev, f.Pos, path+".values", "%s %s.%s values are not declared, so no filter reaches their nodes: %s",
		what, label, f.Name, strings.Join(unlisted[:min(5, len(unlisted))], ", "))
}

// textValues samples the texts of a field stored_as: text (of a node
// label, or of a relationship type when rel) and reports those that read
// as null without being declared null_values: when no sampled text reads
// as a value the field is null everywhere, an error; when some do not, a
// warning that names them, so a stray text is not mistaken for a marker.
func (c *checker) textValues(path string, f *model.Field, owner string, rel bool) {
	sample := introspect.Sample
	if rel {
		sample = introspect.SampleRelationship
	}
	values, err := sample(c.ctx, c.d, c.db, owner, f.Name, sampleSize, sampleSize)
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return
	}
	var bad []string
	parsed := 0
	for _, v := range values {
		s, _ := v.Value.(string)
		switch {
		case parses(f, s):
			parsed++
		case !slices.Contains(f.NullValues, s):
			bad = append(bad, fmt.Sprintf("%q", s))
		}
	}
	form := map[model.Type]string{model.Number: "a number", model.Integer: "an integer"}[f.Type]
	if f.Type.Kind() == model.Datetime {
		form = "a datetime (such as 1996-07-04 or 1996-07-04 00:00:00.000)"
		if f.Layout != "" {
			form = "a datetime in the layout " + f.Layout
		}
	}
	switch {
	case parsed == 0 && len(values) > 0:
		held := "only null markers"
		if len(bad) > 0 {
			held = strings.Join(bad[:min(3, len(bad))], ", ")
		}
		c.add(Error, f.Pos, path+".stored_as", "no sampled %s.%s text reads as %s, so every value reads as null; the graph holds %s",
			owner, f.Name, form, held)
	case len(bad) > 0:
		c.add(Warning, f.Pos, path+".null_values", "%d of %d sampled %s.%s texts are not %s and read as null: %s (list them in null_values if they mean no value)",
			len(bad), len(values), owner, f.Name, form, strings.Join(bad[:min(3, len(bad))], ", "))
	}
}

// parses reports whether text s reads as a value of field f stored_as:
// text, in its layout when it has one.
func parses(f *model.Field, s string) bool {
	if f.Type.Kind() != model.Datetime || f.Layout == "" {
		return textvalue.Parses(string(f.Type), s)
	}
	parse, _, err := textvalue.DatetimeReader(f.Layout)
	if err != nil {
		return false
	}
	_, ok, err := parse(s)
	return ok && err == nil
}

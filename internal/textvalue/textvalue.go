// Package textvalue gives numbers and datetimes stored as text (a field
// declared with stored_as: text, and the casts of the expression language)
// one meaning, read the same way in Go and in Cypher: a text that matches
// the form's pattern is parsed, any other text (a null marker such as
// "NULL" or "", or a stray word) reads as null, never as an error.
//
// The patterns are the meaning. Cypher's toFloat and toInteger accept
// more than strconv does (toFloat(' 12') is 12.0, toInteger('12.7') is
// 12), so both sides first test the same pattern and only then convert;
// within the patterns the conversions agree (a decimal is correctly
// rounded by Java's parser and Go's). The patterns hold no backslash or
// quote, so they are written into Cypher as plain single-quoted literals,
// and no quantified item overlaps the next, so they are linear in both
// regex engines.
package textvalue

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The forms of text a field can hold. Number is a decimal with an optional
// sign and fraction and no exponent (12, -0.5, .5, 12.); Integer is at most
// 18 digits with an optional sign, so it never overflows int64; Datetime is
// a date (1996-07-04), optionally a time after T or a space, to the minute,
// second or fraction (1996-07-04 00:00:00.000), optionally a zone (Z or an
// offset Java's ZoneOffset allows); without a zone it is read as UTC.
const (
	Number   = `[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)`
	Integer  = `[+-]?[0-9]{1,18}`
	Datetime = `[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]{1,9})?)?(Z|[+-]((0[0-9]|1[0-7]):[0-5][0-9]|18:00))?)?`
)

var (
	numberRe   = regexp.MustCompile(`^` + Number + `$`)
	integerRe  = regexp.MustCompile(`^` + Integer + `$`)
	datetimeRe = regexp.MustCompile(`^` + Datetime + `$`)
)

// ParseNumber reads s as Number (float64) or, when integer, as Integer
// (int64); ok is false when s has another form (it reads as null).
func ParseNumber(s string, integer bool) (v any, ok bool) {
	if integer {
		if !integerRe.MatchString(s) {
			return nil, false
		}
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	if !numberRe.MatchString(s) {
		return nil, false
	}
	// A decimal too long for float64 is ±Inf with ErrRange on both sides
	// (Java's parseDouble gives Infinity), so the value is kept.
	f, _ := strconv.ParseFloat(s, 64)
	return f, true
}

// datetimeLayouts are the time.Parse layouts of Datetime's forms once a
// space separator is read as T; a fraction after the seconds is accepted
// by time.Parse without being in the layout.
var datetimeLayouts = []string{
	"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05",
	"2006-01-02T15:04Z07:00", "2006-01-02T15:04:05Z07:00",
}

// ParseDatetime reads s as Datetime, in UTC; ok is false when s has
// another form (it reads as null). err is set for a text of the form that
// names no day of the calendar (1996-02-30), which Cypher's datetime()
// refuses too.
func ParseDatetime(s string) (t time.Time, ok bool, err error) {
	if !datetimeRe.MatchString(s) {
		return time.Time{}, false, nil
	}
	s = strings.Replace(s, " ", "T", 1)
	for _, layout := range datetimeLayouts {
		if t, err = time.Parse(layout, s); err == nil {
			return t.UTC(), true, nil
		}
	}
	return time.Time{}, true, err
}

// NumberCypher reads the text x (a property or variable, cheap to repeat)
// as ParseNumber does: a FLOAT (or INTEGER when integer), null for
// another form.
func NumberCypher(x string, integer bool) string {
	if integer {
		return "CASE WHEN " + x + " =~ '" + Integer + "' THEN toInteger(" + x + ") END"
	}
	return "CASE WHEN " + x + " =~ '" + Number + "' THEN toFloat(" + x + ") END"
}

// DatetimeCypher reads the text x (cheap to repeat) as ParseDatetime
// does: a DATETIME in the text's zone (UTC when it names none), null for
// another form.
func DatetimeCypher(x string) string {
	return "CASE WHEN " + x + " =~ '" + Datetime + "' THEN datetime(replace(" + x + ", ' ', 'T')) END"
}

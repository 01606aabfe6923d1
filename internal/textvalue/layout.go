package textvalue

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Layout is a datetime text form a config gives in Go's reference-time
// notation, limited to fixed-width numeric parts so that Go and Cypher
// read it alike: 2006 (year), 01 (month), 02 (day), 15 (hour), 04
// (minute), 05 (second), a fraction .0, .00, … (that many digits), and
// the separators - / : . , space and T between them. It has a year, a
// month and a day; the time it lacks is midnight, and it is read as UTC.
type Layout struct {
	source  string
	pattern string         // the text's form, for Go and Cypher alike
	re      *regexp.Regexp // pattern, anchored
	parts   map[string][2]int
}

// layoutToken matches one part of a layout; LayoutPattern is the whole
// notation (the config schema checks a layout against it).
var layoutToken = regexp.MustCompile(`2006|01|02|15|04|05|[.]0+|[-/:., T]`)

// LayoutPattern is the form of a layout string itself.
const LayoutPattern = `(2006|01|02|15|04|05|[.]0+|[-/:., T])+`

// partPatterns are the digits each numeric part accepts.
var partPatterns = map[string]string{
	"2006": "[0-9]{4}", "01": "(0[1-9]|1[0-2])", "02": "(0[1-9]|[12][0-9]|3[01])",
	"15": "([01][0-9]|2[0-3])", "04": "[0-5][0-9]", "05": "[0-5][0-9]",
}

// ParseLayout reads a layout; the error says what is wrong with it.
func ParseLayout(layout string) (*Layout, error) {
	l := &Layout{source: layout, parts: map[string][2]int{}}
	var pat strings.Builder
	pos := 0
	for pos < len(layout) {
		loc := layoutToken.FindStringIndex(layout[pos:])
		if loc == nil || loc[0] != 0 {
			return nil, fmt.Errorf("layout %q: %q at byte %d is not 2006, 01, 02, 15, 04, 05, a fraction (.000) or a separator (- / : . , space T)", layout, layout[pos:], pos)
		}
		tok := layout[pos : pos+loc[1]]
		if end := pos + len(tok); len(tok) > 1 && tok[0] == '.' && end < len(layout) && layout[end] >= '0' && layout[end] <= '9' {
			// A dot before more digits separates ("02.01.2006"), as in
			// Go's layouts: .000 is a fraction only where its digits end.
			tok = "."
		}
		switch {
		case partPatterns[tok] != "":
			if _, dup := l.parts[tok]; dup {
				return nil, fmt.Errorf("layout %q: %s appears twice", layout, tok)
			}
			l.parts[tok] = [2]int{pos, len(tok)}
			pat.WriteString(partPatterns[tok])
		case strings.HasPrefix(tok, ".") && len(tok) > 1:
			l.parts["frac"] = [2]int{pos + 1, len(tok) - 1}
			fmt.Fprintf(&pat, "[.][0-9]{%d}", len(tok)-1)
		default:
			pat.WriteString("[" + tok + "]")
		}
		pos += len(tok)
	}
	for _, need := range []string{"2006", "01", "02"} {
		if _, ok := l.parts[need]; !ok {
			return nil, fmt.Errorf("layout %q has no %s (a layout needs 2006, 01 and 02: year, month, day)", layout, need)
		}
	}
	l.pattern = pat.String()
	l.re = regexp.MustCompile("^" + l.pattern + "$")
	return l, nil
}

// Pattern is the form of the layout's texts, as Cypher's =~ tests it.
func (l *Layout) Pattern() string { return l.pattern }

// Parse reads s in the layout, in UTC; ok is false for a text of another
// form (null); err is set for a text of the form that names no calendar
// day, as Cypher's datetime() fails on it.
func (l *Layout) Parse(s string) (t time.Time, ok bool, err error) {
	if !l.re.MatchString(s) {
		return time.Time{}, false, nil
	}
	t, err = time.Parse(l.source, s)
	return t.UTC(), true, err
}

// Cypher reads the text x (cheap to repeat) in the layout as Parse does:
// a DATETIME in UTC, null for another form. The ISO string it builds from
// fixed positions is what datetime() parses.
func (l *Layout) Cypher(x string) string {
	part := func(name, def string) string {
		p, ok := l.parts[name]
		if !ok {
			return "'" + def + "'"
		}
		return "substring(" + x + ", " + strconv.Itoa(p[0]) + ", " + strconv.Itoa(p[1]) + ")"
	}
	iso := part("2006", "") + " + '-' + " + part("01", "") + " + '-' + " + part("02", "") + " + 'T' + " +
		part("15", "00") + " + ':' + " + part("04", "00") + " + ':' + " + part("05", "00")
	if _, ok := l.parts["frac"]; ok {
		iso += " + '.' + " + part("frac", "")
	}
	return "CASE WHEN " + x + " =~ '" + l.pattern + "' THEN datetime(" + iso + " + 'Z') END"
}

// DatetimeReader is how a datetime field stored_as: text is read: its
// layout's, or the common forms' when layout is "". The config schema
// refuses a layout ParseLayout would, so err is only for a model built in
// Go without validation.
func DatetimeReader(layout string) (parse func(string) (time.Time, bool, error), cypher func(x string) string, err error) {
	if layout == "" {
		return ParseDatetime, DatetimeCypher, nil
	}
	l, err := ParseLayout(layout)
	if err != nil {
		return nil, nil, err
	}
	return l.Parse, l.Cypher, nil
}

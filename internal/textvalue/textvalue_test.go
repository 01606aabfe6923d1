package textvalue

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestForms pins what each form reads and what reads as null.
func TestForms(t *testing.T) {
	for _, c := range []struct {
		s       string
		integer bool
		want    any
	}{
		{"12", false, 12.0}, {"-0.5", false, -0.5}, {".5", false, 0.5}, {"12.", false, 12.0}, {"+5", false, 5.0},
		{"14.00", false, 14.0}, {"NULL", false, nil}, {"", false, nil}, {" 12", false, nil}, {"1e3", false, nil},
		{"0x1A", false, nil}, {".", false, nil},
		{"12", true, int64(12)}, {"-007", true, int64(-7)}, {"12.7", true, nil}, {"1234567890123456789", true, nil},
	} {
		got, ok := ParseNumber(c.s, c.integer)
		if ok != (c.want != nil) || got != c.want {
			t.Errorf("ParseNumber(%q, %v) = %v, %v; want %v", c.s, c.integer, got, ok, c.want)
		}
	}
	for _, c := range []struct {
		s    string
		want string // RFC 3339 in UTC, "" for null, "error" for an error
	}{
		{"1996-07-04 00:00:00.000", "1996-07-04T00:00:00Z"},
		{"1996-07-04", "1996-07-04T00:00:00Z"},
		{"1996-07-04T10:11", "1996-07-04T10:11:00Z"},
		{"1996-07-04T10:11:12.5+02:00", "1996-07-04T08:11:12.5Z"},
		{"1996-07-04 10:11:12Z", "1996-07-04T10:11:12Z"},
		{"NULL", ""}, {"1996-7-4", ""}, {"1996-07-04  10:11", ""}, {"1996-07-04T10:11+19:00", ""},
		{"1996-02-30", "error"},
	} {
		got, ok, err := ParseDatetime(c.s)
		var s string
		switch {
		case err != nil:
			s = "error"
		case ok:
			s = got.Format(time.RFC3339Nano)
		}
		if s != c.want {
			t.Errorf("ParseDatetime(%q) = %s; want %s", c.s, s, c.want)
		}
	}
}

// TestClassify: init's choice of a type for sampled texts.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		texts   []string
		typ     string
		markers []string
	}{
		{[]string{"0", "0.15", "NULL"}, "number", []string{"NULL"}},
		{[]string{"1", "2", "3"}, "integer", nil},
		{[]string{"1996-07-04 00:00:00.000", "NULL", ""}, "datetime", []string{"NULL", ""}},
		{[]string{"NULL", ""}, "", []string{"NULL", ""}},
		{[]string{"12", "Berlin"}, "", nil},
	} {
		typ, markers := Classify(c.texts)
		if typ != c.typ || !slices.Equal(markers, c.markers) {
			t.Errorf("Classify(%q) = %q, %q; want %q, %q", c.texts, typ, markers, c.typ, c.markers)
		}
	}
}

// TestSchemaPatternsAreTheseForms: the config schema's #TextPatterns
// (which reject a null marker that parses) are this package's forms.
func TestSchemaPatternsAreTheseForms(t *testing.T) {
	src, err := os.ReadFile("../../schema/ragforge.cue")
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(src), "#TextPatterns: {")
	block, _, _ = strings.Cut(block, "\n}")
	for name, want := range map[string]string{"number": Number, "integer": Integer, "datetime": Datetime, "layout": LayoutPattern} {
		m := regexp.MustCompile(`(?m)^\s*` + name + `:\s*"(.*)"$`).FindStringSubmatch(block)
		if m == nil || m[1] != want {
			t.Errorf("#TextPatterns.%s is %q, want %q", name, m, want)
		}
	}
}

// TestLayouts: a config's layout reads its texts, refuses what is not a
// layout, and writes the Cypher that builds the same ISO string.
func TestLayouts(t *testing.T) {
	l, err := ParseLayout("02/01/2006 15:04")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := l.Parse("16/07/1996 10:30"); !ok || err != nil || !got.Equal(time.Date(1996, 7, 16, 10, 30, 0, 0, time.UTC)) {
		t.Errorf("Parse = %v, %v, %v", got, ok, err)
	}
	for _, s := range []string{"1996-07-16", "NULL", "16/13/1996 10:30", "16/07/96 10:30"} {
		if _, ok, _ := l.Parse(s); ok {
			t.Errorf("Parse(%q) read a value", s)
		}
	}
	if _, ok, err := l.Parse("30/02/1996 10:30"); !ok || err == nil {
		t.Errorf("30 February: ok %v, err %v; want an error", ok, err)
	}
	want := `CASE WHEN x =~ '(0[1-9]|[12][0-9]|3[01])[/](0[1-9]|1[0-2])[/][0-9]{4}[ ]([01][0-9]|2[0-3])[:][0-5][0-9]' THEN datetime(substring(x, 6, 4) + '-' + substring(x, 3, 2) + '-' + substring(x, 0, 2) + 'T' + substring(x, 11, 2) + ':' + substring(x, 14, 2) + ':' + '00' + 'Z') END`
	if got := l.Cypher("x"); got != want {
		t.Errorf("Cypher:\n got %s\nwant %s", got, want)
	}
	// A dot before more digits separates (the schema's LayoutPattern
	// accepts these; they once read every text as null); a dot where its
	// zeros end is a fraction.
	for layout, text := range map[string]string{"02.01.2006": "16.07.1996", "2006.01.02 15:04:05.000": "1996.07.16 10:30:00.250"} {
		dotted, err := ParseLayout(layout)
		if err != nil {
			t.Errorf("ParseLayout(%q): %v", layout, err)
			continue
		}
		if got, ok, err := dotted.Parse(text); !ok || err != nil || got.Year() != 1996 || got.Month() != 7 || got.Day() != 16 {
			t.Errorf("%q Parse(%q) = %v, %v, %v", layout, text, got, ok, err)
		}
	}
	for _, bad := range []string{"Jan 2 2006", "01/2006", "2006-01-02 2006"} {
		if _, err := ParseLayout(bad); err == nil {
			t.Errorf("ParseLayout(%q) accepted it", bad)
		}
	}
}

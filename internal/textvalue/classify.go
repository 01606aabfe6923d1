package textvalue

import "slices"

// Markers are the texts that commonly stand for "no value" in data loaded
// from CSV or SQL dumps; init drafts those it meets as null_values.
var Markers = []string{"NULL", "null", "", "N/A", `\N`}

// The field types a text can be read as, narrowest first: a text of the
// integer form is of the number form too.
var types = []string{"integer", "number", "datetime"}

// Parses reports whether s reads as a value of the field type typ
// ("integer", "number", "datetime" or "timestamp").
func Parses(typ, s string) bool {
	switch typ {
	case "integer":
		_, ok := ParseNumber(s, true)
		return ok
	case "number":
		_, ok := ParseNumber(s, false)
		return ok
	case "datetime", "timestamp":
		_, ok, err := ParseDatetime(s)
		return ok && err == nil
	}
	return false
}

// Classify is the narrowest field type every text but the Markers reads
// as, "" when there is none (or only markers), and the markers seen.
func Classify(texts []string) (typ string, markers []string) {
	var values []string
	for _, s := range texts {
		if slices.Contains(Markers, s) {
			if !slices.Contains(markers, s) {
				markers = append(markers, s)
			}
			continue
		}
		values = append(values, s)
	}
	if len(values) == 0 {
		return "", markers
	}
	for _, t := range types {
		all := true
		for _, s := range values {
			if !Parses(t, s) {
				all = false
				break
			}
		}
		if all {
			return t, markers
		}
	}
	return "", markers
}

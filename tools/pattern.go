package tools

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
)

// Regex is the RE2 expression text_pattern_search's regex mode matches
// with: the pattern anchored to the whole value, case-insensitive unless
// caseSensitive.
func Regex(pattern string, caseSensitive bool) string {
	expr := "^(?:" + pattern + ")$"
	if !caseSensitive {
		expr = "(?i)" + expr
	}
	return expr
}

// Words lower-cases text and splits it into words of letters, digits and
// underscores: the words fuzzy matching compares, split the way the APOC
// route splits the field.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}

// Matcher compiles a regex or glob pattern into the predicate the engine
// applies to each candidate: RE2 for regex (whole value; linear in the
// text's length, whatever the pattern), doublestar for glob (`**` crosses
// '/', `*` and `?` do not). Catalog.Parse compiles a call's pattern with
// it too, so a pattern Parse accepts is one the engine can match.
func Matcher(mode, pattern string, caseSensitive bool) (func(string) bool, error) {
	switch mode {
	case "regex":
		// The pattern alone first, so an error quotes what the agent wrote.
		if _, err := regexp.Compile(pattern); err != nil {
			return nil, fmt.Errorf("not a valid RE2 regular expression: %w", err)
		}
		re, err := regexp.Compile(Regex(pattern, caseSensitive))
		if err != nil {
			return nil, fmt.Errorf("not a valid RE2 regular expression: %w", err)
		}
		return re.MatchString, nil
	case "glob":
		pat := pattern
		if !caseSensitive {
			pat = strings.ToLower(pat)
		}
		if !doublestar.ValidatePattern(pat) {
			return nil, fmt.Errorf("not a valid glob (unclosed [ or {, or a trailing \\)")
		}
		return func(s string) bool {
			if !caseSensitive {
				s = strings.ToLower(s)
			}
			ok, _ := doublestar.Match(pat, s)
			return ok
		}, nil
	}
	return nil, fmt.Errorf("%q matches no pattern (regex or glob)", mode)
}

package computed

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Cypher's lexer decodes \uXXXX escapes before it tokenizes (Java-style:
// a backslash preceded by an even number of backslashes starts one), even
// inside backtick identifiers, so `a\u0060b` closes the identifier early.
// Every backslash this package writes is therefore part of an escape it
// chose (\\ \' \n \uXXXX for a control character), and identifiers holding a
// backslash are refused.

// quoteIdent escapes a config identifier (label, property, alias) for
// Cypher: backticks around it, inner backticks doubled.
func quoteIdent(name string) (string, error) {
	if err := checkIdent(name); err != nil {
		return "", err
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`", nil
}

// checkIdent refuses names Cypher cannot hold safely.
func checkIdent(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty name")
	case strings.ContainsAny(name, "\\\x00"):
		return fmt.Errorf("name %q holds a backslash or NUL, which Cypher's unicode-escape processing makes unsafe", name)
	case !utf8.ValidString(name):
		return fmt.Errorf("name %q is not valid UTF-8", name)
	}
	return nil
}

var plainVar = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// quoteString writes s as a single-quoted Cypher string literal. Printable
// text is written as is, quote and backslash are escaped, and control
// characters become \uXXXX escapes, which Cypher decodes to the same
// character inside the literal.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// formatFloat writes a finite float as a Cypher float literal that reads
// back to the same float64 (shortest round-trip form, always with a point or
// an exponent so Cypher does not read an integer).
func formatFloat(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		// Not reachable from a literal; kept total for safety.
		return "(0.0/0.0)"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

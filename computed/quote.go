package computed

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Names are written into Cypher only through ident.Quote (and checked with
// ident.Check), whose identifier rules exclude the backslash: Cypher's
// lexer decodes \uXXXX escapes before it tokenizes, even inside backtick
// identifiers. Every backslash this package writes is therefore part of an
// escape it chose (\\ \' \n \uXXXX for a control character).

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

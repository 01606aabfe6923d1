package model

import (
	"strings"
	"unicode"
)

// SnakeCase writes an entity name in snake_case as tool names spell it
// (CodeFile → code_file, HTTPServer → http_server), the rule of the
// schema's #snake, which lists the same tool names for profiles.
func SnakeCase(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) && rs[i-1] != '_' {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

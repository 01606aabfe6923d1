package model

import (
	"strings"
	"unicode"
)

// Snake writes an entity name in snake_case as tool names spell it
// (create_code_file, find_similar_http_server), as the schema's #snake
// does: an underscore before an upper-case letter that follows a
// lower-case one or starts a word, then lower case.
func Snake(s string) string {
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

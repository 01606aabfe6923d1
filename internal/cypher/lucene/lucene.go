// Package lucene writes text into the query strings of Neo4j's full-text
// procedures (db.index.fulltext.queryNodes), which Lucene's classic query
// parser reads. The query string is a parameter, never Cypher text; the
// escaping keeps an agent's words from becoming Lucene syntax. It imports
// nothing of ragforge, so the planner and the tool handlers share it.
package lucene

import (
	"strings"
	"unicode"
)

// special are the characters Lucene's classic query parser treats as
// syntax.
const special = `+-&|!(){}[]^"~*?:\/`

// Escape escapes text for Lucene's classic query parser: every special
// character gets a backslash, as does whitespace (so a term stays one
// term), and the words AND, OR and NOT get a backslash before their first
// letter so they stay words.
func Escape(s string) string {
	switch s {
	case "AND", "OR", "NOT":
		return `\` + s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(special, r) || unicode.IsSpace(r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

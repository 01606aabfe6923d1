package planner

import "strings"

// Ident escapes a name for Cypher: wrapped in backticks, with inner
// backticks doubled.
//
// Deprecated: use ident.Quote, which also refuses names outside the
// identifier rules. The planner no longer calls Ident; it stays only until
// its last caller outside the planner has moved to ident.Quote.
func Ident(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

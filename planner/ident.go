package planner

import "strings"

// Ident escapes a name from the model (a label, relationship type or
// property key) for Cypher: wrapped in backticks, with inner backticks
// doubled. Every identifier in a statement goes through it, so no name can
// end the quoting and inject text, whatever the config holds.
func Ident(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// prop renders variable.`property`.
func prop(variable, name string) string { return variable + "." + Ident(name) }

package computed

import (
	"fmt"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// Error is one problem in one computed field. Offset is the rune offset of
// the offending token inside the expression, so a caller that knows how the
// expression is written in its file (engine maps YAML quoting and block
// scalars) can point at the exact column; Error() alone reports the
// expression's own line:column and a caret snippet.
type Error struct {
	Entity string
	// Relationship is the relationship type of the declaration on Entity
	// that holds Field, or "" for an entity's own computed field.
	Relationship string
	Field        string
	// Pos is where the field's expression (or cypher) value starts in the
	// config file.
	Pos model.Pos
	// Source is the expression text, "" for errors not inside an expression.
	Source string
	// Offset is the rune offset in Source the error points at.
	Offset int
	Msg    string
}

// Error formats the problem as `file:line:col: Entity.field: message`
// (`Entity.TYPE.field` for a relationship's field)
// followed by the expression line and a caret under the offending column.
func (e *Error) Error() string {
	var b strings.Builder
	if s := e.Pos.String(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	if e.Relationship != "" {
		fmt.Fprintf(&b, "%s.%s.%s: %s", e.Entity, e.Relationship, e.Field, e.Msg)
	} else {
		fmt.Fprintf(&b, "%s.%s: %s", e.Entity, e.Field, e.Msg)
	}
	if e.Source != "" {
		line, col := e.LineCol()
		fmt.Fprintf(&b, " (expression %d:%d)%s", line, col, e.Snippet())
	}
	return b.String()
}

// LineCol is the 1-based line and column (in runes) of Offset inside the
// expression text.
func (e *Error) LineCol() (line, col int) {
	line, col = 1, 1
	for i, r := range []rune(e.Source) {
		if i == e.Offset {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// Snippet is the expression line holding the error and a caret under its
// column, each line prefixed with "\n | " like expr's own errors.
func (e *Error) Snippet() string {
	line, col := e.LineCol()
	lines := strings.Split(e.Source, "\n")
	if line > len(lines) {
		return ""
	}
	text := strings.ReplaceAll(lines[line-1], "\t", " ")
	return "\n | " + text + "\n | " + strings.Repeat(".", col-1) + "^"
}

// Errors is every problem found while compiling a model's computed fields,
// in config order, so a user fixes them all in one pass.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

package model

import (
	"cmp"
	"fmt"
)

// Pos is a position in a config file, so every later error (an expression
// that does not type-check, a cypher field that is not read-only) can point
// at the line that caused it.
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats the position as file:line:col, the prefix of every config
// error line; an unknown position formats as the file name alone.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Compare orders positions by file, line and column, so that every list of
// problems reads top to bottom through each file.
func (p Pos) Compare(q Pos) int {
	return cmp.Or(cmp.Compare(p.File, q.File), cmp.Compare(p.Line, q.Line), cmp.Compare(p.Col, q.Col))
}

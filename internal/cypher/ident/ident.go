// Package ident is the one place where a name becomes Cypher text.
//
// Labels, relationship types, property keys and index names cannot be query
// parameters in Cypher, so they are written into statements. Every such name
// comes from a validated config (or from ragforge's own constants), never
// from an agent, and it is written only through [Quote]: the name must
// follow the identifier rules of schema/ragforge.cue (#identifierPattern,
// which [Pattern] repeats and a test keeps equal), and it is wrapped in
// backticks with any inner backtick doubled. The rules already exclude the
// characters that could end the quoting or that Cypher's lexer rewrites
// before it tokenizes (a backslash starts a \uXXXX escape even inside
// backticks); the escaping is a second wall, not the first.
//
// The package imports nothing of ragforge, so every package that writes
// Cypher (computed, planner, materialize, engine) shares it.
package ident

import (
	"fmt"
	"regexp"
	"strings"
)

// Pattern is the identifier rule, the same regular expression as the CUE
// schema's #identifierPattern.
const Pattern = `^[A-Za-z_][A-Za-z0-9_]{0,99}$`

var valid = regexp.MustCompile(Pattern)

// Error says which name broke the rules and what the rules allow, so a
// developer who built a model in Go can fix it.
type Error struct {
	Name string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%q is not a valid name (allowed: letters, digits and _, not starting with a digit, at most 100 characters)", e.Name)
}

// Check returns an [*Error] when name does not follow the identifier rules.
func Check(name string) error {
	if !valid.MatchString(name) {
		return &Error{Name: name}
	}
	return nil
}

// Quote returns name as a Cypher identifier in backticks, or an [*Error]
// when name does not follow the identifier rules.
func Quote(name string) (string, error) {
	if err := Check(name); err != nil {
		return "", err
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`", nil
}

// Quoter quotes the names of a statement written from many at once,
// keeping the first error for the end, so the writing reads as Cypher
// rather than as error checks.
type Quoter struct {
	// Err is the first name Quote refused.
	Err error
}

// Quote returns name quoted; when name does not follow the rules it
// returns two backticks (an empty name) and records the error.
func (q *Quoter) Quote(name string) string {
	out, err := Quote(name)
	if err != nil {
		if q.Err == nil {
			q.Err = err
		}
		return "``"
	}
	return out
}

package computed

import (
	"fmt"
	"strconv"
)

// checkCypherBody reads a raw `cypher:` body with Cypher's lexical rules and
// refuses one whose brackets do not balance, whose string, backtick name or
// block comment is not closed, or that holds a `;`. [Field.Subquery] writes
// the body inside `CALL (n) { … }`, so a stray `}` (or a comment or string
// left open) would end that scope early and put the rest of the body, or
// the wrapper itself, outside it.
//
// Neo4j decodes \uXXXX escapes before it tokenizes (everywhere: in strings,
// backtick names and comments; a backslash preceded by an odd number of raw
// backslashes starts none), so the body is decoded the same way first:
// `\u007D` is a `}`. The error's Offset is the rune offset in the body as
// written.
func checkCypherBody(body string) *Error {
	raw := []rune(body)
	// Decode \uXXXX as Neo4j does; at[i] is the raw offset of text[i].
	text := make([]rune, 0, len(raw))
	at := make([]int, 0, len(raw))
	slashes := 0 // contiguous raw backslashes before i
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' && slashes%2 == 0 && i+1 < len(raw) && raw[i+1] == 'u' {
			v, err := strconv.ParseUint(string(raw[i+2:min(i+6, len(raw))]), 16, 32)
			if i+6 > len(raw) || err != nil {
				return &Error{Offset: i, Msg: `cypher: \u must be followed by four hexadecimal digits`}
			}
			text, at = append(text, rune(v)), append(at, i)
			i += 5
			slashes = 0
			continue
		}
		if raw[i] == '\\' {
			slashes++
		} else {
			slashes = 0
		}
		text, at = append(text, raw[i]), append(at, i)
	}
	fail := func(i int, format string, args ...any) *Error {
		off := len(raw)
		if i < len(at) {
			off = at[i]
		}
		return &Error{Offset: off, Msg: "cypher: " + fmt.Sprintf(format, args...)}
	}
	closer := map[rune]rune{'(': ')', '[': ']', '{': '}'}
	var open []int // indices in text of the unclosed brackets
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\'', '"':
			start := i
			for i++; i < len(text) && text[i] != c; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			if i >= len(text) {
				return fail(start, "string literal starting here is never closed (add the closing %c)", c)
			}
		case '`':
			start := i
			for i++; i < len(text); i++ {
				if text[i] != '`' {
					continue
				}
				if i+1 < len(text) && text[i+1] == '`' {
					i++ // `` is an escaped backtick
					continue
				}
				break
			}
			if i >= len(text) {
				return fail(start, "backtick name starting here is never closed (add the closing `)")
			}
		case '/':
			if i+1 < len(text) && text[i+1] == '/' {
				for i < len(text) && text[i] != '\n' && text[i] != '\r' {
					i++
				}
			} else if i+1 < len(text) && text[i+1] == '*' {
				start := i
				for i += 2; i < len(text) && !(text[i] == '*' && i+1 < len(text) && text[i+1] == '/'); {
					i++
				}
				if i >= len(text) {
					return fail(start, "comment starting here is never closed (add */)")
				}
				i++
			}
		case ';':
			return fail(i, "a cypher field is one query; remove the ;")
		case '(', '[', '{':
			open = append(open, i)
		case ')', ']', '}':
			if len(open) == 0 {
				return fail(i, "%c closes nothing (the body runs inside CALL (n) { … } and must keep its brackets balanced)", c)
			}
			o := open[len(open)-1]
			if want := closer[text[o]]; c != want {
				line, col := lineCol(raw, at[o])
				return fail(i, "%c does not match the %c opened at cypher %d:%d (expected %c)", c, text[o], line, col, want)
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		o := open[len(open)-1]
		return fail(o, "%c opened here is never closed (add %c)", text[o], closer[text[o]])
	}
	return nil
}

// lineCol is the 1-based line and column (in runes) of rune offset off.
func lineCol(src []rune, off int) (line, col int) {
	e := Error{Source: string(src), Offset: off}
	return e.LineCol()
}

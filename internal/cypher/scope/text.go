package scope

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// word is an identifier-like token of plan text at nesting depth 0: not
// inside parentheses, brackets, braces, string literals or backquotes.
type word struct {
	start, end int
	// keyword says the word can be an operator keyword: it is not a
	// property name (after '.'), a parameter (after '$'), a label or type
	// (after ':') nor a variable whose property or label is read (before
	// '.' or ':').
	keyword bool
}

// top lists the words and commas of s at depth 0 and reports whether s is
// balanced (every bracket closed by its own kind, every quote ended). Text
// that is not balanced is never split: the caller treats it as opaque.
// With caseNests, the keywords CASE and END open and close a level like
// brackets (see [matcher]).
func top(s string, caseNests bool) (words []word, commas []int, ok bool) {
	var stack []byte
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '\'', '"':
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' {
					j++
				}
			}
			if j >= len(s) {
				return nil, nil, false
			}
			i = j + 1
			continue
		case '`':
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '`')
				if k < 0 {
					return nil, nil, false
				}
				j += k + 1
				if j < len(s) && s[j] == '`' { // a doubled backquote
					j++
					continue
				}
				break
			}
			i = j
			continue
		case '(', '[', '{':
			stack = append(stack, closer(c))
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return nil, nil, false
			}
			stack = stack[:len(stack)-1]
		case ',':
			if len(stack) == 0 {
				commas = append(commas, i)
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			j := i + size
			for j < len(s) {
				r2, n := utf8.DecodeRuneInString(s[j:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += n
			}
			p, n := prevByte(s, i), nextByte(s, j)
			w := word{start: i, end: j, keyword: p != '.' && p != '$' && p != ':' && n != '.' && n != ':'}
			switch kw := strings.ToUpper(s[i:j]); {
			case caseNests && w.keyword && kw == "CASE":
				stack = append(stack, endMark)
			case caseNests && kw == "END" && (w.keyword || readOfCase(p, n, stack)):
				if len(stack) == 0 || stack[len(stack)-1] != endMark {
					return nil, nil, false
				}
				stack = stack[:len(stack)-1]
			case len(stack) == 0:
				words = append(words, w)
			}
			i = j
			continue
		}
		i += size
	}
	return words, commas, len(stack) == 0
}

// endMark stands on the bracket stack for the END that closes a CASE.
const endMark = 'E'

// readOfCase reports whether an END between bytes p and n, with a CASE
// open on stack, closes it and a property of the CASE's value is read:
// Neo4j prints (CASE … END).epochMillis as CASE … END.epochMillis. With
// CASE … END read as a level no variable is named end, so a misread END
// could only leave the text unbalanced (opaque), never hide a conjunct.
func readOfCase(p, n byte, stack []byte) bool {
	return n == '.' && p != '.' && p != '$' && p != ':' && len(stack) > 0 && stack[len(stack)-1] == endMark
}

func closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// prevByte is the last non-space byte before i (0 at the start).
func prevByte(s string, i int) byte {
	for i--; i >= 0; i-- {
		if !isSpace(s[i]) {
			return s[i]
		}
	}
	return 0
}

// nextByte is the first non-space byte from j (0 at the end).
func nextByte(s string, j int) byte {
	for ; j < len(s); j++ {
		if !isSpace(s[j]) {
			return s[j]
		}
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// unwrap removes parentheses that enclose all of s, as often as they do.
func unwrap(s string) string {
	for {
		s = strings.TrimSpace(s)
		if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
			return s
		}
		inner := s[1 : len(s)-1]
		// The outer pair encloses everything only when the inside is
		// balanced on its own: "(a) AND (b)" is not "a) AND (b".
		if _, _, ok := top(inner, false); !ok {
			return s
		}
		s = inner
	}
}

// opaqueWords make a predicate more than a conjunction at depth 0: OR and
// XOR bind looser than AND, and a CASE expression holds ANDs of its own
// between its keywords (unless CASE … END is read as a level).
var opaqueWords = map[string]bool{"OR": true, "XOR": true, "CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true}

// conjuncts splits a predicate as Neo4j prints it into its top-level
// conjuncts: the parts joined by AND at depth 0, outside strings, names
// and brackets. A predicate whose top level is not a pure conjunction (an
// OR or XOR there, unbalanced text, a CASE expression unless caseNests)
// is one opaque conjunct: nothing in it can be relied on alone. NOT binds
// tighter than AND, so "NOT a AND b" is the conjuncts "NOT a" and "b"; a
// parenthesised conjunction among the conjuncts is split as well.
//
// caseNests reads CASE … END as a level, like brackets. That is right
// only when no variable of the plan is named case, when, then, else or
// end: Neo4j prints such a variable bare, and "case IS NULL OR end IS
// NULL AND x" read with CASE … END as a level would hide its OR.
func conjuncts(pred string, caseNests bool) []string {
	pred = unwrap(pred)
	words, _, ok := top(pred, caseNests)
	if !ok {
		return []string{pred}
	}
	var out []string
	from := 0
	for _, w := range words {
		if !w.keyword {
			continue
		}
		kw := strings.ToUpper(pred[w.start:w.end])
		if opaqueWords[kw] {
			return []string{pred}
		}
		if kw == "AND" {
			out = append(out, pred[from:w.start])
			from = w.end
		}
	}
	if len(out) == 0 {
		return []string{pred}
	}
	// AND is associative: a parenthesised conjunction inside is split
	// too. Each part is shorter than pred, so this ends.
	var flat []string
	for _, part := range append(out, pred[from:]) {
		flat = append(flat, conjuncts(part, caseNests)...)
	}
	return flat
}

// items splits s at its commas of depth 0 (a projection's or a
// procedure's list), or returns nil when s is not balanced.
func items(s string) []string {
	_, commas, ok := top(s, false)
	if !ok {
		return nil
	}
	var out []string
	from := 0
	for _, c := range commas {
		out = append(out, strings.TrimSpace(s[from:c]))
		from = c + 1
	}
	return append(out, strings.TrimSpace(s[from:]))
}

// aliases are the names a projection-like operator binds ("expr AS name"
// items of its details); an item that projects a variable onto itself
// binds nothing new.
func aliases(details string) []string {
	var out []string
	for _, it := range items(details) {
		words, _, ok := top(it, false)
		if !ok {
			continue
		}
		for k := len(words) - 1; k >= 0; k-- {
			w := words[k]
			if w.keyword && strings.EqualFold(it[w.start:w.end], "AS") {
				expr, name := strings.TrimSpace(it[:w.start]), strings.TrimSpace(it[w.end:])
				if name != "" && expr != name {
					out = append(out, name)
				}
				break
			}
		}
	}
	return out
}

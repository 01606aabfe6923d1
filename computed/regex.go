package computed

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
)

// A `matches` pattern must mean the same in Go (RE2, what expr runs) and in
// Java (what Cypher's =~ runs), and must not let Java's backtracking engine
// run long (docs/design.md, invariant 5). safePattern accepts a subset for which both
// hold by construction and writes the Java form:
//
//   - The pattern starts with ^. expr's matches finds the pattern anywhere;
//     Cypher's =~ matches the whole string, so an unanchored pattern would
//     need a leading .* and Java would retry it at every start position
//     (quadratic). Anchored, the Java form is P followed by (?s:.*) — or
//     nothing when P ends with $.
//   - Between ^ and an optional final $ comes a sequence of atoms: a literal
//     character, a character class ([...], \d, \w, \s, which are expanded to
//     explicit code point ranges so Java and Go agree on them), or . (Go's
//     meaning: any character but \n, written [^\n] for Java).
//   - An atom may carry * + ? {n} {n,m} {n,}; a repeated atom's characters
//     must be disjoint from the next atom's (or the end). Then at most one
//     way to match exists, greedy and possessive repetition agree, and the
//     Java form uses possessive quantifiers (*+ ++ ?+ {n,m}+), which never
//     backtrack: the match is one left-to-right pass, linear in the input.
//   - No groups, alternation of more than single characters, flags,
//     backreferences or word boundaries.
func safePattern(pattern string) (string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("invalid pattern: %v", err)
	}
	if re.Op == syntax.OpAlternate {
		return "", fmt.Errorf("groups and alternation are not supported (use a character class such as [ab] for single characters)")
	}
	var items []*syntax.Regexp
	if re.Op == syntax.OpConcat {
		items = re.Sub
	} else {
		items = []*syntax.Regexp{re}
	}
	if len(items) == 0 || items[0].Op != syntax.OpBeginText {
		return "", fmt.Errorf("a matches pattern must start with ^ (unanchored patterns make Java's regex engine scan quadratically; use contains, startsWith or endsWith for plain text)")
	}
	items = items[1:]
	anchoredEnd := false
	if n := len(items); n > 0 && items[n-1].Op == syntax.OpEndText {
		anchoredEnd = true
		items = items[:n-1]
	}
	// Flatten literal strings into one atom per character.
	type atom struct {
		set      []rune // ranges lo,hi pairs
		min, max int    // max -1 = unbounded
	}
	var atoms []atom
	for _, it := range items {
		a := atom{min: 1, max: 1}
		sub := it
		switch it.Op {
		case syntax.OpStar:
			a.min, a.max, sub = 0, -1, it.Sub[0]
		case syntax.OpPlus:
			a.min, a.max, sub = 1, -1, it.Sub[0]
		case syntax.OpQuest:
			a.min, a.max, sub = 0, 1, it.Sub[0]
		case syntax.OpRepeat:
			a.min, a.max, sub = it.Min, it.Max, it.Sub[0]
		}
		if sub.Flags&syntax.FoldCase != 0 {
			return "", fmt.Errorf("case-insensitive matching is not supported (Go and Java fold case differently)")
		}
		switch sub.Op {
		case syntax.OpLiteral:
			if sub != it && len(sub.Rune) != 1 {
				return "", fmt.Errorf("a quantifier applies to one character or class only (no groups)")
			}
			for _, r := range sub.Rune {
				atoms = append(atoms, atom{set: []rune{r, r}, min: 1, max: 1})
			}
			if sub != it {
				atoms[len(atoms)-1].min, atoms[len(atoms)-1].max = a.min, a.max
			}
			continue
		case syntax.OpCharClass:
			a.set = sub.Rune
		case syntax.OpAnyCharNotNL:
			a.set = []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
		case syntax.OpAnyChar:
			a.set = []rune{0, unicode.MaxRune}
		case syntax.OpEmptyMatch:
			continue
		case syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine:
			return "", fmt.Errorf("^ and $ are supported only at the start and the end")
		case syntax.OpCapture, syntax.OpConcat, syntax.OpAlternate:
			return "", fmt.Errorf("groups and alternation are not supported (use a character class such as [ab] for single characters)")
		default:
			return "", fmt.Errorf("%s is not supported (supported: literal characters, classes, ., quantifiers on one character, ^ at the start, $ at the end)", opName(sub.Op))
		}
		if len(a.set) == 0 {
			return "", fmt.Errorf("an empty character class matches nothing")
		}
		atoms = append(atoms, a)
	}
	var b strings.Builder
	for i, a := range atoms {
		if a.min != a.max {
			var next []rune
			if i+1 < len(atoms) {
				next = atoms[i+1].set
			} else if !anchoredEnd {
				next = nil // (?s:.*) follows and accepts anything: greedy is right
			}
			if overlaps(a.set, next) {
				return "", fmt.Errorf("a repeated item must not overlap the item after it (atom %d): the match would need backtracking", i+1)
			}
		}
		b.WriteString(javaClass(a.set))
		switch {
		case a.min == 1 && a.max == 1:
		case a.min == 0 && a.max == -1:
			b.WriteString("*+")
		case a.min == 1 && a.max == -1:
			b.WriteString("++")
		case a.min == 0 && a.max == 1:
			b.WriteString("?+")
		case a.max == -1:
			fmt.Fprintf(&b, "{%d,}+", a.min)
		case a.min == a.max:
			fmt.Fprintf(&b, "{%d}", a.min)
		default:
			fmt.Fprintf(&b, "{%d,%d}+", a.min, a.max)
		}
	}
	if !anchoredEnd {
		b.WriteString("(?s:.*)")
	}
	return b.String(), nil
}

// javaClass writes a set of code point ranges as a Java character class
// with \x{...} escapes only, so no character has a special meaning.
func javaClass(set []rune) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i+1 < len(set); i += 2 {
		if set[i] == set[i+1] {
			fmt.Fprintf(&b, `\x{%X}`, set[i])
		} else {
			fmt.Fprintf(&b, `\x{%X}-\x{%X}`, set[i], set[i+1])
		}
	}
	b.WriteByte(']')
	return b.String()
}

// overlaps reports whether two range sets share a code point.
func overlaps(a, b []rune) bool {
	for i := 0; i+1 < len(a); i += 2 {
		for j := 0; j+1 < len(b); j += 2 {
			if a[i] <= b[j+1] && b[j] <= a[i+1] {
				return true
			}
		}
	}
	return false
}

func opName(op syntax.Op) string {
	switch op {
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return `\b and \B`
	}
	return "this construct"
}

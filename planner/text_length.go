package planner

import (
	"regexp/syntax"
	"strings"
)

// lengths are the fewest and most characters (code points) a whole value
// matching a pattern can have; most only when bounded (a pattern with a
// star has no longest match). The zero value bounds nothing. Cypher's
// size() counts a string's code points as Go counts runes (the size of an
// emoji is 1), and each character a regex or glob matches is one code
// point, so a size outside the bounds means no match: the scan asks Neo4j
// for values within them only, and fewer candidates cross the network
// (regex_number's UA1[0-9]{2} has 5 characters exactly).
type lengths struct {
	least, most int
	bounded     bool
}

// exactly is the bound of a pattern that matches n characters only.
func exactly(n int) lengths { return lengths{n, n, true} }

// render writes the size() conditions on x the bounds imply: none for the
// zero value.
func (l lengths) render(b *builder, x string) []string {
	var out []string
	switch {
	case l.bounded && l.least == l.most:
		return []string{"size(" + x + ") = " + b.param(int64(l.least))}
	case l.least > 0:
		out = append(out, "size("+x+") >= "+b.param(int64(l.least)))
	}
	if l.bounded {
		out = append(out, "size("+x+") <= "+b.param(int64(l.most)))
	}
	return out
}

// then is the bound of a text matching l followed by one matching next.
func (l lengths) then(next lengths) lengths {
	return lengths{l.least + next.least, l.most + next.most, l.bounded && next.bounded}
}

// or is the bound of a text matching l or next.
func (l lengths) or(next lengths) lengths {
	return lengths{min(l.least, next.least), max(l.most, next.most), l.bounded && next.bounded}
}

// regexLengths bounds the length of the text a parsed regex matches as a
// whole. Case folding keeps lengths (RE2 folds a rune to a rune), and
// anchors and word boundaries match no text. An operator it does not know
// bounds nothing, so the bounds are never tighter than the regex.
func regexLengths(re *syntax.Regexp) lengths {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exactly(0)
	case syntax.OpLiteral:
		return exactly(len(re.Rune))
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return exactly(1)
	case syntax.OpCapture:
		return regexLengths(re.Sub[0])
	case syntax.OpQuest:
		return exactly(0).or(regexLengths(re.Sub[0]))
	case syntax.OpPlus:
		return lengths{least: regexLengths(re.Sub[0]).least}
	case syntax.OpRepeat:
		sub := regexLengths(re.Sub[0])
		return lengths{sub.least * re.Min, sub.most * re.Max, sub.bounded && re.Max >= 0}
	case syntax.OpConcat:
		l := exactly(0)
		for _, s := range re.Sub {
			l = l.then(regexLengths(s))
		}
		return l
	case syntax.OpAlternate:
		l := regexLengths(re.Sub[0])
		for _, s := range re.Sub[1:] {
			l = l.or(regexLengths(s))
		}
		return l
	}
	return lengths{}
}

// globLengths bounds the length of the text a glob matches when it is
// made of literal characters, ? (one character) and * (any number): a
// class, an escape or alternatives bound nothing here, nor does **, whose
// "a/**/b" also matches "a/b", one slash fewer than the pattern has.
func globLengths(pattern string) lengths {
	if strings.ContainsAny(pattern, `[]{}\,`) || strings.Contains(pattern, "**") {
		return lengths{}
	}
	l := exactly(0)
	for _, r := range pattern {
		if r == '*' {
			l.bounded = false
			continue
		}
		l.least++
	}
	l.most = l.least
	return l
}

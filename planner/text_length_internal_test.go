package planner

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/tools"
)

// TestLengthBoundsNeverDropAMatch is a differential test over random
// regexes and globs: for each, every random text (empty, multi-byte,
// emoji, newline included) the Go matcher accepts has a code-point count
// within the pattern's bounds, so the size() conditions never drop a
// match; and the bounds narrow something, or the test would prove little.
func TestLengthBoundsNeverDropAMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "b", "A", "k", "K", "ſ", "s", "é", "😀", "\n", "/", "."}
	atoms := []string{"a", "b", "k", "ſ", "é", "😀", ".", "[a-b]", "[^a]", "(a|bb)", "(?s:.)", "\\n", "(|a)", "\\b", "^", "$", "(?i:s)"}
	quants := []string{"", "", "", "?", "*", "+", "{2}", "{0,2}", "{1,}", "{2,3}"}
	globAtoms := []string{"a", "b", "é", "😀", "?", "*", "/", "ſ"}
	text := func() string {
		var b strings.Builder
		for range r.IntN(7) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	bounded, matches := 0, 0
	for range 3000 {
		mode, cs := "regex", r.IntN(2) == 0
		var p strings.Builder
		for range 1 + r.IntN(4) {
			if r.IntN(3) == 0 {
				mode = "glob"
			}
			p.WriteString(atoms[r.IntN(len(atoms))] + quants[r.IntN(len(quants))])
		}
		pattern := p.String()
		if mode == "glob" {
			p.Reset()
			for range 1 + r.IntN(4) {
				p.WriteString(globAtoms[r.IntN(len(globAtoms))])
			}
			pattern = p.String()
		}
		match, err := tools.Matcher(mode, pattern, cs)
		if err != nil {
			continue
		}
		l := globLengths(pattern)
		if mode == "regex" {
			re, err := syntax.Parse(tools.Regex(pattern, cs), syntax.Perl)
			if err != nil {
				t.Fatal(err)
			}
			l = regexLengths(re)
		}
		if l.bounded || l.least > 0 {
			bounded++
		}
		for range 300 {
			s := text()
			if !match(s) {
				continue
			}
			matches++
			if !l.fits(s) {
				t.Fatalf("%s %q (case-sensitive %v): %q matches but its length bounds %+v drop it", mode, pattern, cs, s, l)
			}
		}
	}
	t.Logf("%d patterns with bounds, %d matches checked", bounded, matches)
	if bounded < 1000 || matches < 10000 {
		t.Errorf("too few bounded patterns (%d) or matches (%d) to prove anything", bounded, matches)
	}
}

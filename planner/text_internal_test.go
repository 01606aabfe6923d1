package planner

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// javaLower imitates Cypher's toLower (Java's String.toLowerCase) where it
// differs from Go's: İ becomes i followed by a combining dot.
func javaLower(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "İ", "i\u0307"))
}

// passes evaluates a prefilter in Go the way Neo4j would.
func (pf prefilter) passes(s string) bool {
	if !pf.length.fits(s) {
		return false
	}
	if pf.lower {
		s = javaLower(s)
	}
	return strings.HasPrefix(s, pf.prefix) && strings.HasSuffix(s, pf.suffix) && strings.Contains(s, pf.contains)
}

// fits evaluates a prefilter's length bounds in Go the way Neo4j's size()
// counts: in code points, on the text before any toLower.
func (l lengths) fits(s string) bool {
	n := utf8.RuneCountInString(s)
	return n >= l.least && (!l.bounded || n <= l.most)
}

// TestPrefiltersNeverDropAMatch checks, over random strings (empty
// included) built from letters that fold in surprising ways (ſ, K, İ, ß),
// characters of two to four bytes and a newline, that whenever the Go
// matcher accepts a string, the Cypher prefilter would have kept it: the
// prefilter narrows the scan, it never changes the answer.
func TestPrefiltersNeverDropAMatch(t *testing.T) {
	alphabet := []string{"a", "b", "P", "p", "a", "r", "s", "S", "ſ", "k", "K", "K", "i", "I", "İ", "e", "E", "ß", "/", "_", "t", ".", "go", "1", "9", "é", "😀", "\n", "ab"}
	patterns := []struct {
		mode, pattern string
		cs            bool
	}{
		{"regex", "Parse.*", true}, {"regex", "Parse.*", false}, {"regex", "(?i)pars", true},
		{"regex", "a+b", false}, {"regex", "ka.*s", false}, {"regex", ".*ßt", false}, {"regex", "(Par)se", true},
		{"regex", "^Pa(r|s)e$", false}, {"regex", "[a-z]+_test\\.go", false},
		{"glob", "**/a/*.go", true}, {"glob", "Pa*se", false}, {"glob", "*_test.go", false}, {"glob", "sk?", false},
		{"glob", "İa*", false}, {"glob", "{a,b}/*", true},
		{"regex", "a1[0-9]{2}", true}, {"regex", "a{2,3}b?", false}, {"regex", "(ab|c)+", true}, {"regex", "\\b.?s.{0,2}", false},
		{"regex", "(?s).{1,3}", true}, {"regex", ".{2}", false}, {"regex", "(?m)^a$\\n?.", true}, {"regex", "(ſ|kk?)[^a]", false},
		{"regex", "(é|😀){2}.*", true}, {"regex", "x*|ab{2,}", false}, {"regex", "", true},
		{"glob", "?a*", false}, {"glob", "a?b", true}, {"glob", "??", false}, {"glob", "*/?", true}, {"glob", "a/**/b", true},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range patterns {
		f := &Filter{Mode: p.mode, Pattern: p.pattern, CaseSensitive: p.cs}
		match, err := f.Matcher()
		if err != nil {
			t.Fatal(err)
		}
		var pf prefilter
		if p.mode == "regex" {
			expr := "^(?:" + p.pattern + ")$"
			if !p.cs {
				expr = "(?i)" + expr
			}
			re, _ := syntax.Parse(expr, syntax.Perl)
			pf = regexPrefilter(re.Simplify()).withLength(regexLengths(re))
		} else {
			pf = globPrefilter(p.pattern, p.cs).withLength(globLengths(p.pattern))
		}
		matched := 0
		for range 200000 {
			var b strings.Builder
			for range r.IntN(8) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			s := b.String()
			if match(s) {
				matched++
				if !pf.passes(s) {
					t.Errorf("%s %q (case-sensitive %v): %q matches but prefilter %+v drops it", p.mode, p.pattern, p.cs, s, pf)
					break
				}
			}
		}
		t.Logf("%s %q: %d random matches, prefilter %+v", p.mode, p.pattern, matched, pf)
	}
}

// TestGlobStarsStayInTheirDirectory pins the glob semantics agents are
// told: * and ? never cross '/', ** crosses any number of directories.
func TestGlobStarsStayInTheirDirectory(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"net/http/*.go", "net/http/server.go", true},
		{"net/http/*.go", "net/http/internal/chunked.go", false},
		{"net/http/?.go", "net/http/a/b.go", false},
		{"**/internal/**/*_test.go", "net/http/internal/chunked_test.go", true},
		{"**/internal/**/*_test.go", "net/http/internal/ascii/print_test.go", true},
		{"**/internal/**/*_test.go", "net/http/server_test.go", false},
		{"[a-c]*.go", "b.go", true},
		{"\\*.go", "*.go", true},
		{"\\*.go", "a.go", false},
	}
	for _, c := range cases {
		f := &Filter{Mode: "glob", Pattern: c.pattern, CaseSensitive: true}
		m, err := f.Matcher()
		if err != nil {
			t.Fatal(err)
		}
		if got := m(c.s); got != c.want {
			t.Errorf("%q ~ %q = %v, want %v", c.pattern, c.s, got, c.want)
		}
		if ok, _ := doublestar.Match(c.pattern, c.s); ok != c.want {
			t.Errorf("doublestar disagrees on %q ~ %q", c.pattern, c.s)
		}
	}
}

// TestPrefixEnd: the end of a prefix's range is the prefix with its last
// character incremented, and there is none at or above the surrogates.
func TestPrefixEnd(t *testing.T) {
	for _, c := range []struct {
		prefix, want string
		ok           bool
	}{
		{"UA1", "UA2", true},
		{"ab\u00ff", "ab\u0100", true},
		{"", "", false},
		{"a\ud7ff", "", false},
		{"a\uffff", "", false},
	} {
		if got, ok := prefixEnd(c.prefix); got != c.want || ok != c.ok {
			t.Errorf("prefixEnd(%q) = %q, %v; want %q, %v", c.prefix, got, ok, c.want, c.ok)
		}
	}
}

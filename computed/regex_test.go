package computed

import "testing"

func TestSafePatternWritesPossessiveJava(t *testing.T) {
	for _, tc := range []struct{ pattern, java string }{
		{"^ab", `[\x{61}][\x{62}](?s:.*)`},
		{"^[a-z]+_test$", `[\x{61}-\x{7A}]++[\x{5F}][\x{74}][\x{65}][\x{73}][\x{74}]`},
		{`^\d{2,4}x`, `[\x{30}-\x{39}]{2,4}+[\x{78}](?s:.*)`},
		{"^.*$", `[\x{0}-\x{9}\x{B}-\x{10FFFF}]*+`},
		{"^a?b", `[\x{61}]?+[\x{62}](?s:.*)`},
		{"^", `(?s:.*)`},
	} {
		got, err := safePattern(tc.pattern)
		if err != nil || got != tc.java {
			t.Errorf("safePattern(%q) = %q, %v; want %q", tc.pattern, got, err, tc.java)
		}
	}
}

func TestSafePatternRejectsBacktracking(t *testing.T) {
	for _, p := range []string{"abc", "^a*a", "^(a+)+$", "^[ab]*b", "^a|b", "^.*x", "^x$y", `^\bx`, "^a{2,3}a"} {
		if j, err := safePattern(p); err == nil {
			t.Errorf("safePattern(%q) = %q, want an error", p, j)
		}
	}
}

func TestQuoteStringEscapesEverythingCypherDecodes(t *testing.T) {
	for in, want := range map[string]string{
		`it's`:     `'it\'s'`,
		`a\u0027b`: `'a\\u0027b'`,
		"x\ny\x00": `'x\ny\u0000'`,
		"é😀":       `'é😀'`,
		"\\'":      `'\\\''`,
	} {
		if got := quoteString(in); got != want {
			t.Errorf("quoteString(%q) = %s, want %s", in, got, want)
		}
	}
}

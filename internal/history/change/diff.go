package change

import (
	"fmt"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Unified is the unified diff (three lines of context) from old to new,
// its files labelled a/name and b/name, with the number of lines it adds
// and removes; "" and zeros when the texts are equal.
func Unified(name, old, new string) (diff string, added, removed int) {
	if old == new {
		return "", 0, 0
	}
	edits := udiff.Lines(old, new)
	u, err := udiff.ToUnifiedDiff("a/"+name, "b/"+name, old, edits, udiff.DefaultContextLines)
	if err != nil {
		// The edits were computed from old itself, so they always apply.
		return "", 0, 0
	}
	for _, h := range u.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				added++
			case udiff.Delete:
				removed++
			}
		}
	}
	return u.String(), added, removed
}

// Cut returns s cut to at most max bytes on a rune boundary, with a line
// saying how much was cut; s itself when it fits.
func Cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	note := fmt.Sprintf("\n… cut at %d of %d bytes\n", max, len(s))
	end := max - len(note)
	if end < 0 {
		end = 0
	}
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return strings.TrimRight(s[:end], "\n") + note
}

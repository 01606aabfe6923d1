package history

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Patch is what git log -L -p shows of one commit in one file for a
// tracked range: the file's path on each side ("" for /dev/null), the
// lines the commit removed (old side) and added (new side), the range's
// lines that hold code on each side, and how many of those the commit
// kept from its parent.
type Patch struct {
	OldPath, NewPath string
	Dels, Adds       []int
	// OldCode and NewCode number the range's lines on each side that
	// hold code: a letter or a digit, not only braces or blanks.
	OldCode, NewCode []int
	// Kept counts the range's unchanged lines that hold code.
	Kept int
	// hunks counts the hunks read; oldLine and newLine number the next
	// line on each side.
	hunks, oldLine, newLine int
}

// parseLogL reads `git log -L… --format=%x00%H %cI -p` output: one Touch
// per commit, each with the patch git shows for the range.
func parseLogL(out string) ([]Touch, error) {
	var touches []Touch
	var t *Touch
	var p *Patch
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "\x00"):
			hash, at, ok := strings.Cut(line[1:], " ")
			if !ok {
				return nil, fmt.Errorf("a commit line without its time: %q", line)
			}
			when, err := time.Parse(time.RFC3339, at)
			if err != nil {
				return nil, err
			}
			touches = append(touches, Touch{Commit: hash, At: when.UTC()})
			t, p = &touches[len(touches)-1], nil
		case t == nil:
		case strings.HasPrefix(line, "diff --git "):
			t.Patches = append(t.Patches, Patch{})
			p = &t.Patches[len(t.Patches)-1]
		case p == nil:
		case p.hunks == 0 && strings.HasPrefix(line, "--- "):
			p.OldPath = sidePath(line[4:])
		case p.hunks == 0 && strings.HasPrefix(line, "+++ "):
			p.NewPath = sidePath(line[4:])
		case strings.HasPrefix(line, "@@ "):
			if err := p.header(line); err != nil {
				return nil, err
			}
		case p.hunks == 0:
		default:
			p.line(line)
		}
	}
	return touches, nil
}

// line reads one line of a range's hunk.
func (p *Patch) line(s string) {
	code := strings.ContainsFunc(s, isWordRune)
	switch {
	case strings.HasPrefix(s, "+"):
		p.Adds = append(p.Adds, p.newLine)
		if code {
			p.NewCode = append(p.NewCode, p.newLine)
		}
		p.newLine++
	case strings.HasPrefix(s, "-"):
		p.Dels = append(p.Dels, p.oldLine)
		if code {
			p.OldCode = append(p.OldCode, p.oldLine)
		}
		p.oldLine++
	case strings.HasPrefix(s, " "):
		if code {
			p.Kept++
			p.OldCode = append(p.OldCode, p.oldLine)
			p.NewCode = append(p.NewCode, p.newLine)
		}
		p.oldLine++
		p.newLine++
	}
}

// isWordRune reports whether r is a letter or a digit: a line without
// one (a brace, a blank) says nothing of which code it belongs to.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// sidePath reads a ---/+++ line's path: "" for /dev/null, else without
// its a/ or b/ prefix (unquoted when git quoted it).
func sidePath(s string) string {
	if s == "/dev/null" {
		return ""
	}
	if u, err := strconv.Unquote(s); err == nil {
		s = u
	}
	return s[min(2, len(s)):]
}

// header reads a range's "@@ -a,b +c,d @@": the first line of the range
// on each side, from which its lines are numbered.
func (p *Patch) header(s string) error {
	f := strings.Fields(s)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return fmt.Errorf("a hunk header without both sides: %q", s)
	}
	first := func(x string) (int, error) {
		a, _, _ := strings.Cut(x[1:], ",")
		n, err := strconv.Atoi(a)
		if err != nil {
			return 0, fmt.Errorf("hunk header %q: %w", s, err)
		}
		return n, nil
	}
	var err error
	if p.oldLine, err = first(f[1]); err != nil {
		return err
	}
	p.newLine, err = first(f[2])
	p.hunks++
	return err
}

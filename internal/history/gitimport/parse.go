package gitimport

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/ragforge/ragforge/internal/history/change"
)

// commitMarker starts the header line of each commit in the log format
// the import asks for: a NUL cannot start a line of a text diff.
const commitMarker = "\x00C\t"

// logFormat is git log's --format: the marker, hash, committer time,
// author and subject, tab-separated (the subject last, so a tab in it
// stays in it).
const logFormat = "--format=%x00C%x09%H%x09%cI%x09%an%x09%s"

// Commit is one commit as the log tells it.
type Commit struct {
	Hash, Author, Subject string
	// Time is the committer time: when the change entered the history.
	Time  time.Time
	Files []*FileDiff
}

// FileDiff is one file's part of a commit.
type FileDiff struct {
	// Path is the file's path after the commit (before it, when the commit
	// deletes it), relative to the directory the log was read in; OldPath
	// is its path before, which differs when git detected a rename.
	Path, OldPath string
	Kind          string
	// OldBlob and NewBlob are the object names of the file's content
	// before and after the commit ("" when the commit creates or deletes
	// it, or changes only its name or mode).
	OldBlob, NewBlob string
	// head is the path the file has at HEAD ("" when no file of today
	// descends from it), set as the import reads the commit.
	head string
	// Added and Removed count the diff's lines, all of them even when the
	// text is cut.
	Added, Removed int
	Binary         bool
	Hunks          []*Hunk
	// size is the bytes kept of the hunks' text so far.
	size int
}

// Hunk is one hunk of a file's diff.
type Hunk struct {
	// text is the hunk, header included, cut at the file's byte cap.
	text strings.Builder
	// Adds are the new-side line numbers of the added lines; Dels the
	// old-side line numbers of the removed lines.
	Adds, Dels []int
	// OldStart and NewStart are each side's first line of the hunk,
	// OldNext and NewNext the line after it (equal when a side is empty);
	// Same pairs the new and old numbers of its unchanged lines that
	// hold code (a letter or a digit): a brace or a blank line the diff
	// aligns says nothing of where the code around it comes from.
	OldStart, NewStart, OldNext, NewNext int
	Same                                 [][2]int
	// Blocks are the hunk's runs of changed lines between unchanged
	// ones: each replaces its old lines by its new ones, the unit git
	// log -L maps a range through.
	Blocks []Block
}

// Block is one run of a hunk's removed and added lines: old lines
// [OldStart, OldNext) became new lines [NewStart, NewNext) (a side is
// empty when its start equals its next).
type Block struct{ OldStart, OldNext, NewStart, NewNext int }

// block returns the run the hunk's next changed line belongs to,
// starting one at oldLine and newLine after an unchanged line.
func (h *Hunk) block(inRun bool, oldLine, newLine int) *Block {
	if !inRun || len(h.Blocks) == 0 {
		h.Blocks = append(h.Blocks, Block{oldLine, oldLine, newLine, newLine})
	}
	return &h.Blocks[len(h.Blocks)-1]
}

// keptLine maps an unchanged line of the file after the commit to its
// number before; ok is false for a line the commit added, and for an
// unchanged line of its hunks that holds no code (Hunk.Same).
func (f *FileDiff) keptLine(n int) (old int, ok bool) {
	offset := 0
	for _, h := range f.Hunks {
		if n < h.NewStart {
			break
		}
		if n < h.NewNext {
			for _, p := range h.Same {
				if p[0] == n {
					return p[1], true
				}
			}
			return 0, false
		}
		offset = h.OldNext - h.NewNext
	}
	return n + offset, true
}

// Renamed reports whether git detected that the commit renamed (or
// moved) the file.
func (f *FileDiff) Renamed() bool { return f.OldPath != "" && f.OldPath != f.Path }

// Diff is the file's unified diff, cut at max bytes.
func (f *FileDiff) Diff(max int) string {
	var b strings.Builder
	for _, h := range f.Hunks {
		b.WriteString(h.Text())
	}
	return change.Cut(b.String(), max)
}

// Text is the hunk, header included, as far as the file's cap kept it.
func (h *Hunk) Text() string { return h.text.String() }

// reader parses git log -p output commit by commit.
type reader struct {
	r *bufio.Reader
	// max caps the text kept per file.
	max int
	// next is a commit header line read ahead, "" at the start.
	next string
	line int
}

func newReader(r io.Reader, max int) *reader {
	return &reader{r: bufio.NewReaderSize(r, 1<<16), max: max}
}

// readLine returns the next line without its newline; io.EOF at the end.
func (p *reader) readLine() (string, error) {
	s, err := p.r.ReadString('\n')
	if err == io.EOF && s != "" {
		err = nil
	}
	p.line++
	return strings.TrimSuffix(s, "\n"), err
}

// Next returns the next commit, or io.EOF after the last.
func (p *reader) Next() (*Commit, error) {
	header := p.next
	for header == "" {
		s, err := p.readLine()
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(s, commitMarker) {
			header = s
		}
	}
	p.next = ""
	parts := strings.SplitN(strings.TrimPrefix(header, commitMarker), "\t", 4)
	if len(parts) != 4 {
		return nil, fmt.Errorf("git log line %d: a commit header without hash, time, author and subject: %q", p.line, header)
	}
	at, err := time.Parse(time.RFC3339, parts[1])
	if err != nil {
		return nil, fmt.Errorf("git log line %d: commit %s: %w", p.line, parts[0], err)
	}
	c := &Commit{Hash: parts[0], Time: at.UTC(), Author: parts[2], Subject: parts[3]}
	var f *FileDiff
	var h *Hunk
	newLine, oldLine := 0, 0
	inRun := false // the previous line of the hunk was changed
	for {
		s, err := p.readLine()
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return nil, err
		}
		switch {
		case strings.HasPrefix(s, commitMarker):
			p.next = s
			return c, nil
		case strings.HasPrefix(s, "diff --git "):
			f, h = &FileDiff{Kind: change.Updated}, nil
			f.Path = samePath(s[len("diff --git "):])
			f.OldPath = f.Path
			c.Files = append(c.Files, f)
		case f == nil:
			// The blank line between the header and the first diff.
		case h == nil && strings.HasPrefix(s, "new file mode"):
			f.Kind = change.Created
		case h == nil && strings.HasPrefix(s, "deleted file mode"):
			f.Kind = change.Deleted
		case h == nil && strings.HasPrefix(s, "rename from "):
			f.OldPath = unquote(s[len("rename from "):])
		case h == nil && strings.HasPrefix(s, "rename to "):
			f.Path = unquote(s[len("rename to "):])
		case h == nil && strings.HasPrefix(s, "index "):
			f.OldBlob, f.NewBlob = blobs(s[len("index "):])
		case h == nil && strings.HasPrefix(s, "--- "):
			if p := diffPath(s[4:]); p != "" {
				f.Path, f.OldPath = p, p
			}
		case h == nil && strings.HasPrefix(s, "+++ "):
			if p := diffPath(s[4:]); p != "" {
				f.Path = p
			}
		case h == nil && strings.HasPrefix(s, "Binary files "):
			f.Binary = true
		case strings.HasPrefix(s, "@@ "):
			h = &Hunk{}
			f.Hunks = append(f.Hunks, h)
			if err = h.header(s); err != nil {
				return nil, fmt.Errorf("git log line %d: %w", p.line, err)
			}
			oldLine, newLine, inRun = h.OldStart, h.NewStart, false
			p.keep(f, h, s)
		case h != nil && strings.HasPrefix(s, "+"):
			f.Added++
			h.Adds = append(h.Adds, newLine)
			h.block(inRun, oldLine, newLine).NewNext = newLine + 1
			newLine, inRun = newLine+1, true
			p.keep(f, h, s)
		case h != nil && strings.HasPrefix(s, "-"):
			f.Removed++
			h.Dels = append(h.Dels, oldLine)
			h.block(inRun, oldLine, newLine).OldNext = oldLine + 1
			oldLine, inRun = oldLine+1, true
			p.keep(f, h, s)
		case h != nil && strings.HasPrefix(s, " "):
			if strings.ContainsFunc(s, isWordRune) {
				h.Same = append(h.Same, [2]int{newLine, oldLine})
			}
			newLine++
			oldLine++
			inRun = false
			p.keep(f, h, s)
		case h != nil:
			// "\ No newline at end of file".
			p.keep(f, h, s)
		}
	}
}

// keep adds a line to the hunk's text while the file's text is under the
// cap.
func (p *reader) keep(f *FileDiff, h *Hunk, s string) {
	if f.size+len(s)+1 > p.max {
		return
	}
	f.size += len(s) + 1
	h.text.WriteString(s)
	h.text.WriteByte('\n')
}

// diffPath reads the path of a ---/+++ line: "" for /dev/null, else the
// path without its a/ or b/ prefix, unquoted when git quoted it.
func diffPath(s string) string {
	if s == "/dev/null" {
		return ""
	}
	s = unquote(s)
	if len(s) > 2 && (strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/")) {
		return s[2:]
	}
	return s
}

// unquote undoes git's quoting of a path with unusual characters.
func unquote(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// samePath reads the path of a "diff --git a/P b/P" line whose two sides
// are the same path, the only case where the line alone names it (a
// change of mode has no ---/+++ lines); "" otherwise, and a rename's
// lines or the ---/+++ lines then name it.
func samePath(s string) string {
	if strings.HasPrefix(s, `"`) {
		return ""
	}
	n := (len(s) - 1) / 2
	if len(s)%2 == 0 || n < 3 || s[n] != ' ' || !strings.HasPrefix(s, "a/") || s[n+1:n+3] != "b/" || s[2:n] != s[n+3:] {
		return ""
	}
	return s[2:n]
}

// blobs reads the object names of "index OLD..NEW [MODE]"; a side that
// is all zeros (no content) is "".
func blobs(s string) (old, new string) {
	ids, _, _ := strings.Cut(s, " ")
	old, new, _ = strings.Cut(ids, "..")
	none := func(id string) string {
		if strings.Trim(id, "0") == "" {
			return ""
		}
		return id
	}
	return none(old), none(new)
}

// header reads both sides' lines from "@@ -a,b +c,d @@" (b and d are 1
// when left out; a side of 0 lines names the line before the hunk).
func (h *Hunk) header(s string) error {
	fields := strings.Fields(s)
	if len(fields) < 3 || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return fmt.Errorf("a hunk header without both sides' lines: %q", s)
	}
	side := func(f string) (start, next int, err error) {
		a, b, hasCount := strings.Cut(f[1:], ",")
		start, err = strconv.Atoi(a)
		count := 1
		if err == nil && hasCount {
			count, err = strconv.Atoi(b)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("hunk header %q: %w", s, err)
		}
		if count == 0 {
			start++
		}
		return start, start + count, nil
	}
	var err error
	if h.OldStart, h.OldNext, err = side(fields[1]); err != nil {
		return err
	}
	h.NewStart, h.NewNext, err = side(fields[2])
	return err
}

// isWordRune reports whether r is a letter or a digit.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

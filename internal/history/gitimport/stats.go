package gitimport

import (
	"fmt"
	"strings"
	"time"
)

// maxNotes bounds the report's notes; the ones past it are counted.
const maxNotes = 20

// Stats is what an import read and wrote, and what it could not do.
type Stats struct {
	Commits int
	// Files and Scopes are the Changes written (made or found again);
	// Created is how many of them no earlier import had made.
	Files, Scopes, Created int
	// Unmatched are the file changes whose path (followed through later
	// renames) no File node has.
	Unmatched int
	// Renames are the file changes of a commit that renamed the file,
	// recorded on the file's node of today with its earlier path.
	Renames int
	// Gone are the changes of declarations that no longer exist (or
	// were declared again since), which have no Scope node to hold them.
	Gone int
	// Simplified are the changes of files and declarations on branches a
	// merge did not take them from (git log's history simplification: the
	// merge equals another parent's version), not recorded.
	Simplified int
	// Stale are Changes an earlier import made that this one did not
	// find again (an older import's attribution), deleted.
	Stale int
	// Notes say what the import skipped or could not read, a line each.
	Notes []string
	// dropped counts the notes past maxNotes.
	dropped  int
	Duration time.Duration
}

// note adds a line to the report.
func (s *Stats) note(format string, args ...any) {
	if len(s.Notes) >= maxNotes {
		s.dropped++
		return
	}
	s.Notes = append(s.Notes, fmt.Sprintf(format, args...))
}

// counts is the report's first line.
func (s Stats) counts() string {
	return fmt.Sprintf("%d commits: %d file changes, %d scope changes written (%d new); %d file changes of paths not in the graph skipped",
		s.Commits, s.Files, s.Scopes, s.Created, s.Unmatched)
}

func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)", s.counts(), s.Duration.Round(time.Millisecond))
	if s.Renames > 0 {
		fmt.Fprintf(&b, "\n%d file changes followed through a rename (recorded with the earlier path)", s.Renames)
	}
	if s.Gone > 0 {
		fmt.Fprintf(&b, "\n%d changes of declarations that no longer exist not recorded (no Scope node holds them)", s.Gone)
	}
	if s.Simplified > 0 {
		fmt.Fprintf(&b, "\n%d changes of files and declarations on branches a merge did not take them from not recorded (as git log -- FILE and git log -L leave them out)", s.Simplified)
	}
	if s.Stale > 0 {
		fmt.Fprintf(&b, "\n%d Changes of an earlier import not found again, deleted", s.Stale)
	}
	for _, n := range s.Notes {
		b.WriteString("\nnote: " + n)
	}
	if s.dropped > 0 {
		fmt.Fprintf(&b, "\nnote: %d more notes like these", s.dropped)
	}
	return b.String()
}

// Package history measures how exactly `ragforge-plan history import`
// attributes a repository's commits to its functions and methods, against
// an independent truth: `git log -L start,end:file` of each declaration's
// current lines, which follows the lines back through every commit that
// changed them (and through file renames). It never reads ragforge's own
// notion of a declaration's identity.
//
// It scores twice: against git log -L as it is, and against an adjusted
// truth that keeps of git log -L's commits only those its own patches
// (-p, the tracked range's diff at each commit) show changing the
// function, judged with go/parser on the file versions the patch names
// (package gosrc's lines), never with the import:
//
//   - Past: newest first, once a commit's patch keeps no line of code
//     (a line with a letter or digit) of the range from its parent, and
//     the function holding most of the range's code lines after it is
//     not one of the same name holding most of them before it, the
//     range's code was written there: every older commit is dropped.
//     git log -L goes on with the lines the hunk replaced (a struct, the
//     body of another function) because a range mapped into a hunk
//     takes the hunk's whole old side.
//   - Outside: a commit whose patch adds no line inside the function
//     holding most of the range's code lines after it, and removes none
//     inside the one holding most before it, changes only what git's
//     widened range took in (a type, a comment, a neighbour): dropped.
//     A side whose version is missing or does not parse counts as
//     changed.
package history

import (
	"cmp"
	"context"
	"fmt"
	"os/exec"
	"sync"
	"time"
)

// Decl is a function or method as the loaded tree has it: the Scope's key
// and its current lines.
type Decl struct {
	UUID, Name, File string
	Start, End       int
}

// Touch is one commit in a declaration's history.
type Touch struct {
	Commit string
	At     time.Time
	// Drop says why the adjusted truth leaves the commit out ("" when it
	// keeps it; Past, Outside).
	Drop string
	// Patches is what git log -L -p shows of the commit, read to set
	// Drop and then let go.
	Patches []Patch `json:"-"`
}

// GitLogL returns, for each declaration, the commits `git log -L` lists
// for its lines in the work tree dir, newest first, each with the reason
// the adjusted truth drops it (Touch.Drop), running workers git
// processes at a time.
func GitLogL(ctx context.Context, dir string, decls []Decl, workers int) (map[string][]Touch, error) {
	out := make(map[string][]Touch, len(decls))
	var mu sync.Mutex
	var firstErr error
	work := make(chan Decl)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := newVersions(ctx, dir)
			if err != nil {
				mu.Lock()
				firstErr = cmp.Or(firstErr, err)
				mu.Unlock()
				for range work {
				}
				return
			}
			defer v.close()
			for d := range work {
				touches, err := gitLogL(ctx, dir, d)
				if err == nil {
					err = adjust(v, touches)
				}
				for i := range touches {
					touches[i].Patches = nil
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				out[d.UUID] = touches
				mu.Unlock()
			}
		}()
	}
	for _, d := range decls {
		work <- d
	}
	close(work)
	wg.Wait()
	return out, firstErr
}

// gitLogL runs git log -L for one declaration's lines.
func gitLogL(ctx context.Context, dir string, d Decl) ([]Touch, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "log", fmt.Sprintf("-L%d,%d:%s", d.Start, d.End, d.File), "--format=%x00%H %cI", "-p")
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git log -L%d,%d:%s: %w", d.Start, d.End, d.File, err)
	}
	touches, err := parseLogL(string(raw))
	if err != nil {
		return nil, fmt.Errorf("git log -L of %s: %w", d.Name, err)
	}
	return touches, nil
}

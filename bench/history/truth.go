// Package history measures how exactly `ragforge-plan history import`
// attributes a repository's commits to its functions and methods, against
// an independent truth: `git log -L start,end:file` of each declaration's
// current lines, which follows the lines back through every commit that
// changed them (and through file renames). It never reads ragforge's own
// notion of a declaration's identity.
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

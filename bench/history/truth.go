// Package history measures how exactly `ragforge-plan history import`
// attributes a repository's commits to its functions and methods, against
// an independent truth: `git log -L start,end:file` of each declaration's
// current lines, which follows the lines back through every commit that
// changed them (and through file renames). It never reads ragforge's own
// notion of a declaration's identity.
package history

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
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
}

// GitLogL returns, for each declaration, the commits `git log -L` lists
// for its lines in the work tree dir, newest first, running workers git
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
			for d := range work {
				touches, err := gitLogL(ctx, dir, d)
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
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "log", fmt.Sprintf("-L%d,%d:%s", d.Start, d.End, d.File), "--format=%x00%H %cI", "-s")
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git log -L%d,%d:%s: %w", d.Start, d.End, d.File, err)
	}
	var touches []Touch
	for _, line := range strings.Split(string(raw), "\n") {
		hash, at, ok := strings.Cut(strings.TrimPrefix(line, "\x00"), " ")
		if !ok || !strings.HasPrefix(line, "\x00") {
			continue
		}
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return nil, fmt.Errorf("git log -L of %s: %w", d.Name, err)
		}
		touches = append(touches, Touch{Commit: hash, At: t.UTC()})
	}
	return touches, nil
}

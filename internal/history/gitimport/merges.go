package gitimport

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
)

// files is a set of paths or, when neg, every path but those: what a
// merge's edge to a parent lets through can be either.
type files struct {
	neg bool
	set map[string]bool
}

// every is the set of all paths.
var every = &files{neg: true}

func (a *files) has(p string) bool { return a.set[p] != a.neg }

func (a *files) and(b *files) *files {
	switch {
	case a.neg && b.neg:
		return &files{neg: true, set: union(a.set, b.set)}
	case a.neg:
		return &files{set: minus(b.set, a.set)}
	case b.neg:
		return &files{set: minus(a.set, b.set)}
	}
	return &files{set: inter(a.set, b.set)}
}

func (a *files) or(b *files) *files {
	switch {
	case a.neg && b.neg:
		return &files{neg: true, set: inter(a.set, b.set)}
	case a.neg:
		return &files{neg: true, set: minus(a.set, b.set)}
	case b.neg:
		return &files{neg: true, set: minus(b.set, a.set)}
	}
	return &files{set: union(a.set, b.set)}
}

func union(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for p := range a {
		out[p] = true
	}
	for p := range b {
		out[p] = true
	}
	return out
}

func inter(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for p := range a {
		if b[p] {
			out[p] = true
		}
	}
	return out
}

func minus(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for p := range a {
		if !b[p] {
			out[p] = true
		}
	}
	return out
}

// simplification is git's default history simplification, file by file:
// at a merge, a file that equals the file of one of its parents (the
// first such) is followed into that parent only, so the commits of the
// other branches change it in no version that reached the merge (a
// branch the merge did not keep, or a copy of commits the other side
// also has). git log -- FILE and git log -L follow a file this way.
type simplification struct {
	// seen maps a commit to the paths whose history runs through it;
	// a commit it lacks has them all.
	seen map[string]*files
}

// simplify reads the merges of the history of dir and which files, and
// which declarations of Go files, each merge's edges let through; nil
// when the history has no merge. A declaration is an item of its own
// (item): a merge whose file differs from both parents elsewhere still
// takes a function equal to one parent's from that parent only, as git
// log -L follows a range into the first parent where it is the same.
// prefix is dir's path in the repository, blobs reads file versions.
func simplify(ctx context.Context, dir, prefix string, blobs *Blobs) (*simplification, error) {
	git := func(args ...string) (*bufio.Scanner, func() error, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "-c", "core.quotePath=false"}, args...)...)
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, nil, err
		}
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 1<<24)
		return sc, cmd.Wait, nil
	}
	// Each merge's diff against each parent it differs from: a header
	// "MERGE (from PARENT) subject", then the paths (a parent the merge
	// equals has no section).
	sc, wait, err := git("log", "--merges", "-m", "--relative", "--name-only", "--pretty=oneline", "--no-abbrev-commit")
	if err != nil {
		return nil, err
	}
	diffs := map[string]map[string]map[string]bool{} // merge → parent → paths
	var cur map[string]bool
	for sc.Scan() {
		line := sc.Text()
		if m, rest, ok := strings.Cut(line, " (from "); ok && isHash(m) {
			parent, _, _ := strings.Cut(rest, ")")
			if diffs[m] == nil {
				diffs[m] = map[string]map[string]bool{}
			}
			cur = map[string]bool{}
			diffs[m][parent] = cur
			continue
		}
		if line != "" && cur != nil {
			cur[unquote(line)] = true
		}
	}
	if err := errors.Join(sc.Err(), wait()); err != nil {
		return nil, fmt.Errorf("git log --merges: %w", err)
	}
	sc, wait, err = git("rev-list", "--topo-order", "--parents", "HEAD")
	if err != nil {
		return nil, err
	}
	for m, byParent := range diffs {
		for parent, paths := range byParent {
			if err := declDiffs(blobs, m, parent, prefix, paths); err != nil {
				return nil, err
			}
		}
	}
	s := &simplification{seen: map[string]*files{}}
	merges := 0
	for sc.Scan() {
		ids := strings.Fields(sc.Text())
		if len(ids) == 0 {
			continue
		}
		c, parents := ids[0], ids[1:]
		merges += max(len(parents)-1, 0)
		mine := s.files(c)
		for k, p := range parents {
			through := mine
			if len(parents) > 1 {
				through = mine.and(kept(diffs[c], parents, k))
			}
			if prev, ok := s.seen[p]; ok {
				s.seen[p] = prev.or(through)
			} else {
				s.seen[p] = through
			}
		}
		if mine == every {
			delete(s.seen, c)
		}
	}
	if err := errors.Join(sc.Err(), wait()); err != nil {
		return nil, fmt.Errorf("git rev-list: %w", err)
	}
	if merges == 0 {
		return nil, nil
	}
	return s, nil
}

// files returns the paths whose history runs through commit c.
func (s *simplification) files(c string) *files {
	if f, ok := s.seen[c]; ok {
		return f
	}
	return every
}

// hidden reports whether the simplified history of an item (a path, or
// a declaration: item) leaves out commit c.
func (s *simplification) hidden(c, item string) bool {
	return s != nil && !s.files(c).has(item)
}

// item names declaration key of the Go file at path in a simplification.
func item(path, key string) string { return path + "\x00" + key }

// declDiffs adds to paths, the files of merge m that differ from its
// parent, the declarations of the Go ones whose text differs (or that
// only one side declares).
func declDiffs(blobs *Blobs, m, parent, prefix string, paths map[string]bool) error {
	for _, p := range slices.Collect(maps.Keys(paths)) {
		if !isGo(p) {
			continue
		}
		mine, err := declTexts(blobs, m+":"+prefix+p)
		if err != nil {
			return err
		}
		theirs, err := declTexts(blobs, parent+":"+prefix+p)
		if err != nil {
			return err
		}
		for k, text := range mine {
			if t, ok := theirs[k]; !ok || t != text {
				paths[item(p, k)] = true
			}
		}
		for k := range theirs {
			if _, ok := mine[k]; !ok {
				paths[item(p, k)] = true
			}
		}
	}
	return nil
}

// declTexts maps the declarations of a file version (REV:PATH) to their
// text; none when it is missing or does not parse.
func declTexts(blobs *Blobs, name string) (map[string]string, error) {
	src, ok, err := blobs.Read(name)
	if err != nil || !ok {
		return nil, err
	}
	ds, err := decls(src)
	if err != nil {
		return nil, nil
	}
	lines := bytes.Split(src, []byte("\n"))
	out := make(map[string]string, len(ds))
	for _, d := range ds {
		if d.start >= 1 && d.end <= len(lines) {
			out[d.key] = string(bytes.Join(lines[d.start-1:d.end], []byte("\n")))
		}
	}
	return out, nil
}

// kept is what a merge's edge to its k-th parent lets through: the files
// for which that parent is the first the merge equals, and those that
// differ from every parent (followed into all).
func kept(diffs map[string]map[string]bool, parents []string, k int) *files {
	differs := func(i int) map[string]bool { return diffs[parents[i]] } // nil: equal to that parent
	all := map[string]bool{}                                            // differ from every parent
	for p := range differs(0) {
		all[p] = true
	}
	for i := 1; i < len(parents); i++ {
		all = inter(all, differs(i))
	}
	if k == 0 {
		// Every file but those equal to a later parent and not this one.
		return &files{neg: true, set: minus(differs(0), all)}
	}
	before := differs(0)
	for i := 1; i < k; i++ {
		before = inter(before, differs(i))
	}
	return &files{set: minus(before, minus(differs(k), all))}
}

// isHash reports whether s is a full object name (SHA-1 or SHA-256).
func isHash(s string) bool {
	return (len(s) == 40 || len(s) == 64) && strings.Trim(s, "0123456789abcdef") == ""
}

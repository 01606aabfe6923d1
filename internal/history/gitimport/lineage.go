package gitimport

import "sort"

// lineage follows files and declarations from HEAD back through history:
// the import reads the log newest first, and at each commit it knows
// which of today's files a path of that time became (through later
// renames) and which of today's declarations a declaration of that time
// is. A declaration is its file's lineage and its key (the name, or
// Recv.Name), so it keeps its history through edits that move its lines
// and through renames of its file; its history begins at the commit that
// declared it in that file.
type lineage struct {
	// paths maps a path, as of the commit being read, to the HEAD path
	// it became; a path it lacks is its own HEAD path, and "" marks a
	// path whose file of that time no longer exists (a later commit
	// renamed another file onto it).
	// (The declarations of each of today's files, as of the commit
	// being read, are its graphFile's decls.)
	paths map[string]string
}

func newLineage() *lineage {
	return &lineage{paths: map[string]string{}}
}

// head returns the HEAD path of a path as of the commit being read.
func (l *lineage) head(path string) string {
	if h, ok := l.paths[path]; ok {
		return h
	}
	return path
}

// through moves the paths back through one commit: each file it renamed
// is, before it, its old path's; a renamed file's new path held, before
// the commit, some other file or none.
func (l *lineage) through(files []*FileDiff) {
	type move struct{ from, to string }
	var moves []move
	for _, f := range files {
		if f.Renamed() {
			moves = append(moves, move{f.OldPath, l.head(f.Path)})
		}
	}
	for _, f := range files {
		if f.Renamed() {
			l.paths[f.Path] = ""
		}
	}
	for _, m := range moves {
		l.paths[m.from] = m.to
	}
}

// changed is one declaration a file diff touches: its key and the lines
// the diff adds and removes in it.
type changed struct {
	key            string
	created        bool
	added, removed int
	hunks          []*Hunk
}

// touched lists the declarations of the file version after f that f's
// hunks touch: a removed line in the lines of the declaration it
// continues (succ, from successors), or an added line in its own lines.
// When the version before did not parse (succ nil), only added lines
// count and no declaration is new.
func touched(f *FileDiff, before, after []decl, succ map[string]string) []changed {
	old := make(map[string]decl, len(before))
	for _, d := range before {
		old[d.key] = d
	}
	var out []changed
	for _, d := range after {
		prev, continued := succ[d.key]
		o := old[prev]
		c := changed{key: d.key, created: succ != nil && !continued}
		for _, h := range f.Hunks {
			a, r := 0, 0
			for _, n := range h.Adds {
				if n >= d.start && n <= d.end {
					a++
				}
			}
			if continued {
				for _, n := range h.Dels {
					if n >= o.start && n <= o.end {
						r++
					}
				}
			}
			if a+r > 0 {
				c.added, c.removed = c.added+a, c.removed+r
				c.hunks = append(c.hunks, h)
			}
		}
		if c.added+c.removed > 0 {
			out = append(out, c)
		}
	}
	return out
}

// successors pairs each declaration of the file after f with the one
// before it that it continues, by where its unchanged lines of code come
// from: the declaration before of the same sort (a function or method,
// or a type, var or const) that holds most of them (over half), so a
// declaration keeps its history through a new name or receiver, and a
// function split in two hands its history to the part that kept most of
// its lines (as git log -L follows lines); a function never continues a
// type or a constant whose lines the diff aligned with it. A declaration
// no such majority ties continues the one of its own key when it kept a
// line of code there; else (its text rewritten whole) the one of its own
// key, or of its own name when its key is gone (a method whose receiver
// type was renamed), only when one run of changed lines removes that
// one's lines and adds its own: the diff replaced it in place. Written
// whole where the diff removed nothing of it (moved within its file), or
// over other code, it starts there, as git log -L does: it follows a
// range into the old side of the runs that changed it. A declaration
// before is continued by one after at most; one after without a
// predecessor is new. It returns key after → key before.
func successors(f *FileDiff, before, after []decl) map[string]string {
	owner := map[int]int{} // a line before → its declaration's index in before
	for i, d := range before {
		for n := d.start; n <= d.end; n++ {
			owner[n] = i
		}
	}
	type claim struct {
		after, before, votes int
	}
	var claims []claim
	kept := make([]int, len(after))
	for i, d := range after {
		votes := map[int]int{}
		for n := d.start; n <= d.end; n++ {
			if o, ok := f.keptLine(n); ok {
				kept[i]++
				if j, ok := owner[o]; ok && before[j].fn == d.fn {
					votes[j]++
				}
			}
		}
		for j, v := range votes {
			if 2*v > kept[i] {
				claims = append(claims, claim{i, j, v})
			}
		}
	}
	// The strongest claims first; ties to the declaration of the same key.
	sort.Slice(claims, func(a, b int) bool {
		x, y := claims[a], claims[b]
		if x.votes != y.votes {
			return x.votes > y.votes
		}
		return after[x.after].key == before[x.before].key && after[y.after].key != before[y.before].key
	})
	out := map[string]string{}
	taken := map[int]bool{}
	for _, c := range claims {
		k := after[c.after].key
		if _, done := out[k]; !done && !taken[c.before] {
			out[k] = before[c.before].key
			taken[c.before] = true
		}
	}
	byKey, byName := map[string]int{}, map[string][]int{}
	for i, d := range before {
		byKey[d.key] = i
		byName[d.name] = append(byName[d.name], i)
	}
	for i, d := range after {
		if _, done := out[d.key]; done {
			continue
		}
		cands := byName[d.name]
		if j, ok := byKey[d.key]; ok {
			cands = []int{j}
		}
		for _, j := range cands {
			if !taken[j] && before[j].fn == d.fn && (kept[i] > 0 && before[j].key == d.key || replaced(f, before[j], d)) {
				out[d.key] = before[j].key
				taken[j] = true
				break
			}
		}
	}
	return out
}

// replaced reports whether one run of f's changed lines (Hunk.Blocks)
// removes a line of o (before the commit) and adds one of d (after it).
func replaced(f *FileDiff, o, d decl) bool {
	for _, h := range f.Hunks {
		for _, b := range h.Blocks {
			if b.OldStart <= o.end && o.start < b.OldNext && b.NewStart <= d.end && d.start < b.NewNext {
				return true
			}
		}
	}
	return false
}

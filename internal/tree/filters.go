package tree

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Depth bounds of a diagram: how many levels below its root it shows.
const (
	// DefaultMaxDepth is the depth shown when a call gives none.
	DefaultMaxDepth = 7
	// MaxMaxDepth is the deepest a call may ask for.
	MaxMaxDepth = 50
	// maxPatterns bounds each glob list, so one call cannot ask for
	// millions of matches per node.
	maxPatterns = 50
)

// Filters choose the part of a tree a diagram or a query shows. The zero
// value is the whole tree down to DefaultMaxDepth.
type Filters struct {
	// PathPatterns keep the nodes whose path matches one of these globs
	// (doublestar syntax: *, **, ?, [a-z], {a,b}), plus the directories
	// holding them; empty keeps every node.
	PathPatterns []string `json:"path_patterns,omitempty"`
	// ExcludePaths drop the nodes whose path matches one of these globs,
	// with everything under them.
	ExcludePaths []string `json:"exclude_paths,omitempty"`
	// Languages keep the files whose language is one of these (compared
	// without case), plus the directories holding them.
	Languages []string `json:"languages,omitempty"`
	// MaxDepth is how many levels below the root are shown
	// (DefaultMaxDepth when nil).
	MaxDepth *int `json:"max_depth,omitempty"`
}

// Depth returns the effective maximum depth.
func (f Filters) Depth() int {
	if f.MaxDepth == nil {
		return DefaultMaxDepth
	}
	return *f.MaxDepth
}

// problem is one thing wrong with filters, at a JSON Pointer below the
// filters object.
type problem struct {
	path, msg string
}

// check returns what is wrong with f: bad globs and depths out of range.
func (f Filters) check() []problem {
	var out []problem
	globs := func(name string, list []string) {
		if len(list) > maxPatterns {
			out = append(out, problem{"/" + name, fmt.Sprintf("%d patterns (at most %d)", len(list), maxPatterns)})
		}
		for i, p := range list {
			if p == "" || !doublestar.ValidatePattern(p) {
				out = append(out, problem{fmt.Sprintf("/%s/%d", name, i), fmt.Sprintf("%q is not a valid glob (use *, **, ?, [a-z] and {a,b}; close every [ and {)", p)})
			}
		}
	}
	globs("path_patterns", f.PathPatterns)
	globs("exclude_paths", f.ExcludePaths)
	if d := f.Depth(); d < 0 || d > MaxMaxDepth {
		out = append(out, problem{"/max_depth", fmt.Sprintf("max_depth %d is out of range (0 to %d)", d, MaxMaxDepth)})
	}
	return out
}

// Merge returns f with g applied: additive unions the lists (keeping
// order, dropping repeats) and takes g's depth when it gives one;
// otherwise g replaces f entirely.
func (f Filters) Merge(g Filters, additive bool) Filters {
	if !additive {
		return g
	}
	union := func(a, b []string) []string {
		out := slices.Clone(a)
		for _, s := range b {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	out := Filters{
		PathPatterns: union(f.PathPatterns, g.PathPatterns),
		ExcludePaths: union(f.ExcludePaths, g.ExcludePaths),
		Languages:    union(f.Languages, g.Languages),
		MaxDepth:     f.MaxDepth,
	}
	if g.MaxDepth != nil {
		out.MaxDepth = g.MaxDepth
	}
	return out
}

// matchAny reports whether path matches one of the (validated) globs.
func matchAny(globs []string, path string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, path); ok {
			return true
		}
	}
	return false
}

// fetchRoot is the deepest directory every path pattern stays inside ("" for
// the whole tree): the literal text before a pattern's first special
// character, cut at its last slash. Fetching only paths equal to it or below
// it (an index seek) gives every node a pattern can match and the
// directories between them.
func (f Filters) fetchRoot() string {
	if len(f.PathPatterns) == 0 {
		return ""
	}
	var root string
	for i, p := range f.PathPatterns {
		lit := p
		if j := strings.IndexAny(p, `*?[{\`); j >= 0 {
			lit = p[:j]
			k := strings.LastIndex(lit, "/")
			if k < 0 {
				return ""
			}
			lit = lit[:k]
		}
		if i == 0 {
			root = lit
			continue
		}
		for !(lit == root || strings.HasPrefix(lit, root+"/")) {
			k := strings.LastIndex(root, "/")
			if k < 0 {
				return ""
			}
			root = root[:k]
		}
	}
	return root
}

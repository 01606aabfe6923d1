package tree

import (
	"cmp"
	"slices"
	"strings"
)

// shown is a node of a view: a fetched node placed in the filtered tree.
type shown struct {
	*Node
	// Depth counts the levels below the view's root (0 for a root).
	Depth int
	// Parent indexes the view's node list (-1 for a root).
	Parent   int
	Children []int
}

// view is a tree after filtering: the nodes to show in depth-first order
// (directories before files, then by path), cut at the filters' depth.
type view struct {
	nodes []*shown
	// hidden counts the nodes that matched but lie below the maximum depth.
	hidden int
}

// filter builds the view of the fetched nodes that f keeps: the nodes
// matching the path patterns and languages, minus the excluded subtrees,
// plus the directories holding them. The view's root is the deepest node
// holding all of them; depth counts from it.
func filter(nodes []*Node, f Filters) *view {
	byPath := make(map[string]*Node, len(nodes))
	for _, n := range nodes {
		byPath[n.Path] = n
	}
	children := map[string][]*Node{}
	var roots []*Node
	for _, n := range nodes {
		if _, ok := byPath[n.Parent]; ok && n.Parent != n.Path {
			children[n.Parent] = append(children[n.Parent], n)
		} else {
			roots = append(roots, n)
		}
	}
	order := func(a, b *Node) int {
		if a.Kind != b.Kind {
			return strings.Compare(a.Kind, b.Kind) // "directory" < "file"
		}
		return cmp.Compare(a.Path, b.Path)
	}
	slices.SortFunc(roots, order)
	for _, c := range children {
		slices.SortFunc(c, order)
	}
	langs := make([]string, len(f.Languages))
	for i, l := range f.Languages {
		langs[i] = strings.ToLower(l)
	}
	matches := func(n *Node) bool {
		if len(f.PathPatterns) > 0 && !matchAny(f.PathPatterns, n.Path) {
			return false
		}
		return len(langs) == 0 || n.Kind == KindFile && slices.Contains(langs, strings.ToLower(n.Language))
	}
	// kept marks the matching nodes and their containers, outside the
	// excluded subtrees.
	kept := map[*Node]bool{}
	var mark func(n *Node) bool
	mark = func(n *Node) bool {
		if len(f.ExcludePaths) > 0 && matchAny(f.ExcludePaths, n.Path) {
			return false
		}
		keep := matches(n)
		for _, c := range children[n.Path] {
			if mark(c) {
				keep = true
			}
		}
		if keep {
			kept[n] = true
		}
		return keep
	}
	var tops []*Node
	for _, r := range roots {
		if mark(r) {
			tops = append(tops, r)
		}
	}
	// Start at the deepest directory holding everything kept.
	for len(tops) == 1 && !matches(tops[0]) {
		var next []*Node
		for _, c := range children[tops[0].Path] {
			if kept[c] {
				next = append(next, c)
			}
		}
		if len(next) != 1 || next[0].Kind != KindDirectory {
			break
		}
		tops = next
	}
	v := &view{}
	depth := f.Depth()
	var walk func(n *Node, d, parent int)
	walk = func(n *Node, d, parent int) {
		if d > depth {
			v.hidden++
			for _, c := range children[n.Path] {
				if kept[c] {
					walk(c, d+1, -1)
				}
			}
			return
		}
		i := len(v.nodes)
		v.nodes = append(v.nodes, &shown{Node: n, Depth: d, Parent: parent})
		if parent >= 0 {
			v.nodes[parent].Children = append(v.nodes[parent].Children, i)
		}
		for _, c := range children[n.Path] {
			if kept[c] {
				walk(c, d+1, i)
			}
		}
	}
	for _, t := range tops {
		walk(t, 0, -1)
	}
	return v
}

// Stats count what a diagram shows.
type Stats struct {
	Nodes       int   `json:"nodes"`
	Files       int   `json:"files"`
	Directories int   `json:"directories"`
	TotalSize   int64 `json:"total_size"`
	// HiddenBelowMaxDepth counts matching nodes deeper than max_depth.
	HiddenBelowMaxDepth int `json:"hidden_below_max_depth"`
}

// stats counts the view's nodes.
func (v *view) stats() Stats {
	s := Stats{Nodes: len(v.nodes), HiddenBelowMaxDepth: v.hidden}
	for _, n := range v.nodes {
		if n.Kind == KindDirectory {
			s.Directories++
		} else {
			s.Files++
		}
		if n.Size != nil {
			s.TotalSize += *n.Size
		}
	}
	return s
}

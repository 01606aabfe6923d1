package tree

import (
	"fmt"
	"sort"
	"strings"
)

// Summary describes the part of a tree a query_file_tree call selected.
type Summary struct {
	Files       int   `json:"total_files"`
	Directories int   `json:"total_directories"`
	TotalSize   int64 `json:"total_size"`
	// Languages counts files per language ("unknown" for none).
	Languages map[string]int `json:"languages"`
	// MaxDepth is the deepest level shown below the root.
	MaxDepth int `json:"max_depth"`
	// LargestFolder is the directory below the root holding the most bytes
	// (then the most files); the root when it has no subdirectory, nil when
	// no directory is shown.
	LargestFolder *Folder `json:"largest_folder,omitempty"`
	// HiddenBelowMaxDepth counts matching nodes deeper than max_depth.
	HiddenBelowMaxDepth int `json:"hidden_below_max_depth"`
}

// Folder is a directory with the bytes and files beneath it.
type Folder struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	Files int    `json:"files"`
}

// Listed is one node of a query_file_tree answer.
type Listed struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Depth    int    `json:"depth"`
	Size     *int64 `json:"size,omitempty"`
	Language string `json:"language,omitempty"`
}

// summarize counts the view: files, directories, bytes, languages, depth
// and the largest folder (bytes and files summed bottom-up).
func (v *view) summarize() Summary {
	s := Summary{Languages: map[string]int{}, HiddenBelowMaxDepth: v.hidden}
	size := make([]int64, len(v.nodes))
	files := make([]int, len(v.nodes))
	var root *Folder                         // the root's folder while it is the only candidate
	for i := len(v.nodes) - 1; i >= 0; i-- { // children come after their parent
		n := v.nodes[i]
		s.MaxDepth = max(s.MaxDepth, n.Depth)
		if n.Size != nil {
			size[i] += *n.Size
			s.TotalSize += *n.Size
		}
		if n.Kind == KindFile {
			s.Files++
			files[i]++
			lang := n.Language
			if lang == "" {
				lang = "unknown"
			}
			s.Languages[lang]++
		} else {
			s.Directories++
			f := &Folder{Path: n.Path, Size: size[i], Files: files[i]}
			if l := s.LargestFolder; l == nil || n.Depth > 0 && (l == root || f.Size > l.Size || f.Size == l.Size && f.Files > l.Files) {
				s.LargestFolder = f
			}
			if n.Depth == 0 && s.LargestFolder == f {
				root = f
			}
		}
		if n.Parent >= 0 {
			size[n.Parent] += size[i]
			files[n.Parent] += files[i]
		}
	}
	return s
}

// answer says in one sentence what the summary holds.
func (s Summary) answer(v *view) string {
	if len(v.nodes) == 0 {
		return "No file or directory of the tree matches these filters."
	}
	where := "the tree"
	if roots := v.roots(); len(roots) == 1 {
		where = roots[0]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s holds %s in %s", where, plural(s.Files, "file"), plural(s.Directories, "directory"))
	var parts []string
	if s.TotalSize > 0 {
		parts = append(parts, FormatSize(s.TotalSize))
	}
	if len(s.Languages) > 0 {
		langs := make([]string, 0, len(s.Languages))
		for l := range s.Languages {
			langs = append(langs, l)
		}
		sort.Slice(langs, func(i, j int) bool {
			a, b := langs[i], langs[j]
			return s.Languages[a] > s.Languages[b] || s.Languages[a] == s.Languages[b] && a < b
		})
		var ls []string
		for _, l := range langs {
			ls = append(ls, fmt.Sprintf("%s %d", l, s.Languages[l]))
		}
		parts = append(parts, strings.Join(ls, ", "))
	}
	if len(parts) > 0 {
		b.WriteString(" (" + strings.Join(parts, "; ") + ")")
	}
	fmt.Fprintf(&b, ", %s deep", plural(s.MaxDepth, "level"))
	if f := s.LargestFolder; f != nil {
		fmt.Fprintf(&b, "; the largest folder is %s (%s in %s)", f.Path, FormatSize(f.Size), plural(f.Files, "file"))
	}
	b.WriteString(".")
	return b.String()
}

// roots lists the paths of the view's roots.
func (v *view) roots() []string {
	var out []string
	for _, n := range v.nodes {
		if n.Parent < 0 {
			out = append(out, n.Path)
		}
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// FormatSize writes a size for a person: bytes, KiB, MiB, GiB or TiB with
// one decimal (answers and drawn diagrams use it).
func FormatSize(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return plural(int(n), "byte")
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}

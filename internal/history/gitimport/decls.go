package gitimport

import (
	"cmp"
	"fmt"
	"go/parser"
	"go/token"
	"strings"

	"github.com/ragforge/ragforge/internal/gosrc"
)

// decl is one declared name of a Go file version: its identity within
// the file and its lines.
type decl struct {
	// key is the name, "Recv.Name" for a method; a name declared again in
	// the same file (init, or code that does not compile) adds "#n" for
	// its n-th repetition in file order, so each keeps a key.
	key, name  string
	start, end int
	// fn is true for a function or method.
	fn bool
}

// decls lists the declarations of one Go file version with the lines the
// code graph gives them (package gosrc). An error means the file does not
// parse.
func decls(src []byte) ([]decl, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	tf := fset.File(f.Pos())
	var out []decl
	seen := map[string]int{}
	for _, d := range f.Decls {
		for _, g := range gosrc.Decls(d) {
			key := g.Name
			if g.Kind == gosrc.Method {
				key = cmp.Or(g.Recv, "?") + "." + g.Name
			}
			if n := seen[key]; n > 0 {
				seen[key] = n + 1
				key = fmt.Sprintf("%s#%d", key, n)
			} else {
				seen[key] = 1
			}
			start, end := g.Lines(tf)
			out = append(out, decl{key: key, name: g.Name, start: start, end: end, fn: g.Kind == gosrc.Function || g.Kind == gosrc.Method})
		}
	}
	return out, nil
}

// isGo reports whether a path is a Go source file, the only kind whose
// hunks are mapped to declarations.
func isGo(path string) bool { return strings.HasSuffix(path, ".go") }

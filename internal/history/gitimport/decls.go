package gitimport

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// decl is one declared name of a Go file version: its identity within
// the file and its lines.
type decl struct {
	// key is the name, "Recv.Name" for a method; a name declared again in
	// the same file (init, or code that does not compile) adds "#n" for
	// its n-th repetition in file order, so each keeps a key.
	key, name  string
	start, end int
}

// decls lists the declarations of one Go file version with the lines the
// code graph gives them (internal/fixture's rules: a function from its
// keyword to its closing brace, a spec of a grouped declaration its own
// lines, an ungrouped declaration the whole of it; no doc comments; no
// blank names). An error means the file does not parse.
func decls(src []byte) ([]decl, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	var out []decl
	seen := map[string]int{}
	add := func(key, name string, from, to token.Pos) {
		if n := seen[key]; n > 0 {
			seen[key] = n + 1
			key = fmt.Sprintf("%s#%d", key, n)
		} else {
			seen[key] = 1
		}
		out = append(out, decl{key: key, name: name, start: line(from), end: line(to - 1)})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "_" {
				continue
			}
			key := d.Name.Name
			if r := receiverType(d); r != "" {
				key = r + "." + key
			} else if d.Recv != nil {
				key = "?." + key
			}
			add(key, d.Name.Name, d.Pos(), d.End())
		case *ast.GenDecl:
			grouped := d.Lparen.IsValid()
			for _, spec := range d.Specs {
				from, to := d.Pos(), d.End()
				if grouped {
					from, to = spec.Pos(), spec.End()
				}
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					if sp.Name.Name != "_" {
						add(sp.Name.Name, sp.Name.Name, from, to)
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.Name != "_" {
							add(n.Name, n.Name, from, to)
						}
					}
				}
			}
		}
	}
	return out, nil
}

// receiverType is the name of a method's receiver type, without pointer
// or type parameters.
func receiverType(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// isGo reports whether a path is a Go source file, the only kind whose
// hunks are mapped to declarations.
func isGo(path string) bool { return strings.HasSuffix(path, ".go") }

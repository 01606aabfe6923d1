// Package gosrc names a Go file's top-level declarations the way the code
// graph counts them, so that the loader (internal/fixture), which makes a
// Scope of each, and the git import (internal/history/gitimport), which
// finds them again in every version of a file, agree on what a
// declaration is and which lines it spans.
//
// Each declared name is one declaration: a function or method from its
// keyword to its closing brace; a spec of a grouped declaration (var (...),
// const (...), type (...)) its own lines; an ungrouped declaration the
// whole of it, keyword included. Doc comments are not part of it. Blank
// names (_) declare nothing that can be looked up and are left out.
package gosrc

import (
	"go/ast"
	"go/token"
)

// Kinds of declaration, as the code graph's Scope.type stores them.
const (
	Function  = "function"
	Method    = "method"
	Type      = "type"
	Interface = "interface" // a type whose underlying type is an interface literal
	Var       = "var"
	Const     = "const"
)

// Decl is one declared name.
type Decl struct {
	Name, Kind string
	// Recv is a method's receiver type name, without pointer or type
	// parameters ("" for anything else, or when it has none).
	Recv string
	// From is the first token's position, To the end of the last.
	From, To token.Pos
	// Node is the FuncDecl, TypeSpec or ValueSpec that declares it.
	Node ast.Node
}

// Decls returns the names one top-level declaration declares, in order.
func Decls(decl ast.Decl) []Decl {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if d.Name.Name == "_" {
			return nil
		}
		kind := Function
		if d.Recv != nil {
			kind = Method
		}
		return []Decl{{Name: d.Name.Name, Kind: kind, Recv: ReceiverType(d), From: d.Pos(), To: d.End(), Node: d}}
	case *ast.GenDecl:
		grouped := d.Lparen.IsValid()
		var out []Decl
		for _, spec := range d.Specs {
			from, to := d.Pos(), d.End()
			if grouped {
				from, to = spec.Pos(), spec.End()
			}
			switch sp := spec.(type) {
			case *ast.TypeSpec:
				kind := Type
				if _, ok := sp.Type.(*ast.InterfaceType); ok {
					kind = Interface
				}
				if sp.Name.Name != "_" {
					out = append(out, Decl{Name: sp.Name.Name, Kind: kind, From: from, To: to, Node: sp})
				}
			case *ast.ValueSpec:
				kind := Var
				if d.Tok == token.CONST {
					kind = Const
				}
				for _, n := range sp.Names {
					if n.Name != "_" {
						out = append(out, Decl{Name: n.Name, Kind: kind, From: from, To: to, Node: sp})
					}
				}
			}
		}
		return out
	}
	return nil
}

// Lines is the declaration's first and last line in f, the file that
// holds it.
func (d Decl) Lines(f *token.File) (start, end int) { return f.Line(d.From), f.Line(d.To - 1) }

// ReceiverType is the name of a method's receiver type, without pointer or
// type parameters; "" for a function.
func ReceiverType(fd *ast.FuncDecl) string {
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

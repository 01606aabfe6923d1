package history

import (
	"context"
	"go/parser"
	"go/token"

	"github.com/ragforge/ragforge/internal/gosrc"
	"github.com/ragforge/ragforge/internal/history/gitimport"
)

// span is a function or method of a file version: its name (without a
// receiver, which a history keeps through a change of) and its lines.
type span struct {
	name       string
	start, end int
}

// versions reads file versions through one `git cat-file --batch` and
// lists their functions and methods, caching by REV:PATH.
type versions struct {
	blobs *gitimport.Blobs
	cache map[string]parsed
}

// parsed is a file version's functions; ok is false when the version is
// missing or does not parse.
type parsed struct {
	funcs []span
	ok    bool
}

func newVersions(ctx context.Context, dir string) (*versions, error) {
	b, err := gitimport.OpenBlobs(ctx, dir)
	if err != nil {
		return nil, err
	}
	return &versions{blobs: b, cache: map[string]parsed{}}, nil
}

func (v *versions) close() { v.blobs.Close() }

// funcs lists the functions and methods of path at rev, each with the
// lines the code graph gives it (package gosrc); ok is false when the
// version is missing or does not parse.
func (v *versions) funcs(rev, path string) (funcs []span, ok bool, err error) {
	name := rev + ":" + path
	if p, seen := v.cache[name]; seen {
		return p.funcs, p.ok, nil
	}
	src, found, err := v.blobs.Read(name)
	if err != nil {
		return nil, false, err
	}
	var p parsed
	fset := token.NewFileSet()
	if f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution); found && err == nil {
		p.ok = true
		tf := fset.File(f.Pos())
		for _, d := range f.Decls {
			for _, g := range gosrc.Decls(d) {
				if g.Kind == gosrc.Function || g.Kind == gosrc.Method {
					s, e := g.Lines(tf)
					p.funcs = append(p.funcs, span{name: g.Name, start: s, end: e})
				}
			}
		}
	}
	v.cache[name] = p
	return p.funcs, p.ok, nil
}

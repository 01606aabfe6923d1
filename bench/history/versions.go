package history

import (
	"bufio"
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/ragforge/ragforge/internal/gosrc"
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
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	cache map[string]parsed
}

// parsed is a file version's functions; ok is false when the version is
// missing or does not parse.
type parsed struct {
	funcs []span
	ok    bool
}

func newVersions(ctx context.Context, dir string) (*versions, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return &versions{cmd: cmd, in: in, out: bufio.NewReader(out), cache: map[string]parsed{}}, nil
}

func (v *versions) close() {
	_ = v.in.Close()
	_ = v.cmd.Wait()
}

// funcs lists the functions and methods of path at rev, each with the
// lines the code graph gives it (package gosrc); ok is false when the
// version is missing or does not parse.
func (v *versions) funcs(rev, path string) (funcs []span, ok bool, err error) {
	name := rev + ":" + path
	if p, seen := v.cache[name]; seen {
		return p.funcs, p.ok, nil
	}
	src, err := v.read(name)
	if err != nil {
		return nil, false, err
	}
	var p parsed
	fset := token.NewFileSet()
	if f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution); src != nil && err == nil {
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

// read returns an object's content, nil when the repository has none.
func (v *versions) read(name string) ([]byte, error) {
	if _, err := io.WriteString(v.in, name+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	header, err := v.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	if strings.HasSuffix(strings.TrimSpace(header), " missing") {
		return nil, nil
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file: header %q: %w", header, err)
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(v.out, data); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return data[:size], nil
}

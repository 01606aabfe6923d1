package main

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestDemoAnswersTheSampleQuestionsOnNetHTTPThroughServe asks the
// quickstart's questions the way scripts/quickstart does: net/http loaded
// by the fixture, a real `serve` over streamable HTTP with a bearer token,
// the Go SDK's MCP client. Each answer must be the one computed from the
// parsed source, in the order asked for; `demo` must print them and exit
// 0 with the token, and say how to give one without it.
func TestDemoAnswersTheSampleQuestionsOnNetHTTPThroughServe(t *testing.T) {
	bin := buildCommand(t)
	d := neo4jtest.Open(t)
	g := fixturetest.LoadNetHTTP(t, d)
	dir := t.TempDir()
	tokens, tokenFile := filepath.Join(dir, "tokens.yaml"), filepath.Join(dir, "token")
	if err := os.WriteFile(tokens, []byte("- token: s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startHTTPServer(t, bin, append([]string{"--tokens", tokens}, neo4jtest.Flags(t)...)...)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out strings.Builder
	answers, err := askSampleQuestions(ctx, s.url, "s3cret", &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("demo output:\n%s", out.String())
	want := append(sampleAnswersFrom(g), callersByTheTypeChecker(t, "net/http", "DetectContentType"))
	for i, a := range answers {
		var got []string
		for _, e := range a.Entities {
			got = append(got, row(sampleQuestions[i].columns(e)...))
		}
		if len(got) == 0 || !slices.Equal(got, want[i]) || a.Truncated != (i == 0) {
			t.Errorf("question %d, %q: got (truncated %v)\n  %s\nwant\n  %s", i+1, sampleQuestions[i].question,
				a.Truncated, strings.Join(got, "\n  "), strings.Join(want[i], "\n  "))
		}
	}
	if len(answers) != len(sampleQuestions) {
		t.Fatalf("%d answers to %d questions", len(answers), len(sampleQuestions))
	}

	code, stdout, stderr := execute(t, "demo", "--url", s.url, "--token-file", tokenFile)
	first, _, _ := strings.Cut(want[3][0], " | ")
	if code != 0 || !strings.Contains(stdout, sampleQuestions[3].question) || !strings.Contains(stdout, first) {
		t.Errorf("demo --token-file: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = execute(t, "demo", "--url", s.url)
	if code != 1 || !strings.Contains(stderr, "connecting to "+s.url) || !strings.Contains(stderr, "the server wants a bearer token: give --token-file") {
		t.Errorf("demo without the token: exit %d, %s; want exit 1 saying to give --token-file", code, stderr)
	}
}

// sampleAnswersFrom computes the answers to sampleQuestions from the parsed
// source, each entity as the row of the question's columns, in the
// order the question asks for (ties by uuid, as the planner breaks them).
func sampleAnswersFrom(g *fixture.Graph) [][]string {
	inNetHTTP := func(s fixture.Scope) bool {
		return strings.HasPrefix(s.File, "net/http/") && !strings.HasSuffix(s.File, "_test.go")
	}
	lines := func(s fixture.Scope) int { return s.EndLine - s.StartLine + 1 }
	byFileName := func(a, b fixture.Scope) int {
		return cmp.Or(strings.Compare(a.File, b.File), strings.Compare(a.Name, b.Name), strings.Compare(a.UUID, b.UUID))
	}
	handlerTypes := map[string]bool{}
	for _, s := range g.Scopes {
		if s.Name == "ServeHTTP" && s.Parent != "" {
			handlerTypes[s.Parent] = true
		}
	}
	var largest, handlers, returning []fixture.Scope
	for _, s := range g.Scopes {
		if !inNetHTTP(s) {
			continue
		}
		if s.Type == "function" || s.Type == "method" {
			largest = append(largest, s)
		}
		if handlerTypes[s.UUID] {
			handlers = append(handlers, s)
		}
		if s.Type == "function" && (strings.HasSuffix(s.Signature, ") Handler") || strings.HasSuffix(s.Signature, ") http.Handler")) {
			returning = append(returning, s)
		}
	}
	slices.SortFunc(largest, func(a, b fixture.Scope) int {
		return cmp.Or(lines(b)-lines(a), strings.Compare(a.UUID, b.UUID))
	})
	slices.SortFunc(handlers, byFileName)
	slices.SortFunc(returning, byFileName)
	var want [3][]string
	for _, s := range largest[:10] {
		want[0] = append(want[0], row(fmt.Sprint(lines(s), " lines"), s.Name, fmt.Sprint(s.File, ":", s.StartLine)))
	}
	for _, s := range handlers {
		want[1] = append(want[1], row(s.Name, s.File))
	}
	for _, s := range returning {
		want[2] = append(want[2], row(s.Signature, s.File))
	}
	return want[:]
}

// row is one entity of an answer as the test compares it: its columns,
// separated by " | ".
func row(columns ...any) string {
	cells := make([]string, len(columns))
	for i, c := range columns {
		cells[i] = fmt.Sprint(c)
	}
	return strings.Join(cells, " | ")
}

// callersByTheTypeChecker computes, with go/packages and Go's type checker
// alone (not through the fixture), the answer to the demo's call-graph
// question: the top-level functions and methods of the packages under
// GOROOT/src/dir (test files left out) whose bodies, closures included,
// call the function name of package dir, as "signature | file:line" rows
// ordered by file and line.
func callersByTheTypeChecker(t *testing.T, dir, name string) []string {
	t.Helper()
	src, err := fixture.GOROOTSrc()
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir: filepath.Join(src, dir), Env: append(os.Environ(), "CGO_ENABLED=0"), Fset: token.NewFileSet()}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var target types.Object
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.ID, p.Errors)
		}
		if p.PkgPath == dir {
			target = p.Types.Scope().Lookup(name)
		}
	}
	if _, ok := target.(*types.Func); !ok {
		t.Fatalf("%s.%s is no function: %v", dir, name, target)
	}
	type caller struct {
		file      string
		line      int
		signature string
	}
	var callers []caller
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, decl := range f.Decls {
				calls := false
				ast.Inspect(decl, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						fun := ast.Unparen(call.Fun)
						if sel, ok := fun.(*ast.SelectorExpr); ok {
							fun = sel.Sel
						}
						if id, ok := fun.(*ast.Ident); ok && p.TypesInfo.Uses[id] == target {
							calls = true
						}
					}
					return !calls
				})
				if !calls {
					continue
				}
				fd, ok := decl.(*ast.FuncDecl)
				if !ok {
					t.Fatalf("%s calls %s outside a function; this test renders functions only", cfg.Fset.Position(decl.Pos()), name)
				}
				pos := cfg.Fset.Position(fd.Pos())
				text, err := os.ReadFile(pos.Filename)
				if err != nil {
					t.Fatal(err)
				}
				rel, _ := filepath.Rel(src, pos.Filename)
				callers = append(callers, caller{filepath.ToSlash(rel), pos.Line,
					strings.Join(strings.Fields(string(text[pos.Offset:cfg.Fset.Position(fd.Body.Lbrace).Offset])), " ")})
			}
		}
	}
	slices.SortFunc(callers, func(a, b caller) int { return cmp.Or(strings.Compare(a.file, b.file), a.line-b.line) })
	var rows []string
	for _, c := range callers {
		rows = append(rows, row(c.signature, fmt.Sprint(c.file, ":", c.line)))
	}
	return rows
}

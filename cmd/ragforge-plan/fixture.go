package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ragforge/ragforge/internal/fixture"
)

// runFixture loads a Go source tree into Neo4j as the code graph of the
// code-RAG example config, so that a developer, a demo or a benchmark has a
// real graph to run tool calls on (`ragforge-plan fixture load`).
func runFixture(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "load" {
		fmt.Fprintln(stderr, "usage: ragforge-plan fixture load [--src DIR] [--scale N] [--batch N] [--dry-run] [--uri URI --user U --password-file F --database DB]")
		return 2
	}
	fs := newFlagSet("fixture load", stderr,
		"usage: ragforge-plan fixture load [flags]",
	)
	src := fs.String("src", "", "Go source tree to load (default $(go env GOROOT)/src)")
	scale := fs.Int("scale", 1, "load every Scope this many times (synthetic copies, for benchmarks)")
	batch := fs.Int("batch", fixture.DefaultBatchSize, "rows per UNWIND statement")
	dryRun := fs.Bool("dry-run", false, "parse, type-check and print the counts; write nothing")
	conn := addConnectionFlags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ragforge-plan fixture load: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *scale < 1 {
		fmt.Fprintln(stderr, "ragforge-plan fixture load: --scale must be at least 1")
		return 2
	}
	if *src == "" {
		dir, err := fixture.GOROOTSrc()
		if err != nil {
			fmt.Fprintf(stderr, "ragforge-plan fixture load: %v (pass --src)\n", err)
			return 1
		}
		*src = dir
	}

	start := time.Now()
	g, err := fixture.Parse(*src)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan fixture load: %v\n", err)
		return 1
	}
	g = g.Scale(*scale)
	n, r := g.Nodes(), g.Relationships()
	fmt.Fprintf(stdout, "parsed and type-checked %s in %.1fs: %d Directory, %d File, %d Scope, %d ExternalLibrary nodes; %d CONTAINS, %d IMPORTS, %d CALLS, %d DEPENDS_ON relationships",
		g.Source, time.Since(start).Seconds(), n["Directory"], n["File"], n["Scope"], n["ExternalLibrary"],
		r["CONTAINS"], r["IMPORTS"], r[fixture.Calls], r[fixture.DependsOn])
	if g.ParseErrors > 0 {
		fmt.Fprintf(stdout, " (%d files did not parse: no Scopes for them)", g.ParseErrors)
	}
	fmt.Fprintln(stdout)
	reportSyntaxOnly(stdout, g.SyntaxOnly)
	if *dryRun {
		return 0
	}

	d, err := conn.open(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan fixture load: %v\n", err)
		return 1
	}
	defer d.Close(context.Background())
	if _, err := fixture.Load(ctx, d, g, fixture.LoadOptions{Database: conn.database, BatchSize: *batch, Progress: stdout}); err != nil {
		fmt.Fprintf(stderr, "ragforge-plan fixture load: %v\n", err)
		return 1
	}
	return 0
}

// reportSyntaxOnly lists the files whose CALLS and DEPENDS_ON were
// resolved by name rather than by the type checker, and why, since their
// edges are approximate (no method calls; a local named like a
// package-level declaration counts as a use of it).
func reportSyntaxOnly(w io.Writer, parts []fixture.SyntaxOnly) {
	if len(parts) == 0 {
		return
	}
	files := 0
	for _, p := range parts {
		files += len(p.Files)
	}
	fmt.Fprintf(w, "references of %d files resolved by name only, without types:\n", files)
	for _, p := range parts {
		shown := p.Files
		more := ""
		if len(shown) > 5 {
			shown, more = shown[:5], fmt.Sprintf(" and %d more", len(p.Files)-5)
		}
		fmt.Fprintf(w, "  %s (package %s): %s%s: %s\n", p.Dir, p.Package, strings.Join(shown, ", "), more, p.Reason)
	}
}

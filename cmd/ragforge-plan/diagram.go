package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/tree"
	"github.com/ragforge/ragforge/internal/tree/diagram"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// runDiagram draws a saved diagram (a create_diagram preset) for a person:
// `diagram render ID CONFIG... --format svg|html [-o FILE]`. The tree is
// read again, so the picture shows the files as they are now.
func runDiagram(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("diagram", stderr,
		"usage: ragforge-plan diagram render ID CONFIG... [--format svg|html] [-o FILE] [--tenant T] [--uri URI --user U --password-file F --database DB]",
		"  render  draw the saved diagram ID (from create_diagram) as SVG, or as an HTML page embedding the SVG",
	)
	conn := addConnectionFlags(fs)
	format := fs.String("format", "svg", "output: svg, or html (a standalone page)")
	out := fs.String("o", "", "write to FILE instead of standard output")
	tn := fs.String("tenant", "", "the tenant whose diagram it is (needed when the config declares tenant: a diagram is found only within the tenant that saved it)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) < 3 || pos[0] != "render" || (*format != "svg" && *format != "html") {
		if *format != "svg" && *format != "html" {
			fmt.Fprintf(stderr, "ragforge-plan diagram: unknown format %q (allowed: svg, html)\n", *format)
		}
		fs.Usage()
		return 2
	}
	id, configs := pos[1], pos[2:]
	fail := func(err error) int {
		fmt.Fprintf(stderr, "ragforge-plan diagram: %v\n", err)
		return 1
	}
	m, err := config.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if len(m.Trees) == 0 {
		return fail(fmt.Errorf("the config declares no tree (trees:), so it has no diagrams"))
	}
	if m.Tenant != nil {
		if *tn == "" {
			return fail(fmt.Errorf("the config scopes every diagram to a tenant: give --tenant, the tenant whose diagram %s is", id))
		}
		ctx = tenant.With(ctx, *tn)
	}
	d, err := conn.open(ctx)
	if err != nil {
		return fail(err)
	}
	defer d.Close(context.Background())
	r, err := tree.New(m, tools.Env{Driver: d, Database: conn.database})
	if err != nil {
		return fail(err)
	}
	dg, err := r.Diagram(ctx, id)
	if err != nil {
		return fail(err)
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fail(err)
		}
		defer f.Close()
		w = f
	}
	draw := diagram.SVG
	if *format == "html" {
		draw = diagram.HTML
	}
	if err := draw(w, dg); err != nil {
		return fail(err)
	}
	if f, ok := w.(*os.File); ok && f != os.Stdout {
		if err := f.Close(); err != nil {
			return fail(err)
		}
	}
	fmt.Fprintf(stderr, "%s: %d nodes (%d directories, %d files)\n", dg.Name, dg.Stats.Nodes, dg.Stats.Directories, dg.Stats.Files)
	return 0
}

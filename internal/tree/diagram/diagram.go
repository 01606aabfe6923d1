// Package diagram draws a laid-out tree diagram (package tree) for a
// person: an SVG picture with a box per node and a curve per edge, at the
// diagram's own coordinates so it stays readable however large the tree
// is, or a standalone HTML page embedding that picture with the diagram's
// name, filters and statistics.
package diagram

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/ragforge/ragforge/internal/tree"
)

// Margin is the space around the drawing, in pixels.
const Margin = 24

// Colours of the two node kinds (fill, stroke) and of edges.
const (
	directoryFill, directoryStroke = "#dbeafe", "#2563eb"
	fileFill, fileStroke           = "#ffffff", "#64748b"
	edgeStroke                     = "#94a3b8"
)

// Approximate glyph widths of the fonts used, to shorten labels that would
// overflow their box.
const (
	labelFontSize, labelCharWidth = 13, 7.4
	sizeFontSize, sizeCharWidth   = 11, 6.2
)

// Size returns the drawing's width and height in pixels, margins included.
func Size(d *tree.Diagram) (width, height int) {
	maxX, maxY := 0.0, 0.0
	for _, n := range d.Nodes {
		maxX = math.Max(maxX, n.Position.X+float64(n.Width))
		maxY = math.Max(maxY, n.Position.Y+float64(n.Height))
	}
	if len(d.Nodes) == 0 {
		maxX, maxY = 320, 40
	}
	return int(math.Ceil(maxX)) + 2*Margin, int(math.Ceil(maxY)) + 2*Margin
}

// SVG writes the diagram as a standalone SVG document: edges as curves from
// a container's right side to each child's left side, nodes as rounded
// boxes (directories blue) with the name and, for sized nodes, the size;
// hovering a box shows its full path, language and size.
func SVG(w io.Writer, d *tree.Diagram) error {
	width, height := Size(d)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(d.Name))
	b.WriteString(`<rect width="100%" height="100%" fill="#f8fafc"/>` + "\n")
	fmt.Fprintf(&b, `<g transform="translate(%d %d)">`+"\n", Margin, Margin)
	if len(d.Nodes) == 0 {
		b.WriteString(`<text x="0" y="24" font-size="14" fill="#475569">No file or directory matches the filters.</text>` + "\n")
	}
	at := make(map[string]tree.Flow, len(d.Nodes))
	for _, n := range d.Nodes {
		at[n.ID] = n
	}
	fmt.Fprintf(&b, `<g fill="none" stroke="%s" stroke-width="1.5">`+"\n", edgeStroke)
	for _, e := range d.Edges {
		s, t := at[e.Source], at[e.Target]
		x1, y1 := s.Position.X+float64(s.Width), s.Position.Y+float64(s.Height)/2
		x2, y2 := t.Position.X, t.Position.Y+float64(t.Height)/2
		mx := (x1 + x2) / 2
		fmt.Fprintf(&b, `<path d="M%g %g C%g %g %g %g %g %g"/>`+"\n", x1, y1, mx, y1, mx, y2, x2, y2)
	}
	b.WriteString("</g>\n")
	for _, n := range d.Nodes {
		fill, stroke := fileFill, fileStroke
		if n.Data.Kind == tree.KindDirectory {
			fill, stroke = directoryFill, directoryStroke
		}
		x, y := n.Position.X, n.Position.Y
		fmt.Fprintf(&b, `<g><title>%s</title>`, esc(hover(n.Data)))
		fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%d" height="%d" rx="6" fill="%s" stroke="%s" stroke-width="1.5"/>`, x, y, n.Width, n.Height, fill, stroke)
		room := float64(n.Width) - 20
		if n.Data.Size != nil {
			size := tree.FormatSize(*n.Data.Size)
			room -= float64(len(size))*sizeCharWidth + 8
			fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="%d" fill="#64748b" text-anchor="end">%s</text>`, x+float64(n.Width)-10, y+float64(n.Height)/2+4, sizeFontSize, esc(size))
		}
		label := n.Data.Label
		if n.Data.Kind == tree.KindDirectory {
			label += "/"
		}
		fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="%d" fill="#0f172a">%s</text></g>`+"\n", x+10, y+float64(n.Height)/2+4.5, labelFontSize, esc(shorten(label, int(room/labelCharWidth))))
	}
	b.WriteString("</g>\n</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// hover is a node's tooltip: its path, language and size.
func hover(d tree.FlowData) string {
	s := d.Path
	if d.Language != "" {
		s += " · " + d.Language
	}
	if d.Size != nil {
		s += " · " + tree.FormatSize(*d.Size)
	}
	return s
}

// shorten cuts s to at most n characters, ending in an ellipsis when cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}

var esc = template.HTMLEscapeString

//go:embed page.html
var pageSource string

var page = template.Must(template.New("page").Parse(pageSource))

// HTML writes a standalone page (no scripts, no external resources) with
// the diagram's name, description, filters and statistics above its SVG.
func HTML(w io.Writer, d *tree.Diagram) error {
	var svg strings.Builder
	if err := SVG(&svg, d); err != nil {
		return err
	}
	return page.Execute(w, struct {
		D         *tree.Diagram
		SVG       template.HTML
		TotalSize string
	}{d, template.HTML(svg.String()), tree.FormatSize(d.Stats.TotalSize)})
}

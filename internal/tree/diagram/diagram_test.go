package diagram

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/tree"
)

func sized(n int64) *int64 { return &n }

func sample() *tree.Diagram {
	node := func(id, kind string, x, y float64, size *int64) tree.Flow {
		label := id[strings.LastIndex(id, "/")+1:]
		return tree.Flow{ID: id, Type: kind, Position: tree.Point{X: x, Y: y}, Width: tree.NodeWidth, Height: tree.NodeHeight,
			Data: tree.FlowData{Label: label, Path: id, Kind: kind, Size: size}}
	}
	return &tree.Diagram{
		ID: "diagram-x", Name: `a <b> & "c"`, Tree: "files",
		Nodes: []tree.Flow{
			node("r", tree.KindDirectory, 0, 24, nil),
			node("r/<img src=x onerror=alert(1)>.go", tree.KindFile, tree.ColumnStep, 0, sized(2048)),
			node("r/a-very-long-file-name-that-cannot-fit-in-its-box.go", tree.KindFile, tree.ColumnStep, tree.RowStep, sized(1)),
		},
		Edges: []tree.Edge{{ID: "1", Source: "r", Target: "r/<img src=x onerror=alert(1)>.go"}, {ID: "2", Source: "r", Target: "r/a-very-long-file-name-that-cannot-fit-in-its-box.go"}},
		Stats: tree.Stats{Nodes: 3, Files: 2, Directories: 1, TotalSize: 2049},
	}
}

// elements counts an XML document's elements by name, failing on bad XML.
func elements(t *testing.T, doc string) map[string]int {
	t.Helper()
	out := map[string]int{}
	dec := xml.NewDecoder(strings.NewReader(doc))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, doc)
		}
		if se, ok := tok.(xml.StartElement); ok {
			out[se.Name.Local]++
		}
	}
}

func TestSVGDrawsABoxPerNodeAndACurvePerEdgeWithNamesEscaped(t *testing.T) {
	var b bytes.Buffer
	if err := SVG(&b, sample()); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	n := elements(t, svg)
	if n["rect"] != 4 || n["path"] != 2 || n["svg"] != 1 {
		t.Errorf("elements %v, want 3 boxes and a background, 2 curves", n)
	}
	if strings.Contains(svg, "<img") || !strings.Contains(svg, "&lt;img src=x onerror=alert(1)&gt;.go") {
		t.Error("a node name was not escaped")
	}
	if !strings.Contains(svg, "a-very-long-file-na…") || !strings.Contains(svg, "2.0 KiB") {
		t.Error("long labels are not shortened or sizes not shown")
	}
	w, h := Size(sample())
	if w != 2*tree.ColumnStep-(tree.ColumnStep-tree.NodeWidth)+2*Margin || h != tree.RowStep+tree.NodeHeight+2*Margin {
		t.Errorf("size %dx%d", w, h)
	}
}

func TestHTMLIsAStandalonePageAroundTheSVG(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, sample()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<!doctype html>", "<title>a &lt;b&gt; &amp; &#34;c&#34;</title>", "<svg ", "1 directories, 2 files, 2.0 KiB"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "http://") && !strings.Contains(page, `xmlns="http://www.w3.org/2000/svg"`) {
		t.Error("the page has a script or an external resource")
	}
	var empty bytes.Buffer
	if err := SVG(&empty, &tree.Diagram{Name: "none"}); err != nil || !strings.Contains(empty.String(), "No file or directory matches") {
		t.Errorf("empty diagram: %v %s", err, empty.String())
	}
}

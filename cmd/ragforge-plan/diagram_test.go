package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

const fileTree = "../../testdata/configs/valid/file-tree.yaml"

// Screenshot size of the rendered page, in CSS pixels.
const shotWidth, shotHeight = 1280, 1000

// chromium finds headless Chromium (Debian's package chromium, which
// scripts/test installs); without it the test skips, or fails under CI=true.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH (scripts/test installs it: apt-get install -y chromium)")
	}
	t.Skip("no chromium on PATH: apt-get install -y chromium")
	return ""
}

func TestDiagramRenderDrawsASavedDiagramThatChromiumShows(t *testing.T) {
	d := neo4jtest.Open(t)
	fixturetest.LoadNetHTTP(t, d)
	flags := serverFlags(t)
	code, out, errOut := execute(t, append([]string{"call", fileTree, "--serve-contradicted", "--tool", "create_diagram", "--format", "json",
		"--args", `{"name": "net/http without tests", "filters": {"exclude_paths": ["**/*_test.go"]}}`}, flags...)...)
	if code != 0 {
		t.Fatalf("create_diagram: exit %d: %s", code, errOut)
	}
	var created struct {
		ID    string `json:"diagram_id"`
		Nodes []any  `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &created); err != nil || created.ID == "" {
		t.Fatalf("create_diagram output %q: %v", out, err)
	}

	// SVG on standard output: well-formed, a box per node.
	code, svg, errOut := execute(t, append([]string{"diagram", "render", created.ID, fileTree}, flags...)...)
	if code != 0 {
		t.Fatalf("render svg: exit %d: %s", code, errOut)
	}
	rects, _ := readSVG(t, svg)
	if rects != len(created.Nodes)+1 { // and the background
		t.Errorf("%d rects for %d nodes", rects, len(created.Nodes))
	}

	// HTML to a file, shown by headless Chromium.
	browser := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "diagram.html")
	if code, _, errOut := execute(t, append([]string{"diagram", "render", created.ID, fileTree, "--format", "html", "-o", page}, flags...)...); code != 0 {
		t.Fatalf("render html: exit %d: %s", code, errOut)
	}
	shot := filepath.Join(dir, "diagram.png")
	if keep := os.Getenv("RAGFORGE_SCREENSHOT"); keep != "" {
		shot = keep // to look at it
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+shot,
		fmt.Sprintf("--window-size=%d,%d", shotWidth, shotHeight), "file://"+page)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, b)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != shotWidth || b.Dy() != shotHeight {
		t.Errorf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), shotWidth, shotHeight)
	}
	// Not blank: a good share of non-white pixels, among them the blue of
	// directory boxes.
	inked, blue := 0, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r < 240 || g < 240 || bl < 240 {
				inked++
			}
			if r > 200 && r < 235 && g > 220 && g < 245 && bl > 245 { // #dbeafe
				blue++
			}
		}
	}
	if total := b.Dx() * b.Dy(); inked < total/50 || blue < 500 {
		t.Errorf("the screenshot looks blank: %d of %d pixels inked, %d directory-blue", inked, total, blue)
	}

	if code, _, errOut := execute(t, append([]string{"diagram", "render", "diagram-nope", fileTree}, flags...)...); code != 1 || !strings.Contains(errOut, "unknown diagram id") {
		t.Errorf("unknown id: exit %d, stderr %s", code, errOut)
	}
}

// readSVG checks that svg is well-formed XML and returns its rect elements
// (the background and a box per node) and its text, concatenated.
func readSVG(t *testing.T, svg string) (rects int, text string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("the SVG is not well-formed XML: %v", err)
			}
			return rects, text
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if x.Name.Local == "rect" {
				rects++
			}
		case xml.CharData:
			text += string(x)
		}
	}
}

// TestDiagramRenderOfATenantConfigDrawsOnlyTheTenantsOwnDiagram: with a
// tenant-scoped config, render needs --tenant; it draws a diagram for the
// tenant that saved it (her files only) and tells another tenant the id is
// unknown.
func TestDiagramRenderOfATenantConfigDrawsOnlyTheTenantsOwnDiagram(t *testing.T) {
	const teamDrive = "../../testdata/configs/valid/team-drive.yaml"
	d := neo4jtest.Open(t)
	fixturetest.LoadTwoDrives(t, d)
	flags := serverFlags(t)
	code, out, errOut := execute(t, append([]string{"call", teamDrive, "--serve-contradicted", "--tool", "create_diagram", "--format", "json", "--tenant", "alice",
		"--args", `{"name": "alice's drive", "filters": {"path_patterns": ["net/http/*"]}}`}, flags...)...)
	if code != 0 {
		t.Fatalf("create_diagram: exit %d: %s", code, errOut)
	}
	var created struct {
		ID string `json:"diagram_id"`
	}
	if err := json.Unmarshal([]byte(out), &created); err != nil || created.ID == "" {
		t.Fatalf("create_diagram output %q: %v", out, err)
	}
	code, svg, errOut := execute(t, append([]string{"diagram", "render", created.ID, teamDrive, "--tenant", "alice"}, flags...)...)
	if code != 0 {
		t.Fatalf("render as alice: exit %d: %s", code, errOut)
	}
	if _, text := readSVG(t, svg); !strings.Contains(text, fixturetest.AliceOnly) || strings.Contains(text, fixturetest.BobOnly) {
		t.Errorf("alice's diagram does not show her own document, or shows bob's: %s", text)
	}
	for tn, want := range map[string]string{"bob": "unknown diagram id", "": "give --tenant"} {
		args := []string{"diagram", "render", created.ID, teamDrive}
		if tn != "" {
			args = append(args, "--tenant", tn)
		}
		if code, _, errOut := execute(t, append(args, flags...)...); code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("render as %q: exit %d, stderr %s; want exit 1 saying %q", tn, code, errOut, want)
		}
	}
}

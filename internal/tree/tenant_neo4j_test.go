package tree_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/internal/tree"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// teamDrive is net/http loaded as alice's and bob's drives
// (fixturetest.LoadTwoDrives) with an engine of the team-drive example
// config that has no default tenant: every call binds its user.
type teamDrive struct {
	g *fixture.Graph
	d neo4j.DriverWithContext
	e *engine.Engine
}

func loadTeamDrive(t *testing.T) *teamDrive {
	t.Helper()
	d := neo4jtest.Open(t)
	g := fixturetest.LoadTwoDrives(t, d)
	m, err := config.Load("../../testdata/configs/valid/team-drive.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(t.Context(), m, engine.Options{Driver: d, Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}
	return &teamDrive{g: g, d: d, e: e}
}

// as runs a tool as tenant tn and decodes its result into dst; it also
// returns the result's JSON, for the tests that look for markers in it.
func (f *teamDrive) as(t *testing.T, tn, tool string, args, dst any) (string, error) {
	t.Helper()
	if err := execute(t, f.e, tenant.With(context.Background(), tn), tool, args, dst); err != nil {
		return "", err
	}
	out, _ := json.Marshal(dst)
	return string(out), nil
}

// TestTreeToolsOfAliceNeverReturnBobsFiles: two drives hold the same
// paths, bob's with ten times the sizes and a folder and document of his
// own. Each tenant's tree tools count exactly its own files, directories
// and bytes (computed in Go from the parsed source) and never show the
// other's document, even when asked for the other's folder by path.
func TestTreeToolsOfAliceNeverReturnBobsFiles(t *testing.T) {
	f := loadTeamDrive(t)
	var size int64
	for _, x := range f.g.Files {
		size += x.Size
	}
	all := map[string]any{"max_depth": tree.MaxMaxDepth}
	for _, c := range []struct {
		tn, own, other string
		dirs           int
		scale          int64
	}{
		{"alice", fixturetest.AliceOnly, fixturetest.BobOnly, len(f.g.Directories), 1},
		{"bob", fixturetest.BobOnly, fixturetest.AliceOnly, len(f.g.Directories) + 1, fixturetest.BobsSizeFactor},
	} {
		want := tree.Summary{Files: len(f.g.Files) + 1, Directories: c.dirs, TotalSize: (size + fixturetest.OwnSize) * c.scale}
		var q tree.QueryResult
		out, err := f.as(t, c.tn, tree.QueryFileTree, map[string]any{"filters": all, "limit": tree.MaxQueryLimit}, &q)
		if err != nil {
			t.Fatal(err)
		}
		if s := q.Summary; s.Files != want.Files || s.Directories != want.Directories || s.TotalSize != want.TotalSize {
			t.Errorf("%s's query_file_tree: %d files, %d directories, %d bytes; want %d, %d, %d",
				c.tn, s.Files, s.Directories, s.TotalSize, want.Files, want.Directories, want.TotalSize)
		}
		if !strings.Contains(out, c.own) || strings.Contains(out, c.other) {
			t.Errorf("%s's query_file_tree lists %s's document, or not its own: %s", c.tn, c.other, out)
		}
		var d tree.DiagramResult
		out, err = f.as(t, c.tn, tree.CreateDiagram, map[string]any{"name": "everything", "filters": all}, &d)
		if err != nil {
			t.Fatal(err)
		}
		if d.Stats.Files != want.Files || d.Stats.Directories != want.Directories || d.Stats.TotalSize != want.TotalSize {
			t.Errorf("%s's diagram: %+v; want %d files, %d directories, %d bytes", c.tn, d.Stats, want.Files, want.Directories, want.TotalSize)
		}
		if !strings.Contains(out, c.own) || strings.Contains(out, c.other) {
			t.Errorf("%s's diagram draws %s's document, or not its own", c.tn, c.other)
		}
		checkDrawing(t, &d)
	}
	// Bob's folder, asked for by path, is not in alice's tree.
	var q tree.QueryResult
	if _, err := f.as(t, "alice", tree.QueryFileTree, map[string]any{"filters": map[string]any{"path_patterns": []string{"net/http/" + fixturetest.BobOnly + "/**"}}}, &q); err != nil {
		t.Fatal(err)
	}
	if q.Summary.Files != 0 || len(q.Nodes) != 0 {
		t.Errorf("alice's query of bob's folder found %+v: %+v", q.Summary, q.Nodes)
	}
}

// TestAPresetSavedByAliceIsNotFoundByBob: a diagram is saved with the
// tenant that created it; bob naming its id is told it is unknown, by
// update_diagram_filters and by Runner.Diagram (ragforge-plan diagram
// render) alike, and alice's preset is left as it was. Alice still finds
// and changes it; with no tenant bound nothing is read.
func TestAPresetSavedByAliceIsNotFoundByBob(t *testing.T) {
	f := loadTeamDrive(t)
	var d tree.DiagramResult
	if _, err := f.as(t, "alice", tree.CreateDiagram, map[string]any{"name": "alice's"}, &d); err != nil {
		t.Fatal(err)
	}
	rec, err := neo4j.ExecuteQuery(context.Background(), f.d, "MATCH (p:"+tree.PresetLabel+") RETURN p.id, p.workspace_id, p.filters, p.updated_at",
		nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Records) != 1 || rec.Records[0].Values[0] != d.ID || rec.Records[0].Values[1] != "alice" {
		t.Fatalf("presets %v; want one, %s of workspace alice", rec.Records, d.ID)
	}
	saved := rec.Records[0].Values

	var ce *tools.CallError
	var upd tree.DiagramResult
	_, err = f.as(t, "bob", tree.UpdateDiagramFilters, map[string]any{"diagram_id": d.ID, "filters": map[string]any{"languages": []string{"go"}}}, &upd)
	if !errors.As(err, &ce) || ce.Problems[0].Path != "/diagram_id" || !strings.Contains(ce.Problems[0].Message, "unknown diagram id") {
		t.Errorf("bob's update of alice's diagram: %v; want a CallError saying the id is unknown", err)
	}
	m := f.e.Model()
	r, err := tree.New(m, tools.Env{Driver: f.d, Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Diagram(tenant.With(context.Background(), "bob"), d.ID); !errors.As(err, &ce) {
		t.Errorf("bob drew alice's diagram: %v", err)
	}
	if _, err := r.Diagram(context.Background(), d.ID); !errors.Is(err, tenant.ErrUnbound) {
		t.Errorf("an unbound render: %v; want tenant.ErrUnbound", err)
	}
	rec, err = neo4j.ExecuteQuery(context.Background(), f.d, "MATCH (p:"+tree.PresetLabel+") RETURN p.id, p.workspace_id, p.filters, p.updated_at",
		nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Records) != 1 || !reflect.DeepEqual(rec.Records[0].Values, saved) {
		t.Errorf("after bob's calls the presets are %v; want alice's unchanged %v", rec.Records, saved)
	}
	if _, err := r.Diagram(tenant.With(context.Background(), "alice"), d.ID); err != nil {
		t.Errorf("alice cannot draw her own diagram: %v", err)
	}
	if _, err := f.as(t, "alice", tree.UpdateDiagramFilters, map[string]any{"diagram_id": d.ID, "filters": map[string]any{"languages": []string{"go"}}}, &upd); err != nil || upd.ID != d.ID {
		t.Errorf("alice cannot update her own diagram: %v", err)
	}
}

// Package plancase reads the golden cases of testdata/planner (a config, a
// tool, its arguments and the server's capabilities in; the planner's
// Cypher and, when the case carries recorded rows, the engine's answer
// out), so the planner's and the engine's golden tests read one case the
// same way.
package plancase

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// Now is the clock the cases plan relative periods at.
func Now() time.Time { return time.Date(2026, 1, 15, 12, 30, 45, 0, time.UTC) }

// Case is one testdata/planner/*.txtar file's inputs.
type Case struct {
	Path    string
	Archive *txtar.Archive
	// Config names a config of testdata/configs/valid or
	// testdata/planner/configs.
	Config string
	Tool   string
	Args   string
	// Caps are the server's capabilities: full-text indexes unless the
	// case says "fulltext: false", APOC when it says "apoc: true".
	Caps tools.Capabilities
	// State lists the computed fields the case's "materialized" section
	// names (Entity.field, space-separated); nil without one.
	State model.State
}

// Name is the case's file name without .txtar, for t.Run.
func (c *Case) Name() string { return strings.TrimSuffix(filepath.Base(c.Path), ".txtar") }

// Read reads every case under testdata/planner of the repository at root
// (the relative path from the test's package, e.g. "..").
func Read(t testing.TB, root string) []*Case {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "testdata", "planner", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases under testdata/planner (%v)", err)
	}
	var out []*Case
	for _, p := range paths {
		a := golden.ReadArchive(t, p)
		c := &Case{Path: p, Archive: a, Caps: tools.Capabilities{FullText: true}}
		for _, f := range a.Files {
			v := strings.TrimSpace(string(f.Data))
			switch f.Name {
			case "config":
				c.Config = v
			case "tool":
				c.Tool = v
			case "args":
				c.Args = v
			case "apoc":
				c.Caps.APOC = v == "true"
			case "fulltext":
				c.Caps.FullText = v != "false"
			case "materialized":
				c.State = model.State{}
				for _, ref := range strings.Fields(v) {
					e, fld, _ := strings.Cut(ref, ".")
					c.State[model.FieldRef{Entity: e, Field: fld}] = true
				}
			}
		}
		if c.Config == "" || c.Tool == "" {
			t.Fatalf("%s: needs config and tool sections", p)
		}
		out = append(out, c)
	}
	return out
}

var (
	modelsMu sync.Mutex
	models   = map[string]*model.Model{}
)

// Model loads the config name of testdata/configs/valid (or, for configs
// only the golden cases need, testdata/planner/configs) of the repository
// at root, once per test binary.
func Model(t testing.TB, root, name string) *model.Model {
	t.Helper()
	modelsMu.Lock()
	defer modelsMu.Unlock()
	if m, ok := models[name]; ok {
		return m
	}
	path := filepath.Join(root, "testdata", "configs", "valid", name)
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(root, "testdata", "planner", "configs", name)
	}
	m, err := config.Load(path)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	models[name] = m
	return m
}

package computed_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/golden"
)

// baseConfig is the entity the `fields` shorthand of a golden case adds its
// computed fields to: one stored field of every kind expressions read.
const baseConfig = `entities:
  - name: T
    unique_field: s1
    searchable_fields:
      - {name: i1, type: integer}
      - {name: i2, type: integer}
      - {name: x1, type: number}
      - {name: x2, type: number}
      - {name: s1, type: string}
      - {name: s2, type: string}
      - {name: b1, type: boolean}
      - {name: b2, type: boolean}
      - {name: kind, type: enum, values: [a, b]}
      - {name: d1, type: datetime}
      - {name: d2, type: datetime, stored_as: iso_string}
      - {name: d3, type: timestamp, stored_as: epoch_millis}
      - {name: d4, type: datetime, stored_as: epoch_seconds}
      - {name: loc, type: point}
    computed_fields:
`

// TestGoldenCases replays testdata/computed/*.txtar end to end: the config
// goes through config.LoadSources (schema, decoding, expression checking,
// error positions) and then computed.CompileModel; the output is every
// computed field's fragment, or the config errors exactly as `ragforge-plan
// vet` prints them. A case holds either `ragforge.yaml`, `config-file` (a
// path beside the case) or `fields` (lines `name type: expression` added to
// baseConfig), and `want`, which RAGFORGE_UPDATE=1 rewrites.
func TestGoldenCases(t *testing.T) {
	files, err := filepath.Glob("../testdata/computed/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar := golden.ReadArchive(t, file)
			var cfg []byte
			for _, f := range ar.Files {
				switch f.Name {
				case "ragforge.yaml":
					cfg = f.Data
				case "fields":
					cfg = fieldsConfig(t, f.Data)
				case "config-file":
					name := filepath.Join(filepath.Dir(file), strings.TrimSpace(string(f.Data)))
					var err error
					if cfg, err = os.ReadFile(name); err != nil {
						t.Fatal(err)
					}
				}
			}
			if cfg == nil {
				t.Fatal("case has neither ragforge.yaml nor fields")
			}
			golden.CheckArchive(t, file, ar, []string{"want"}, map[string]string{"want": render(cfg)})
		})
	}
}

// fieldsConfig writes `name type: expression` lines as computed fields of
// baseConfig, each expression as a YAML literal block.
func fieldsConfig(t *testing.T, data []byte) []byte {
	var b strings.Builder
	b.WriteString(baseConfig)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		head, expr, ok := strings.Cut(line, ": ")
		name, typ, ok2 := strings.Cut(head, " ")
		if !ok || !ok2 {
			t.Fatalf("bad fields line %q (want `name type: expression`)", line)
		}
		fmt.Fprintf(&b, "      - name: %s\n        type: %s\n        expression: |-\n          %s\n", name, typ, expr)
	}
	return []byte(b.String())
}

func render(cfg []byte) string {
	m, err := config.LoadSources(config.Source{Name: "ragforge.yaml", Data: cfg})
	if err != nil {
		return "error:\n" + err.Error() + "\n"
	}
	compiled, err := computed.CompileModel(m)
	if err != nil {
		return "compile error:\n" + err.Error() + "\n"
	}
	var b bytes.Buffer
	for _, e := range m.Entities {
		for _, f := range compiled.Entity(e.Name).Fields {
			fr, err := f.Fragment(computed.Options{})
			if err != nil {
				fmt.Fprintf(&b, "%s.%s: error: %v\n", e.Name, f.Config.Name, err)
				continue
			}
			fmt.Fprintf(&b, "%s.%s: %s\n", e.Name, f.Config.Name, fr.Cypher)
			for _, s := range fr.Subqueries {
				fmt.Fprintf(&b, "  before: %s\n", strings.ReplaceAll(s, "\n", "\n    "))
			}
		}
		for _, r := range e.Relationships {
			for _, c := range r.Computed {
				fr, err := compiled.Relationship(r.Type).Field(c.Name).Fragment(computed.Options{Node: "r"})
				if err != nil {
					fmt.Fprintf(&b, "%s.%s.%s: error: %v\n", e.Name, r.Type, c.Name, err)
					continue
				}
				fmt.Fprintf(&b, "%s.%s.%s: %s\n", e.Name, r.Type, c.Name, fr.Cypher)
			}
		}
	}
	return b.String()
}

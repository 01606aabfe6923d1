package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestLoadUnifiesFilesOfDifferentFormats(t *testing.T) {
	m, err := Load("../testdata/configs/split/entities.yaml", "../testdata/configs/split/policy.cue")
	if err != nil {
		t.Fatal(err)
	}
	if m.Entity("Note") == nil {
		t.Fatal("entity Note missing")
	}
	got := m.Materialization
	if got.Window != 14*24*time.Hour || got.MinUses != 20 || got.MinNodes != 1000 || got.UnusedAfter != 30*24*time.Hour {
		t.Errorf("materialization = %+v, want window 14d and min_uses 20 from policy.cue, other defaults kept", got)
	}
}

func TestLoadDerivesModesAndOperatorsFromTheSchema(t *testing.T) {
	m, err := Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scope := m.Entity("Scope")
	if got := scope.Field("source").Modes; strings.Join(got, ",") != "contains,regex" {
		t.Errorf("source modes = %v, want the narrowed [contains regex]", got)
	}
	if f := scope.Field("startLine"); !f.HasMode("percentile") || f.HasMode("regex") || !f.HasOperator(">=") || f.HasOperator("CONTAINS") {
		t.Errorf("startLine modes %v operators %v do not match the integer rules", f.Modes, f.Operators)
	}
	if f := scope.Field("type"); strings.Join(f.Modes, ",") != "in,not_in" || f.HasOperator(">") {
		t.Errorf("enum type: modes %v operators %v", f.Modes, f.Operators)
	}
	lc := scope.ComputedField("line_count")
	if lc == nil || lc.Expression != "endLine - startLine + 1" || lc.Materialized != "auto" || lc.CacheProperty != "line_count" || !lc.HasMode("between") {
		t.Errorf("line_count decoded as %+v", lc)
	}
	rel := m.Entity("Scope").Relationships
	if rel[4].Type != "HAS_CHANGE" || rel[4].Properties[0].Name != "order" || !rel[4].Properties[0].HasMode("gt") {
		t.Errorf("HAS_CHANGE property capabilities not derived: %+v", rel[4].Properties)
	}
	if got := m.Entity("Change").Field("timestamp").StoredAs; got != "temporal" {
		t.Errorf("datetime storage default = %q, want temporal", got)
	}
}

func TestLoadReportsMissingFilesAndUnknownFormats(t *testing.T) {
	for _, tc := range []struct {
		path, want string
	}{
		{"../testdata/configs/nope.yaml", "nope.yaml: cannot read config: no such file or directory"},
		{"../testdata/configs", "is a directory"},
		{"load_test.go", `unknown config format ".go" (allowed: .yaml, .yml, .json, .cue)`},
	} {
		_, err := Load(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%s) = %v, want an error containing %q", tc.path, err, tc.want)
		}
	}
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), "no config file given") {
		t.Errorf("Load() = %v", err)
	}
}

func TestLoadRejectsOversizedConfigs(t *testing.T) {
	big := Source{Name: "big.yaml", Data: make([]byte, MaxConfigBytes+1)}
	if _, err := LoadSources(big); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("LoadSources(big) = %v", err)
	}
}

// generatedConfig returns a YAML config of n entities, each with 10 fields,
// 2 computed fields and 2 relationships: the benchmark's large config.
func generatedConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("entities:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - name: E%d\n    unique_field: id\n    searchable_fields:\n      - {name: id, type: string}\n", i)
		for j := 0; j < 9; j++ {
			typ := []string{"string", "integer", "number", "datetime", "boolean"}[j%5]
			fmt.Fprintf(&b, "      - {name: f%d, type: %s, description: field %d}\n", j, typ, j)
		}
		b.WriteString("    computed_fields:\n      - {name: c1, type: integer, expression: f1 + 1}\n      - {name: c2, type: boolean, expression: c1 > 3}\n")
		fmt.Fprintf(&b, "    relationships:\n      - {type: NEXT, target: E%d}\n      - {type: PREV, target: E%d, direction: incoming}\n", (i+1)%n, (i+n-1)%n)
	}
	return []byte(b.String())
}

func TestLoadAcceptsAGenerated200EntityConfig(t *testing.T) {
	m, err := LoadSources(Source{Name: "gen.yaml", Data: generatedConfig(200)})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entities) != 200 || len(m.Entities[199].Fields) != 10 {
		t.Fatalf("decoded %d entities", len(m.Entities))
	}
}

func BenchmarkLoadCodeRAG(b *testing.B) {
	for b.Loop() {
		if _, err := Load("../testdata/configs/valid/code-rag.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoad200Entities(b *testing.B) {
	src := Source{Name: "gen.yaml", Data: generatedConfig(200)}
	for b.Loop() {
		if _, err := LoadSources(src); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLoadIsSafeFromSeveralGoroutines(t *testing.T) {
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := Load("../testdata/configs/valid/code-rag.yaml")
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestLoadFillsTheMaterializationDefaultsWithoutABlock(t *testing.T) {
	m, err := Load("../testdata/configs/valid/store-catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := m.Materialization
	if got.Window != 7*24*time.Hour || got.MinUses != 100 || got.MinNodes != 1000 || got.UnusedAfter != 30*24*time.Hour {
		t.Errorf("materialization = %+v, want the schema defaults 7d, 100, 1000, 30d", got)
	}
}

// TestLoadReportsEveryKindOfProblemInOneRun: no kind of problem hides
// another (the golden file holds the exact lines).
func TestLoadReportsEveryKindOfProblemInOneRun(t *testing.T) {
	_, err := Load(invalidDir + "/every-problem-at-once.yaml")
	if err == nil {
		t.Fatal("Load accepted the config")
	}
	for _, want := range []string{
		`11:9: descripton: unknown key "descripton"`,
		`14:9: indexed: "yes" is not a boolean`,
		`16:9: type: unknown type "integr"`,
		`31:33: kilobytes: invalid operation: float + string`,
		`34:21: a: dependency cycle: a → b → a`,
		`42:9: cache_property: size is also the name of a field of File`,
		`47:50: last_change: cypher: } closes nothing`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q:\n%v", want, err)
		}
	}
}

func TestLoadPositionsYAMLSyntaxErrorsWhereTheParserMeetsThem(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// CUE's decoder said "x.yaml:2" with no column.
		{"a:\n  b: c\n d: e\n", "x.yaml:3:2: did not find expected key (while parsing a block mapping that starts at line 1, column 1)"},
		{"a: [b\nc: d\n", "x.yaml:2:2: did not find expected ',' or ']' (while parsing a flow sequence that starts at line 1, column 4)"},
		{"a: b\n\tc: d\n", "x.yaml:2:1: found a tab character that violates indentation (while scanning a plain scalar that starts at line 1, column 4)"},
		{"a: 'abc\n", "x.yaml:2:1: found unexpected end of stream (while scanning a quoted scalar that starts at line 1, column 4)"},
	} {
		_, err := LoadSources(Source{Name: "x.yaml", Data: []byte(tc.src)})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %s", tc.src, err, tc.want)
		}
	}
}

func TestLoadPositionsYAMLDecodingErrorsAtTheValue(t *testing.T) {
	_, err := LoadSources(Source{Name: "x.yaml", Data: []byte("entities:\n  - name: A\n    unique_field: !!int x\n")})
	if want := `x.yaml:3:19: cannot decode "x" as !!int: illegal number start "x"`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s (CUE's decoder names the line only)", err, want)
	}
}

package config

import (
	"testing"

	"cuelang.org/go/cue"

	"github.com/ragforge/ragforge/internal/memory/write"
)

// The schema checks a profile's create_<entity> and update_<entity> names
// with its own snake_case (#snake), since the stock cue command must
// reject the same configs; this holds it to the write tools' spelling, on
// every entity of the example configs and on names that stress each rule.
func TestSchemaSpellsWriteToolNamesAsTheWriteToolsDo(t *testing.T) {
	names := []string{"Note", "CodeFile", "HTTPServer", "ABcDe", "XAbBc", "A1Bc", "A1B", "a1B", "Snake_Case", "snake_Case", "URL", "myURLParser", "_Private", "V2Note"}
	for _, path := range configFiles(t, validDir) {
		m, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m.EntityNames()...)
	}
	cueMu.Lock()
	defer cueMu.Unlock()
	s, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	snake := s.LookupPath(cue.ParsePath("#snake"))
	for _, n := range names {
		var got string
		if err := snake.FillPath(cue.ParsePath("in"), n).LookupPath(cue.ParsePath("out")).Decode(&got); err != nil {
			t.Fatalf("#snake of %s: %v", n, err)
		}
		if want := write.CreateToolName(n); "create_"+got != want {
			t.Errorf("#snake of %s is %s; the write tool is %s", n, got, want)
		}
	}
}

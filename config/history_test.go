package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragforge/ragforge/model"
)

// TestChangeTrackingDefaultsAreTheSchemas holds model's defaults (what
// Resolved fills into a model built in Go) to the schema's: a block that
// names only its entities decodes to the same names and sizes.
func TestChangeTrackingDefaultsAreTheSchemas(t *testing.T) {
	m, err := LoadSources(Source{Name: "ct.yaml", Data: []byte(`
entities:
  - {name: Note, unique_field: id, searchable_fields: [{name: id, type: string}]}
change_tracking: {entities: [Note]}
`)})
	if err != nil {
		t.Fatal(err)
	}
	got := *m.ChangeTracking
	got.Pos = model.Pos{}
	want := model.ChangeTracking{Entities: []string{"Note"}}.Resolved()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the schema's defaults differ from model's (-model +schema):\n%s", diff)
	}
}

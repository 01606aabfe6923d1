package model_test

import (
	"slices"
	"testing"

	"github.com/ragforge/ragforge/config"
)

// TestDisplayFieldsAreTheConfigsShowElseTheNamingFields: code-rag's
// analytics show name, type and file for Scope; entities no analytics
// block shows get the conventional naming fields they have, never the
// unique field, a hidden field or the tenant's.
func TestDisplayFieldsAreTheConfigsShowElseTheNamingFields(t *testing.T) {
	for _, c := range []struct {
		config, entity string
		want           []string
	}{
		{"code-rag", "Scope", []string{"name", "type", "file"}},
		{"code-rag", "File", []string{"name"}},
		{"code-rag", "Change", []string{"kind", "summary"}},
		{"memory-graph", "Person", []string{"name", "canonical_name"}},
		{"memory-graph", "Concept", []string{"name", "description"}},
	} {
		m, err := config.Load("../testdata/configs/valid/" + c.config + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		if got := m.DisplayFields(m.Entity(c.entity)); !slices.Equal(got, c.want) {
			t.Errorf("%s %s shows %v, want %v", c.config, c.entity, got, c.want)
		}
	}
}

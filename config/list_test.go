package config_test

import (
	"strings"
	"testing"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/model"
)

// TestListFieldsLoadWithTheirOperatorsAndRefuseScalarReads: a list field
// decodes with the list operators the schema derives (no specialized-tool
// mode), on an entity and on a relationship; an expression reading one
// as a value is a positioned config error.
func TestListFieldsLoadWithTheirOperatorsAndRefuseScalarReads(t *testing.T) {
	m, err := config.Load("../testdata/planner/configs/lists.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"CONTAINS", "CONTAINS ANY", "CONTAINS ALL", "SIZE =", "SIZE <", "SIZE <=", "SIZE >", "SIZE >=", "IS NULL", "IS NOT NULL"}
	p := m.Entity("Person")
	roles := p.Relationships[0].Properties[0]
	for _, f := range []*model.Field{p.Field("nicknames"), p.Field("scores"), p.Field("weights"), roles} {
		if strings.Join(f.Operators, ",") != strings.Join(want, ",") || len(f.Modes) != 0 || f.Type.Kind() != model.List {
			t.Errorf("%s (%s): operators %q, modes %q", f.Name, f.Type, f.Operators, f.Modes)
		}
	}
	_, err = config.LoadSources(config.Source{Name: "lists.yaml", Data: []byte(`entities:
  - name: Person
    unique_field: name
    searchable_fields:
      - {name: name, type: string}
      - {name: scores, type: integer_list}
    computed_fields:
      - {name: many, type: boolean, expression: "scores > 3"}
`)})
	if want := `lists.yaml:8:50: many: field "scores" is a integer_list field; expressions read string, enum, number, integer, boolean and datetime fields`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

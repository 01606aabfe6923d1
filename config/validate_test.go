package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/model"
)

// goModel is a small valid model built in Go, without a config file.
func goModel() *model.Model {
	return &model.Model{Entities: []*model.Entity{{
		Name:        "Person",
		UniqueField: "id",
		Fields: []*model.Field{
			{Name: "id", Type: model.String, Exposed: true},
			{Name: "born", Type: model.Integer, Exposed: true},
		},
		Computed: []*model.ComputedField{
			{Field: model.Field{Name: "age", Type: model.Integer}, Expression: "2026 - born", Materialized: model.Never},
		},
	}}}
}

func TestValidateAcceptsAValidGoBuiltModelAndEveryLoadedExample(t *testing.T) {
	if err := Validate(goModel()); err != nil {
		t.Fatalf("Validate refused a valid Go-built model: %v", err)
	}
	for _, path := range configFiles(t, validDir) {
		m, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		// Validate trusts a loaded model; the full check must pass too.
		cfg, pos := encodeModel(m)
		if err := check(m, cfg, pos); err != nil {
			t.Errorf("%s: the loaded model fails Validate: %v", path, err)
		}
	}
}

// A loaded model is checked once, by Load: Validate (which engine.New
// calls) finds it known and returns before the schema check, while the
// same model changed in Go afterwards is checked in full and refused; a
// Go-built model Validate passed is known too.
func TestValidateTrustsAnUnchangedLoadedModelOnly(t *testing.T) {
	trusted := func(m *model.Model) bool {
		cfg, _ := encodeModel(m)
		fp, ok := fingerprint(cfg)
		return ok && known(m, fp)
	}
	m, err := Load(validDir + "/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !trusted(m) {
		t.Fatal("Load's model is not known as valid: Validate would check it again")
	}
	m.Entities[0].Name = "a`b"
	if trusted(m) {
		t.Fatal("a loaded model changed in Go is still known as valid")
	}
	if err := Validate(m); err == nil || !strings.Contains(err.Error(), "is not a valid name") {
		t.Errorf("Validate of a loaded model changed in Go = %v; want the schema's refusal", err)
	}
	g := goModel()
	if trusted(g) {
		t.Fatal("a Go-built model is known as valid before Validate")
	}
	if err := Validate(g); err != nil || !trusted(g) {
		t.Errorf("Validate of a Go-built model: %v, known afterwards: %v; want nil and true", err, trusted(g))
	}
}

func TestValidateRefusesAGoBuiltModelTheSchemaRejects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(m *model.Model)
		want   string
	}{
		{"backtick in a label", func(m *model.Model) { m.Entities[0].Name = "a`b" },
			"entities.0.name: \"a`b\" is not a valid name (allowed: letters, digits and _, not starting with a digit, at most 100 characters)"},
		{"dash in a field name", func(m *model.Model) { m.Entities[0].Fields[1].Name = "first-name" },
			`entities.0.searchable_fields.1.name: "first-name" is not a valid name`},
		{"unknown field type", func(m *model.Model) { m.Entities[0].Fields[1].Type = "integr" },
			`entities.0.searchable_fields.1.type: unknown type "integr" (allowed: string, number, integer, boolean, datetime, timestamp, enum, point, string_list, integer_list, number_list)`},
		{"expression cycle", func(m *model.Model) {
			m.Entities[0].Computed = append(m.Entities[0].Computed,
				&model.ComputedField{Field: model.Field{Name: "x", Type: model.Integer}, Expression: "y + 1"},
				&model.ComputedField{Field: model.Field{Name: "y", Type: model.Integer}, Expression: "x + 1"})
		}, "entities.Person.computed_fields.x: dependency cycle: x → y → x"},
		{"cache_property over a field", func(m *model.Model) { m.Entities[0].Computed[0].CacheProperty = "born" },
			"entities.0.computed_fields.0.cache_property: born is also the name of a field of Person"},
		{"unbalanced cypher body", func(m *model.Model) {
			m.Entities[0].Computed[0].Expression = ""
			m.Entities[0].Computed[0].Cypher = "RETURN 1 AS age } MATCH (m) DETACH DELETE m //"
		}, "entities.Person.computed_fields.age: cypher: } closes nothing"},
		{"unknown relationship target", func(m *model.Model) {
			m.Entities[0].Relationships = []*model.Relationship{{Type: "KNOWS", Targets: []string{"Nobody"}, Direction: model.Outgoing}}
		}, "entities.0.relationships.0.target: Nobody is not a declared entity (entities: Person)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := goModel()
			tc.change(m)
			err := Validate(m)
			var ces ConfigErrors
			if !errors.As(err, &ces) {
				t.Fatalf("Validate = %v, want ConfigErrors", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate = %v\nwant an error containing %q", err, tc.want)
			}
		})
	}
}

func TestValidatePositionsErrorsOfAChangedLoadedModelInItsFile(t *testing.T) {
	m, err := Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m.Entities[0].Fields[1].Type = "text"
	err = Validate(m)
	if err == nil || !strings.Contains(err.Error(), "code-rag.yaml:18:9: type: unknown type \"text\"") {
		t.Errorf("Validate = %v, want the error at the field's line in code-rag.yaml", err)
	}
}

package config_test

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/ragforge/ragforge/config"
)

// Load reads and validates config files and returns the typed model; the
// schema's rules have already derived what each field offers the tools.
func ExampleLoad() {
	m, err := config.Load("../testdata/configs/valid/movies.yaml")
	if err != nil {
		log.Fatal(err) // a config.ConfigErrors: one positioned line per problem
	}
	for _, e := range m.Entities {
		fmt.Printf("%s (unique: %s): %s\n", e.Name, e.UniqueField, strings.Join(e.FieldNames(), ", "))
	}
	released := m.Entity("Movie").Field("released")
	fmt.Printf("released (%s): %s\n", released.Type, strings.Join(released.Operators, ", "))
	// Output:
	// Movie (unique: title): title, released, tagline, age_years
	// Person (unique: name): name, born
	// released (integer): =, !=, <, <=, >, >=, IN, NOT IN, IS NULL, IS NOT NULL
}

// LoadSources loads configs held in memory. A bad config fails with every
// problem at once, each at its file:line:col.
func ExampleLoadSources() {
	src := config.Source{Name: "ragforge.yaml", Data: []byte(`
entities:
  - name: Movie
    unique_field: title
    searchable_fields:
      - {name: title, type: string, indexd: true}
      - {name: released, type: integr}
`)}
	_, err := config.LoadSources(src)
	var problems config.ConfigErrors
	if errors.As(err, &problems) {
		for _, p := range problems {
			fmt.Println(p)
		}
	}
	// Output:
	// ragforge.yaml:6:37: indexd: unknown key "indexd" (allowed: description, exposed_to_tools, indexed, layout, max, min, name, null_values, stored_as, tool_modes, type, values)
	// ragforge.yaml:7:26: type: unknown type "integr" (allowed: string, number, integer, boolean, datetime, timestamp, enum, point, string_list, integer_list, number_list)
}

package schemadraft

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/internal/graphschema/introspect"
)

// listTypes are the list field types of the Neo4j array types a list
// field reads (schemacheck's listStorage, read the other way).
var listTypes = map[string]string{"StringArray": "string_list", "LongArray": "integer_list", "DoubleArray": "number_list"}

// arrayTypes returns the stored types of property p of owner to draft
// from: StringArray is dropped beside another array type when no value
// holds a string, because Neo4j types every empty list StringArray (an
// integer list with some empty lists reads LongArray and StringArray).
func (dr *drafter) arrayTypes(owner string, p *introspect.Property, entityType string) ([]string, error) {
	if !slices.Contains(p.Types, "StringArray") || !slices.ContainsFunc(p.Types, func(t string) bool { return t != "StringArray" && strings.HasSuffix(t, "Array") }) {
		return p.Types, nil
	}
	strs, err := introspect.HoldsStrings(dr.ctx, dr.d, dr.opts.Database, owner, p.Name, entityType == "RELATIONSHIP")
	if err != nil || strs {
		return p.Types, err
	}
	return slices.DeleteFunc(slices.Clone(p.Types), func(t string) bool { return t == "StringArray" }), nil
}

// embedding reports why an array property is left out as an embedding:
// a vector index covers it, or its name says it is one. A vector is no
// list an agent filters or reads; the vector index declares it.
func (dr *drafter) embedding(owner string, p *introspect.Property, entityType string) string {
	if !slices.ContainsFunc(p.Types, func(t string) bool { return strings.HasSuffix(t, "Array") }) {
		return ""
	}
	if dr.s.FindIndex(entityType, owner, []string{p.Name}, "VECTOR") != nil {
		return "an embedding (its vector index declares it)"
	}
	if strings.Contains(strings.ToLower(p.Name), "embedding") {
		return "named as an embedding (declare it with a vector index, not as a field)"
	}
	return ""
}

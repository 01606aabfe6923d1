package schemacheck

import (
	"slices"
	"strings"

	"github.com/ragforge/ragforge/internal/graphschema/introspect"
	"github.com/ragforge/ragforge/model"
)

// listStorage are the Neo4j array types each list field type reads: an
// integer list holds Longs (Cypher's integers), a number list Longs or
// Doubles, as a number field does.
var listStorage = map[model.Type][]string{
	model.StringList:  {"StringArray"},
	model.IntegerList: {"LongArray"},
	model.NumberList:  {"LongArray", "DoubleArray"},
}

// listFits reports whether values stored as the Neo4j type t fit list
// field f.
func listFits(f *model.Field, t string) bool {
	return slices.Contains(listStorage[f.Type], t)
}

// listAdvice says how to declare a field whose values have the Neo4j type
// t when a list is involved: a list stored where the field holds one
// value, or one value where it holds a list. ok is false otherwise.
func listAdvice(f *model.Field, t string) (advice string, ok bool) {
	stored := strings.HasSuffix(t, "Array")
	if !stored && f.Type.Kind() != model.List {
		return "", false
	}
	for _, lt := range []model.Type{model.StringList, model.IntegerList, model.NumberList} {
		if slices.Contains(listStorage[lt], t) {
			return "declare type: " + string(lt), true
		}
	}
	if stored {
		return "a list field holds strings, integers or numbers: leave the property out of the config", true
	}
	return "", false
}

// onlyEmptyLists reports whether the Neo4j type t of list field f's
// property is StringArray only because of empty lists (Neo4j types every
// empty list so): an integer or number list holding [] fits.
func (c *checker) onlyEmptyLists(f *model.Field, t, name string, rel bool) bool {
	if f.Type.Kind() != model.List || t != "StringArray" || listFits(f, t) {
		return false
	}
	strs, err := introspect.HoldsStrings(c.ctx, c.d, c.db, name, f.Name, rel)
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return false
	}
	return !strs
}

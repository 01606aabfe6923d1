package tools

import (
	"strings"

	"github.com/ragforge/ragforge/model"
)

// The list operators (schema/ragforge.cue, #ListOperators): a list field is tested by its
// elements and its size, never compared as one value.
const (
	OpContainsAny = "CONTAINS ANY"
	OpContainsAll = "CONTAINS ALL"
	sizePrefix    = "SIZE "
)

// SizeComparison returns the comparison of a SIZE operator ("SIZE >=" →
// ">=") and whether op is one.
func SizeComparison(op string) (string, bool) {
	return strings.CutPrefix(op, sizePrefix)
}

// checkListValue checks the value of a list field's condition at vat and
// converts it as the planner reads it: one element (CONTAINS), a
// non-empty list of elements (CONTAINS ANY / ALL), or a whole number
// (SIZE). Checked operators are the field's own (the schema's list
// operators), so IS NULL and IS NOT NULL are the only others.
func checkListValue(f *model.Field, cond *Condition, vat string, p *problems) {
	switch op := cond.Operator; {
	case op == "IS NULL" || op == "IS NOT NULL":
		if cond.Value != nil {
			p.add(vat, "%s takes no value", op)
		}
	case op == OpContainsAny || op == OpContainsAll:
		list, ok := cond.Value.([]any)
		if !ok || len(list) == 0 {
			p.add(vat, "%s needs a non-empty list of %s", op, elemWant[f.Type])
			return
		}
		if len(list) > maxListValues {
			p.add(vat, "%s takes at most %d values", op, maxListValues)
			return
		}
		for j, v := range list {
			if nv, ok := convertElem(f, f.Type.Elem(), elemWant[f.Type], v, vat+Pointer(j), p); ok {
				list[j] = nv
			}
		}
	default:
		if _, isList := cond.Value.([]any); isList || cond.Value == nil {
			p.add(vat, "%s on %s field %s takes one value (use %s or %s for a list)", op, f.Type, f.Name, OpContainsAny, OpContainsAll)
			return
		}
		t, want := f.Type.Elem(), "one of its "+elemWant[f.Type]
		if _, ok := SizeComparison(op); ok {
			t, want = model.Integer, sizeWant
		}
		if nv, ok := convertElem(f, t, want, cond.Value, vat, p); ok {
			cond.Value = nv
		}
	}
}

// elemWant says what an element of each list type is.
var elemWant = map[model.Type]string{model.StringList: "strings", model.IntegerList: "whole numbers", model.NumberList: "numbers"}

// sizeWant is what a SIZE operator compares with.
const sizeWant = "a whole number (the list's size)"

// convertElem converts v to type t (an element's, or a size's integer)
// as convertValue does, naming the list field and want (what it takes)
// in its problem.
func convertElem(f *model.Field, t model.Type, want string, v any, at string, p *problems) (any, bool) {
	var scratch problems
	nv, ok := convertValue(&model.Field{Name: f.Name, Type: t}, v, at, &scratch)
	if !ok {
		p.add(at, "%s does not fit %s field %s: give %s", show(v), f.Type, f.Name, want)
	}
	return nv, ok
}

// listHelp is the condition grammar's line on list fields, when the
// model has one (on an entity or a relationship): what CONTAINS means on
// a list and the operators only lists take.
func listHelp(m *model.Model) string {
	for _, e := range m.Entities {
		for _, f := range e.Fields {
			if f.Type.Kind() == model.List {
				return listHelpText
			}
		}
		for _, r := range e.Relationships {
			for _, f := range r.Properties {
				if f.Type.Kind() == model.List {
					return listHelpText
				}
			}
		}
	}
	return ""
}

const listHelpText = "- list fields (*_list): CONTAINS an element; CONTAINS ANY / CONTAINS ALL a list of elements; SIZE =, <, <=, >, >= a count\n"

// listHint completes the refusal of an operator on f: a list is not one
// value, so a scalar comparison cannot apply to it.
func listHint(f *model.Field) string {
	if f.Type.Kind() != model.List {
		return ""
	}
	return " (a list is tested by its elements or its size, not compared as one value)"
}

// checkSortable refuses a sort key on a list field: lists have no order
// an agent means (Neo4j would compare them element by element).
func checkSortable(f *model.Field, at string, p *problems) {
	if f.Type.Kind() == model.List {
		p.add(at, "%s is a %s field and a list does not sort; filter on its size (SIZE >=) or sort by another field", f.Name, f.Type)
	}
}

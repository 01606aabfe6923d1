package planner

import (
	"slices"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tools"
)

// sizeOps maps the comparison of a SIZE operator to Cypher; the text
// comes from this table, never from the call.
var sizeOps = map[string]string{"=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

// listCondition renders a test of list field r (schema/ragforge.cue, #ListOperators). Every
// value is a parameter. A missing list is null, so every test but IS NULL
// is false on it; an empty list contains nothing and has size 0:
//
//	CONTAINS v        $v IN x
//	CONTAINS ANY vs   any(v IN $vs WHERE v IN x)
//	CONTAINS ALL vs   all(v IN $vs WHERE v IN x)   (x null: null, so false)
//	SIZE op n         size(x) op $n
//
// Numbers compare by value as Cypher's IN does: 2 is in [2.0].
func (b *builder) listCondition(r fieldRef, c tools.Condition, at string) (string, error) {
	if !listOperator(c.Operator) {
		return "", unplannable(b.tool, at[1:]+"/operator", c.Operator)
	}
	x := b.expr(r)
	switch c.Operator {
	case "IS NULL", "IS NOT NULL":
		return x + " " + c.Operator, nil
	case "CONTAINS":
		return b.param(c.Value) + " IN " + x, nil
	case tools.OpContainsAny, tools.OpContainsAll:
		q := "any"
		if c.Operator == tools.OpContainsAll {
			// all() over a null list is null, not true: the test stays
			// false on a missing list, as every other one does.
			q = "all"
		}
		return q + "(v IN " + b.param(c.Value) + " WHERE v IN " + x + ")", nil
	}
	cmp, _ := tools.SizeComparison(c.Operator)
	return "size(" + x + ") " + sizeOps[cmp] + " " + b.param(c.Value), nil
}

// listOperator reports whether listCondition writes op: the operators
// of the fixed table above, as the vocabulary test holds them to the
// schema's #ListOperators.
func listOperator(op string) bool {
	if cmp, ok := tools.SizeComparison(op); ok {
		_, ok = sizeOps[cmp]
		return ok
	}
	return slices.Contains([]string{"CONTAINS", tools.OpContainsAny, tools.OpContainsAll, "IS NULL", "IS NOT NULL"}, op)
}

// isList reports whether r is a list field.
func isList(r fieldRef) bool { return r.f.Type.Kind() == model.List }

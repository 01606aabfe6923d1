package planner

import (
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
	op, ok := sizeOps[cmp]
	if !ok {
		return "", unplannable(b.tool, "operator", c.Operator)
	}
	return "size(" + x + ") " + op + " " + b.param(c.Value), nil
}

// isList reports whether r is a list field.
func isList(r fieldRef) bool { return r.f.Type.Kind() == model.List }

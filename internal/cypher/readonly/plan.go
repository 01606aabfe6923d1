package readonly

import (
	"reflect"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/db"
)

// Op is one operator of an EXPLAIN plan, with every child read whole, so
// that checks of a plan see each branch (see [PlanOf]).
type Op struct {
	// Operator is the operator's name without the "@database" suffix,
	// e.g. "Filter", "Expand(All)".
	Operator string
	// Details is what Neo4j prints beside the operator: its predicate,
	// pattern, index or procedure signature.
	Details string
	// Identifiers are the variables the operator's rows hold.
	Identifiers []string
	// Children are the operator's inputs (left, then right).
	Children []*Op
}

// PlanOf reads a plan the driver returned into an [Op] tree.
//
// neo4j-go-driver v5 (through v5.28.4) returns the same child several
// times from Plan.Children: it takes the address of its range variable,
// and its go.mod (go 1.18) predates per-iteration loop variables, so every
// child of an operator with two inputs (CartesianProduct, Apply, Union,
// joins) is its last one and a check walking Children never sees the left
// branch. PlanOf therefore reads the driver's own plan record (the
// exported db.Plan behind the unexported wrapper) when it can, and falls
// back to Children only for a Plan of another type.
func PlanOf(p neo4j.Plan) *Op {
	if p == nil {
		return nil
	}
	if raw := dbPlan(p); raw != nil {
		return fromDB(raw)
	}
	op := &Op{Operator: opName(p.Operator()), Identifiers: p.Identifiers()}
	op.Details, _ = p.Arguments()["Details"].(string)
	for _, c := range p.Children() {
		op.Children = append(op.Children, PlanOf(c))
	}
	return op
}

// dbPlan returns the *db.Plan the driver's plan wrapper holds, or nil.
func dbPlan(p neo4j.Plan) *db.Plan {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("plan")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*db.Plan]() || f.IsNil() {
		return nil
	}
	return (*db.Plan)(f.UnsafePointer())
}

func fromDB(p *db.Plan) *Op {
	op := &Op{Operator: opName(p.Operator), Identifiers: p.Identifiers}
	op.Details, _ = p.Arguments["Details"].(string)
	for i := range p.Children {
		op.Children = append(op.Children, fromDB(&p.Children[i]))
	}
	return op
}

// opName drops the "@database" suffix Neo4j 5 appends to operator names.
func opName(s string) string {
	if i := strings.LastIndexByte(s, '@'); i > 0 {
		return s[:i]
	}
	return s
}

package computed

import (
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"

	"github.com/ragforge/ragforge/model"
)

// A relationship's computed field is an expression over the relationship's
// properties, its other computed fields and the stored fields of its two
// ends, named by the ends of the stored arrow as query_relationships names
// them: from.x is field x of the node the arrow leaves, to.x of the node it
// enters. In Cypher they read startNode(r) and endNode(r), so a fragment
// needs only the relationship's variable, whatever pattern bound it; in Go
// they are the properties "from.x" and "to.x" of [Field.Eval]'s map. A
// relationship's fields are computed per query: no cypher form, no
// materialization (the schema refuses both).

// Relationship is one relationship type's computed fields, compiled: those
// of every declaration of the type, each name once (the first declaration
// wins, as for the type's properties).
type Relationship struct {
	Type   string
	Fields []*Field
}

// Field returns the computed field with the given name, or nil.
func (r *Relationship) Field(name string) *Field {
	if r == nil {
		return nil
	}
	for _, f := range r.Fields {
		if f.Config.Name == name {
			return f
		}
	}
	return nil
}

// ends are the entities a relationship declaration's from.x and to.x read,
// by side; an end without one entity has the reason it cannot be read.
type ends struct {
	entity map[string]*model.Entity
	why    map[string]string
}

// declarationEnds finds the ends of relationship r declared on entity e:
// outgoing runs from e to its target, incoming from the target to e. An
// end is readable when it is one entity: a type with several targets, or
// an undirected one between two entities, has no one entity at that end.
func declarationEnds(m *model.Model, e *model.Entity, r *model.Relationship) *ends {
	out := &ends{entity: map[string]*model.Entity{}, why: map[string]string{}}
	var target *model.Entity
	if len(r.Targets) == 1 {
		target = m.Entity(r.Targets[0])
	}
	targetWhy := fmt.Sprintf("%s's other end is any of %s, not one entity", r.Type, strings.Join(r.Targets, ", "))
	set := func(side string, ent *model.Entity) {
		if ent == nil {
			out.why[side] = targetWhy
			return
		}
		out.entity[side] = ent
	}
	switch r.Direction {
	case model.Incoming:
		set("from", target)
		set("to", e)
	case model.Both:
		if target == nil || target.Name != e.Name {
			why := fmt.Sprintf("%s is declared with direction both, so a stored %s may start at either end", r.Type, r.Type)
			out.why["from"], out.why["to"] = why, why
			break
		}
		set("from", e)
		set("to", e)
	default:
		set("from", e)
		set("to", target)
	}
	return out
}

// end checks from.x or to.x: a stored field of the entity at that end.
func (ch *checker) end(x *ast.MemberNode) node {
	side, _ := x.Node.(*ast.IdentifierNode)
	prop, _ := x.Property.(*ast.StringNode)
	if side == nil || prop == nil || (side.Value != "from" && side.Value != "to") {
		return ch.fail(x, "member access reads an end of the relationship: from.x (the node the stored arrow leaves) or to.x (the node it enters) (%s)", supportedSummary)
	}
	ent := ch.ends.entity[side.Value]
	if ent == nil {
		return ch.fail(x, "%s.%s cannot be read: %s", side.Value, prop.Value, ch.ends.why[side.Value])
	}
	f := ent.Field(prop.Value)
	if f == nil {
		names := make([]string, len(ent.Fields))
		for i, g := range ent.Fields {
			names[i] = g.Name
		}
		msg := fmt.Sprintf("%s has no stored field %q (%s is %s", side.Value, prop.Value, side.Value, ent.Name)
		if s := Suggest(prop.Value, names); s != "" {
			return ch.fail(x, "%s; did you mean %s.%s?)", msg, side.Value, s)
		}
		return ch.fail(x, "%s, whose fields are %s)", msg, strings.Join(names, ", "))
	}
	k := kindOf(f.Type)
	if k == kindInvalid {
		return ch.fail(x, "%s.%s is a %s field; expressions read string, enum, number, integer, boolean and datetime fields", side.Value, f.Name, f.Type)
	}
	return &ref{at: at{x.Location().From, k}, name: f.Name, end: side.Value, stored: f}
}

// endRead is the Cypher node of a relationship's end (from or to) whose
// relationship variable is rel.
func endRead(rel, side string) string {
	if side == "from" {
		return "startNode(" + rel + ")"
	}
	return "endNode(" + rel + ")"
}

// compileRelationships compiles the computed fields of every relationship
// declaration of m, by type; errors name the declaring entity and type.
func compileRelationships(m *model.Model) (map[string]*Relationship, Errors) {
	out := map[string]*Relationship{}
	var errs Errors
	for _, e := range m.Entities {
		for _, r := range e.Relationships {
			if len(r.Computed) == 0 {
				continue
			}
			decl := &model.Entity{Name: r.Type, Fields: r.Properties, Computed: r.Computed, Pos: r.Pos}
			ce, err := compile(decl, declarationEnds(m, e, r))
			if err != nil {
				for _, x := range err.(Errors) {
					x.Entity, x.Relationship = e.Name, r.Type
				}
				errs = append(errs, err.(Errors)...)
				continue
			}
			rel := out[r.Type]
			if rel == nil {
				rel = &Relationship{Type: r.Type}
				out[r.Type] = rel
			}
			for _, f := range ce.Fields {
				if !slices.ContainsFunc(rel.Fields, func(g *Field) bool { return g.Config.Name == f.Config.Name }) {
					rel.Fields = append(rel.Fields, f)
				}
			}
		}
	}
	return out, errs
}

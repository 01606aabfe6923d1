package computed

import (
	"fmt"
	"math"
	"strings"
	syncatomic "sync/atomic"
	"unicode/utf8"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/model"
)

// Entity is one entity's computed fields, checked and ordered: what the
// planner and the tools read instead of the raw config.
type Entity struct {
	Name string
	// Fields are the computed fields in config order.
	Fields []*Field
	// Order is Fields sorted so every field comes after the fields it reads.
	Order []*Field
	model *model.Entity
}

// Field returns the computed field with the given name, or nil.
func (e *Entity) Field(name string) *Field {
	for _, f := range e.Fields {
		if f.Config.Name == name {
			return f
		}
	}
	return nil
}

// Field is one checked computed field.
type Field struct {
	// Config is the field as the config declares it.
	Config *model.ComputedField
	// DependsOn names the computed fields its expression reads directly, in
	// the order they first appear (nil for raw cypher fields).
	DependsOn []string
	ent       *Entity
	tree      node
	depAt     map[string]int
	prog      *program
}

// Entity is the name of the entity the field belongs to.
func (f *Field) Entity() string { return f.ent.Name }

// CacheProperty is the node property a materialized value is stored in:
// the config's cache_property, or the field's own name when it has none.
func (f *Field) CacheProperty() string {
	if f.Config.CacheProperty != "" {
		return f.Config.CacheProperty
	}
	return f.Config.Name
}

// Model is a model's computed fields, compiled: every entity's [Entity].
// A *Model exists only when every field compiled, so whoever takes one
// meets no compile error.
//
// It is compiled once per model by whoever owns the model and handed down,
// never compiled per call: engine.New compiles it for its planners and
// write tools, a command once per process, and materialize's StateCache,
// Materializer, Plan and Recompute take it. It is not memoized by model
// pointer because a model.Model is a plain struct a Go program may change
// between two engines; only the owner that compiled it knows it has not
// changed (docs/design.md, data flow).
type Model struct {
	model         *model.Model
	entities      map[string]*Entity
	relationships map[string]*Relationship
}

// Model returns the model the fields were compiled from.
func (cm *Model) Model() *model.Model { return cm.model }

// Entity returns the named entity's compiled computed fields (no fields
// for an entity without any), or nil when the model has no such entity.
func (cm *Model) Entity(name string) *Entity { return cm.entities[name] }

// Relationship returns the compiled computed fields of relationship type
// typ, or nil when no declaration of it has any.
func (cm *Model) Relationship(typ string) *Relationship { return cm.relationships[typ] }

// CompileModel compiles every entity's computed fields. All problems are
// reported at once as [Errors].
func CompileModel(m *model.Model) (*Model, error) {
	out := &Model{model: m, entities: map[string]*Entity{}}
	var errs Errors
	for _, e := range m.Entities {
		ce, err := Compile(e)
		if err != nil {
			errs = append(errs, err.(Errors)...)
			continue
		}
		out.entities[e.Name] = ce
	}
	rels, relErrs := compileRelationships(m)
	out.relationships = rels
	errs = append(errs, relErrs...)
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// compiles counts Compile calls, so tests can hold the runtime to
// compiling once per model rather than once per call.
var compiles syncatomic.Int64

// Compile checks an entity's computed fields (names, types, the supported
// set), orders their dependencies and rejects cycles, and prepares both
// meanings of each: the Cypher fragment and the Go evaluation. The error,
// if any, is [Errors].
func Compile(e *model.Entity) (*Entity, error) {
	compiles.Add(1)
	return compile(e, nil)
}

// compile is Compile with the ends a relationship's fields may read (nil
// for an entity's).
func compile(e *model.Entity, ends *ends) (*Entity, error) {
	ce := &Entity{Name: e.Name, model: e}
	var errs Errors
	fail := func(c *model.ComputedField, err *Error) {
		err.Entity, err.Field, err.Pos = e.Name, c.Name, c.ExpressionPos
		if err.Source == "" && c.Expression != "" {
			err.Source = c.Expression
		}
		errs = append(errs, err)
	}
	if err := ident.Check(e.Name); err != nil {
		errs = append(errs, &Error{Entity: e.Name, Pos: e.Pos, Msg: err.Error()})
	}
	for _, c := range e.Computed {
		f := &Field{Config: c, ent: ce}
		ce.Fields = append(ce.Fields, f)
		if err := ident.Check(c.Name); err != nil {
			fail(c, &Error{Msg: err.Error()})
			continue
		}
		if err := ident.Check(f.CacheProperty()); err != nil {
			fail(c, &Error{Msg: "cache_property: " + err.Error()})
			continue
		}
		switch {
		case ends != nil && c.Cypher != "":
			fail(c, &Error{Msg: "a relationship computed field is an expression (cypher: is only for an entity's computed fields)"})
		case c.Expression != "" && c.Cypher != "":
			fail(c, &Error{Msg: "set expression or cypher, not both"})
		case c.Cypher != "":
			// Lexically here, so the body stays inside its subquery;
			// the rest by Neo4j (ExplainCheck).
			if err := checkCypherBody(c.Cypher); err != nil {
				err.Source = c.Cypher
				fail(c, err)
			}
		case strings.TrimSpace(c.Expression) == "":
			fail(c, &Error{Msg: "set expression or cypher"})
		default:
			tree, deps, depAt, err := parseAndCheck(e, c, ends)
			if err != nil {
				err.Source = c.Expression
				fail(c, err)
				continue
			}
			if err := checkLiterals(tree); err != nil {
				err.Source = c.Expression
				fail(c, err)
				continue
			}
			f.tree, f.DependsOn, f.depAt = tree, deps, depAt
		}
	}
	// Cycles are reported with the other errors: a field that failed its
	// checks reads nothing, the others' dependencies are known.
	errs = append(errs, ce.order()...)
	if len(errs) > 0 {
		return nil, errs
	}
	for _, f := range ce.Fields {
		if f.tree == nil {
			continue
		}
		p, err := compileProgram(ce, f.tree)
		if err != nil {
			return nil, Errors{{Entity: e.Name, Field: f.Config.Name, Pos: f.Config.ExpressionPos, Msg: err.Error()}}
		}
		f.prog = p
	}
	return ce, nil
}

// checkLiterals refuses constants Cypher cannot write back exactly.
func checkLiterals(n node) *Error {
	var bad *Error
	walk(n, func(n node) {
		l, ok := n.(*lit)
		if !ok || bad != nil {
			return
		}
		switch v := l.value.(type) {
		case string:
			if !utf8.ValidString(v) {
				bad = &Error{Offset: l.off, Msg: "string literal is not valid UTF-8"}
			}
		case float64:
			if math.IsInf(v, 0) || math.IsNaN(v) {
				bad = &Error{Offset: l.off, Msg: "float literal out of range"}
			}
		}
	})
	return bad
}

// walk visits n and every node under it.
func walk(n node, visit func(node)) {
	visit(n)
	switch x := n.(type) {
	case *unary:
		walk(x.x, visit)
	case *binary:
		walk(x.l, visit)
		walk(x.r, visit)
	case *cond:
		walk(x.c, visit)
		walk(x.a, visit)
		walk(x.b, visit)
	case *call:
		for _, a := range x.args {
			walk(a, visit)
		}
	case *inList:
		walk(x.x, visit)
		for _, l := range x.list {
			walk(l, visit)
		}
	case *isNull:
		walk(x.x, visit)
	case *match:
		walk(x.x, visit)
	}
}

// order sorts the fields by dependency (a depth-first topological sort in
// config order) and reports every cycle it meets, each named from the field
// where it was entered: `a → b → a`.
func (e *Entity) order() Errors {
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var stack []*Field
	var visit func(f *Field) *Error
	visit = func(f *Field) *Error {
		name := f.Config.Name
		switch state[name] {
		case done:
			return nil
		case active:
			i := 0
			for stack[i] != f {
				i++
			}
			cycle := stack[i:]
			names := make([]string, 0, len(cycle)+1)
			for _, c := range cycle {
				names = append(names, c.Config.Name)
			}
			names = append(names, name)
			return &Error{
				Entity: e.Name, Field: cycle[0].Config.Name, Pos: cycle[0].Config.ExpressionPos,
				Source: cycle[0].Config.Expression, Offset: cycle[0].depAt[cycle[min(1, len(cycle)-1)].Config.Name],
				Msg: fmt.Sprintf("dependency cycle: %s", strings.Join(names, " → ")),
			}
		}
		state[name] = active
		stack = append(stack, f)
		for _, d := range f.DependsOn {
			if err := visit(e.Field(d)); err != nil {
				return err
			}
		}
		stack = stack[:len(stack)-1]
		state[name] = done
		e.Order = append(e.Order, f)
		return nil
	}
	var errs Errors
	for _, f := range e.Fields {
		if err := visit(f); err != nil {
			// Leave this cycle behind and look for others.
			errs = append(errs, err)
			for _, s := range stack {
				state[s.Config.Name] = done
			}
			stack = stack[:0]
		}
	}
	return errs
}

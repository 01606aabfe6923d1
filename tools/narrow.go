package tools

import (
	"cmp"
	"slices"
	"strings"
)

// Narrowing is how an argument makes a call do less work, declared on
// the argument (Schema.Narrow): a call Neo4j ran out of memory for is
// told to ask for Advice on each such argument of its tool, so the
// advice lives with the argument and a new tool brings its own.
type Narrowing struct {
	// Advice completes "ask for …": "a smaller limit".
	Advice string
	// By orders the advice of one call: its cap on results first, then
	// what bounds its reach, then its filters.
	By NarrowBy
}

// NarrowBy is what an argument narrows, in the order a call's advice
// names them.
type NarrowBy int

// What an argument narrows.
const (
	// NarrowResults caps the results (limit, top_k).
	NarrowResults NarrowBy = iota
	// NarrowReach bounds the work per result or the walk (depth,
	// max_length, buckets, hits per entity).
	NarrowReach
	// NarrowFilter selects fewer entities (conditions, filters).
	NarrowFilter
)

// Narrows declares that an argument narrows a call's work by by, with
// advice completing "ask for …".
func Narrows(by NarrowBy, advice string) *Narrowing {
	return &Narrowing{Advice: advice, By: by}
}

// Narrowed is one argument's advice, as [Tool.Narrowing] lists it.
type Narrowed struct {
	// Arg is the argument's name.
	Arg    string
	Advice string
}

// Narrowing lists the arguments of the tool that narrow its work, with
// their advice, in the order a call's error names them: results, reach,
// filters, each in the schema's order. A tool whose schema was given as
// JSON (CustomTool.InputSchema) declares none.
func (t *Tool) Narrowing() []Narrowed { return t.narrowing }

// narrowings collects in's arguments' advice: what each declares
// (Schema.Narrow), else, for the shapes every generated tool shares,
// what the kit gives them: a count of at least 1 (Least) narrows the
// reach ("a smaller depth", "fewer buckets"), a list of conditions filters ("more
// selective start conditions").
func narrowings(in *Schema) []Narrowed {
	if in == nil {
		return nil
	}
	type ranked struct {
		Narrowed
		by NarrowBy
	}
	var out []ranked
	for _, p := range in.Props {
		n := p.Schema.Narrow
		switch {
		case n != nil:
		case p.Schema.Least != nil && *p.Schema.Least >= 1:
			n = Narrows(NarrowReach, smaller(p.Name))
		case conditionsList(p.Schema):
			n = Narrows(NarrowFilter, "more selective "+strings.ReplaceAll(p.Name, "_", " "))
		default:
			continue
		}
		out = append(out, ranked{Narrowed{p.Name, n.Advice}, n.By})
	}
	slices.SortStableFunc(out, func(a, b ranked) int { return cmp.Compare(a.by, b.by) })
	list := make([]Narrowed, len(out))
	for i, r := range out {
		list[i] = r.Narrowed
	}
	return list
}

// conditionsList reports whether s is a list of conditions: the
// conditions definition, or a list of its conditions, tests or field
// tests ({field, operator, …}).
func conditionsList(s *Schema) bool {
	if s.Ref == "#/$defs/"+ConditionsDef {
		return true
	}
	if s.Type != "array" || s.Items == nil {
		return false
	}
	return s.Items.Ref != "" || slices.ContainsFunc(s.Items.Props, func(p Prop) bool { return p.Name == "operator" })
}

// LimitNarrows is the advice of a limit on a call's results, generated or
// handler-backed.
func LimitNarrows() *Narrowing { return Narrows(NarrowResults, "a smaller limit") }

// smaller is the advice of a count named name: fewer of a plural
// ("fewer buckets"), a smaller one of anything else ("a smaller depth").
func smaller(name string) string {
	if strings.HasSuffix(name, "s") {
		return "fewer " + name
	}
	return "a smaller " + name
}

package tools

import (
	"fmt"
	"slices"
)

// Include asks for fields of the entities across one relationship (stored
// or computed expression fields, as a relationship test reads them) with
// every entity a call returns (issue 20: a flight with
// its origin's code). Parse fills Direction and Entity as for a
// relationship test, Fields with the related entity's unique field and
// Limit with DefaultIncludeLimit.
type Include struct {
	Via       string   `json:"via"`
	Direction string   `json:"direction"`
	Entity    string   `json:"entity"`
	Fields    []string `json:"fields"`
	// Limit is the most related entities listed per entity.
	Limit int `json:"limit"`
}

// The bounds of include: a few lists of a few entities each, so a page of
// results stays small whatever the degree of its entities.
const (
	DefaultIncludeLimit = 5
	MaxIncludeLimit     = 25
	maxIncludes         = 4
)

// IncludeProp is the include argument; nil when the model has no
// relationships. It is written tersely (issue 20's catalog budgets): its
// items are plain strings and an integer that Parse checks, naming the
// valid choices and the bounds, and via, direction and entity mean what
// they mean in a relationship test, which the condition help says.
func (g *Generator) IncludeProp() *Prop {
	if len(g.c.edges) == 0 {
		return nil
	}
	return &Prop{"include", &Schema{
		Type:        "array",
		Description: fmt.Sprintf("Adds related: {via: [fields (default: unique) of up to limit (default %d) entities]}", DefaultIncludeLimit),
		Items: Object(
			Prop{"via", &Schema{Type: "string"}},
			Prop{"direction", &Schema{Type: "string"}},
			Prop{"entity", &Schema{Type: "string"}},
			Prop{"fields", &Schema{Type: "array", Items: &Schema{Type: "string"}}},
			Prop{"limit", &Schema{Type: "integer"}},
		),
	}}
}

// Include checks the include argument of a call on entity start: each hop
// resolved to one related entity (direction and entity filled when only
// one fits), each relationship type once (it keys the result), fields
// among those a relationship test reads (RelatedOffer), limits filled.
func (ck *Checker) Include(start string, incs []Include) {
	if len(incs) > maxIncludes {
		ck.p.add("/include", "at most %d includes", maxIncludes)
		return
	}
	var seen []string
	for i := range incs {
		in := &incs[i]
		at := Pointer("include", i)
		if in.Via == "" {
			ck.p.choose(at+"/via", ck.c.typesOf(start), "include needs via, a relationship type of %s", start)
			continue
		}
		r := Related{Via: in.Via, Direction: in.Direction, Entity: in.Entity}
		if !ck.c.checkRelated(start, &r, at, 0, &ck.p) {
			continue
		}
		in.Direction, in.Entity = r.Direction, r.Entity
		if in.Entity == "" {
			ck.p.choose(at+"/entity", ck.c.targets(start, in.Via, in.Direction), "%s --[%s]-- (%s) reaches several entity types; name one", start, in.Via, in.Direction)
			continue
		}
		if slices.Contains(seen, in.Via) {
			ck.p.add(at+"/via", "include names %s once (it keys the related lists)", in.Via)
			continue
		}
		seen = append(seen, in.Via)
		o := ck.c.relatedOffer(in.Entity, at+"/entity", &ck.p)
		if o == nil {
			continue
		}
		if len(in.Fields) == 0 {
			in.Fields = []string{o.Entity.UniqueField}
		}
		for j, f := range in.Fields {
			if o.Field(f) == nil {
				ck.p.choose(at+Pointer("fields", j), o.FieldNames(), "%q is not a field of %s", f, in.Entity)
			}
		}
		switch {
		case in.Limit == 0:
			in.Limit = DefaultIncludeLimit
		case in.Limit < 0 || in.Limit > MaxIncludeLimit:
			ck.p.add(at+"/limit", "limit is 1 to %d", MaxIncludeLimit)
		}
	}
}

// IncludeCutNote is the note of a result some of whose related lists
// (include) stopped at their limit.
func IncludeCutNote() string {
	return fmt.Sprintf("related_cut names the related lists that hold only the first limit entities (by unique field); raise include's limit (at most %d)", MaxIncludeLimit)
}

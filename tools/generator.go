package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// Generator is what a [Kind]'s Generate writes its tool with: the model,
// the options and limits, the offers, and the description pieces the
// tools share (the graph overview, the condition grammar, the field
// lists), which remember what the catalog described already.
type Generator struct {
	c    *Catalog
	m    *model.Model
	opts Options
	// described holds the fields the overview describes, and
	// edgesDescribed whether it lists the relationships: what the other
	// tools may refer to instead of describing again.
	described      *described
	edgesDescribed bool
}

// add appends a generated tool (all generated tools are read-only) and
// records the per-entity offers Parse checks calls against.
func (g *Generator) add(k *Kind, out *Generated) {
	g.c.Tools = append(g.c.Tools, &Tool{
		Name:         k.Name,
		Description:  strings.TrimRight(out.Description, "\n"),
		GraphSchema:  out.GraphSchema,
		InputSchema:  json.RawMessage(marshal(out.Input)),
		ReadOnly:     true,
		Category:     k.Category,
		StatementArg: k.StatementArg,
		kind:         k,
		least:        leastValues(out.Input),
		narrowing:    narrowings(out.Input),
	})
	g.c.offers[k.Name] = out.Offers
}

// leastValues are the least values in's arguments declare.
func leastValues(in *Schema) map[string]int64 {
	least := map[string]int64{}
	if in == nil {
		return least
	}
	for _, p := range in.Props {
		if p.Schema.Least != nil {
			least[p.Name] = *p.Schema.Least
		}
	}
	return least
}

// Model is the model the catalog is generated for.
func (g *Generator) Model() *model.Model { return g.m }

// Limits are the catalog's limits, defaults filled.
func (g *Generator) Limits() Limits { return g.c.limits }

// EmbedderCaveat is [Options.EmbedderCaveat]: "" unless the embedder's
// vectors are not semantic.
func (g *Generator) EmbedderCaveat() string { return g.opts.EmbedderCaveat }

// Capabilities are the server's capabilities the catalog is for.
func (g *Generator) Capabilities() Capabilities { return g.c.caps }

// QueryOffers are query_entities' offers: every entity it may query with
// every field and the operators conditions may apply, as every tool's
// conditions offer them (new offers on each call, the tool's to keep).
func (g *Generator) QueryOffers() []*EntityOffer { return queryOffers(g.m) }

// QueryOffer is the named entity's query offer, nil when exposed_tools
// disables query_entities for it.
func (g *Generator) QueryOffer(entity string) *EntityOffer {
	for _, o := range g.c.conditionOffers {
		if o.Entity.Name == entity {
			return o
		}
	}
	return nil
}

// SpecializedOffers are the offers of a specialized tool: see
// specializedOffers.
func (g *Generator) SpecializedOffers(tool string, kind model.Type, keep func(e *model.Entity, f *FieldOffer, mode string) bool) []*EntityOffer {
	return specializedOffers(g.m, tool, kind, keep)
}

// FuzzySupported reports whether the server can run fuzzy matching on a
// field: through APOC on any string field, or through the full-text index
// that covers it.
func (g *Generator) FuzzySupported(e *model.Entity, f *FieldOffer) bool {
	return g.c.fuzzySupported(e, f)
}

// RelationshipTypes lists the model's relationship types in first-seen
// order.
func (g *Generator) RelationshipTypes() []string { return relationshipTypes(g.c.edges) }

// PropertiedTypes lists the relationship types that declare properties.
func (g *Generator) PropertiedTypes() []string { return propertiedTypes(g.c.edges) }

// TypesOf lists the relationship types that touch the named entity.
func (g *Generator) TypesOf(entity string) []string { return g.c.typesOf(entity) }

// Connected lists the entities some relationship touches, in the model's
// order.
func (g *Generator) Connected() []string {
	var out []string
	for _, e := range g.c.edges {
		for _, n := range []string{e.From, e.To} {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return OrderLike(out, g.m.EntityNames())
}

// Shared argument schemas.

// EntityTypeProp is the entity_type argument, one of names.
func EntityTypeProp(names []string) Prop {
	return Prop{"entity_type", &Schema{Type: "string", Enum: names}}
}

// LimitProp is a limit of at most Limits.MaxLimit.
func (g *Generator) LimitProp() Prop { return g.LimitUpTo(g.c.limits.MaxLimit) }

// LimitUpTo is a limit of at most max. The schema's maximum is the one
// truncation notes read (TruncationNote); its default and bounds say all
// an agent needs, so it has no description. That it is at least 1 goes
// without saying, and Parse checks it (countFloors).
func (g *Generator) LimitUpTo(max int) Prop {
	l := g.c.limits
	return Prop{"limit", &Schema{
		Type:    "integer",
		Default: l.DefaultLimit,
		Maximum: Num(float64(max)),
		Least:   Least(1),
		Narrow:  LimitNarrows(),
	}}
}

// OffsetProp is the offset of a tool that pages its results. Like a
// boolean flag's false, its default (0) goes without saying, and so does
// its lower bound, which Parse checks (countFloors).
func (g *Generator) OffsetProp() Prop {
	return Prop{"offset", &Schema{Type: "integer", Maximum: Num(float64(g.c.limits.MaxOffset)), Least: Least(0)}}
}

// MaxTotal is the most matches a list's total counts: past it, the answer
// says "more than MaxTotal" rather than reading every match of a broad
// call.
const MaxTotal = 10_000

// TotalProp asks a list tool for the count of every match besides the
// page (the answer's total, where count is the page's size), so "which,
// and how many" is one call; it stops at MaxTotal.
func TotalProp() Prop {
	return Prop{"total", &Schema{Type: "boolean", Description: fmt.Sprintf("Also count all matches (answer's total; at most %d)", MaxTotal)}}
}

// TotalCapNote says a total stopped at MaxTotal.
func TotalCapNote() string {
	return fmt.Sprintf("more than %d match: the total stopped counting there (total_at_least); narrow the conditions for an exact count", MaxTotal)
}

// FieldProp is a field name argument. The description lists the fields a
// tool offers per entity, and Parse checks the name against the chosen
// entity with the valid choices, so the schema does not list them again.
func FieldProp(name string) Prop {
	return Prop{name, &Schema{Type: "string"}}
}

// operatorSummary renders the operators, read from the fields themselves:
// each set of operators with the field types that take them ("<, <=, >,
// >= (string, number, datetime)"), "any type" when all do. A field whose
// operators differ from its type's (narrowed by exposed_tools) is odd: the
// overview lists its own.
func operatorSummary(offers []*EntityOffer) (summary string, odd map[*FieldOffer]bool) {
	// The operators of each kind of field (an integer is a number), from
	// its first field; kinds in first-seen order.
	var kinds []model.Type
	ops := map[model.Type][]string{}
	odd = map[*FieldOffer]bool{}
	for _, o := range offers {
		for _, f := range o.Fields {
			k := f.Field.Type.Kind()
			if _, ok := ops[k]; !ok {
				kinds = append(kinds, k)
				ops[k] = f.Modes
			}
			if !slices.Equal(ops[k], f.Modes) {
				odd[f] = true
			}
		}
	}
	// takers names the kinds taking op; sets collects the operators each
	// list of kinds takes, in the order of their first operator.
	takers := func(op string) string {
		var ks []string
		for _, k := range kinds {
			if slices.Contains(ops[k], op) {
				ks = append(ks, string(k))
			}
		}
		if len(ks) == len(kinds) {
			return "any type"
		}
		return strings.Join(ks, ", ")
	}
	var keys []string
	sets := map[string][]string{}
	for _, op := range UnionModes(offers) {
		k := takers(op)
		if _, ok := sets[k]; !ok {
			keys = append(keys, k)
		}
		sets[k] = append(sets[k], op)
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = strings.Join(sets[k], ", ") + " (" + k + ")"
	}
	return strings.Join(parts, "; "), odd
}

// OrderLike sorts names in the order they appear in ref.
func OrderLike(names, ref []string) []string {
	slices.SortStableFunc(names, func(a, b string) int { return slices.Index(ref, a) - slices.Index(ref, b) })
	return names
}

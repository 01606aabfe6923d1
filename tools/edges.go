package tools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// edge is one relationship as stored in the graph: From --[Type]--> To, or
// an undirected pair when the config declared direction both. Configs often
// declare the same edge from both ends (File CONTAINS Scope outgoing, Scope
// CONTAINS File incoming); edges are deduplicated so the agent reads each
// once.
type edge struct {
	From, Type, To string
	Undirected     bool
	Description    string
	// Properties are the stored properties, then the computed fields
	// (whose expressions Computed holds).
	Properties []*model.Field
	Computed   []*model.ComputedField
}

// computed returns the computed field named name, or nil for a stored
// property.
func (e edge) computed(name string) *model.ComputedField {
	for _, c := range e.Computed {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// collectEdges gathers the edges of all entities. Outgoing and undirected
// declarations come first so an edge is described from its source's side
// ("Top-level declarations of the file"), then incoming ones add the edges
// only their target declared.
func collectEdges(m *model.Model) []edge {
	var out []edge
	add := func(e edge) {
		for i := range out {
			o := &out[i]
			same := o.Type == e.Type && o.Undirected == e.Undirected &&
				((o.From == e.From && o.To == e.To) || (e.Undirected && o.From == e.To && o.To == e.From))
			if same {
				for _, p := range e.Properties {
					if !slices.ContainsFunc(o.Properties, func(q *model.Field) bool { return q.Name == p.Name }) {
						o.Properties = append(o.Properties, p)
						if c := e.computed(p.Name); c != nil {
							o.Computed = append(o.Computed, c)
						}
					}
				}
				if o.Description == "" {
					o.Description = e.Description
				}
				return
			}
		}
		out = append(out, e)
	}
	for pass := 0; pass < 2; pass++ {
		for _, ent := range m.Entities {
			for _, r := range ent.Relationships {
				incoming := r.Direction == model.Incoming
				if incoming != (pass == 1) {
					continue
				}
				for _, t := range r.Targets {
					e := edge{From: ent.Name, Type: r.Type, To: t, Description: r.Description, Properties: r.Fields(), Computed: r.Computed}
					switch r.Direction {
					case model.Incoming:
						e.From, e.To = t, ent.Name
					case model.Both:
						e.Undirected = true
					}
					add(e)
				}
			}
		}
	}
	return out
}

// String renders the edge the way the seeds' design draws it:
// Source --[TYPE]--> Target, or Source --[TYPE]-- Target when undirected,
// with the relationship's properties in braces.
func (e edge) String() string {
	var props string
	if len(e.Properties) > 0 {
		parts := make([]string, len(e.Properties))
		for i, p := range e.Properties {
			parts[i] = p.Name + ": " + propertyLabel(p)
			if c := e.computed(p.Name); c != nil {
				parts[i] += " = " + c.Expression
			}
		}
		props = " {" + strings.Join(parts, ", ") + "}"
	}
	arrow := "-->"
	if e.Undirected {
		arrow = "--"
	}
	return fmt.Sprintf("%s --[%s%s]%s %s", e.From, e.Type, props, arrow, e.To)
}

// relationshipTypes lists the distinct relationship types in first-seen
// order: the enum of explore_relationships' relationship_type.
func relationshipTypes(edges []edge) []string {
	var out []string
	for _, e := range edges {
		if !slices.Contains(out, e.Type) {
			out = append(out, e.Type)
		}
	}
	return out
}

// propertiedTypes lists the relationship types some declaration of which
// has properties, in first-seen order.
func propertiedTypes(edges []edge) []string {
	var out []string
	for _, e := range edges {
		if len(e.Properties) > 0 && !slices.Contains(out, e.Type) {
			out = append(out, e.Type)
		}
	}
	return out
}

// Hop is one way to follow a relationship type from a start entity: the
// direction seen from it and the entity type reached.
type Hop struct {
	Direction model.Direction
	Target    string
}

// hops lists how relationship type typ can be followed from entity start:
// outgoing along an edge that starts there, incoming against one that ends
// there, and both for undirected edges (or either way).
func hops(edges []edge, start, typ string) []Hop {
	var out []Hop
	addHop := func(h Hop) {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	for _, e := range edges {
		if e.Type != typ {
			continue
		}
		if e.Undirected {
			if e.From == start {
				addHop(Hop{model.Both, e.To})
			}
			if e.To == start {
				addHop(Hop{model.Both, e.From})
			}
			continue
		}
		if e.From == start {
			addHop(Hop{model.Outgoing, e.To})
			addHop(Hop{model.Both, e.To})
		}
		if e.To == start {
			addHop(Hop{model.Incoming, e.From})
			addHop(Hop{model.Both, e.From})
		}
	}
	return out
}

// mergeTargets joins consecutive edges that differ only in their target
// (Source --[mentions]--> Person|Entity|Concept), as the config declared
// them, so a multi-target relationship costs one line.
func mergeTargets(edges []edge) []edge {
	var out []edge
	for _, e := range edges {
		if n := len(out); n > 0 {
			last := &out[n-1]
			same := last.From == e.From && last.Type == e.Type && last.Undirected == e.Undirected &&
				last.Description == e.Description && fmt.Sprint(propsOf(last.Properties)) == fmt.Sprint(propsOf(e.Properties))
			if same {
				last.To += "|" + e.To
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

func propsOf(fs []*model.Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name + ":" + string(f.Type)
	}
	return out
}

// reachable extends the entities one hop reaches (first) to those reached
// within depth hops of the same relationship types and direction, so a
// target_entity_type two CONTAINS hops away (Directory → File → Scope) is
// accepted at depth 2 and refused at depth 1.
func reachable(edges []edge, first []string, types []string, direction string, depth int) []string {
	out := slices.Clone(first)
	frontier := first
	for d := 1; d < depth && len(frontier) > 0; d++ {
		var next []string
		for _, ent := range frontier {
			for _, typ := range types {
				for _, h := range hops(edges, ent, typ) {
					if string(h.Direction) == direction && !slices.Contains(out, h.Target) {
						out = append(out, h.Target)
						next = append(next, h.Target)
					}
				}
			}
		}
		frontier = next
	}
	return out
}

// ends lists the entity types relationship type typ is stored from and
// to: an edge's From and To, and both ways for an undirected edge, whose
// stored arrow may point either way.
func ends(edges []edge, typ string) (from, to []string) {
	add := func(l []string, n string) []string {
		if !slices.Contains(l, n) {
			l = append(l, n)
		}
		return l
	}
	for _, e := range edges {
		if e.Type != typ {
			continue
		}
		from, to = add(from, e.From), add(to, e.To)
		if e.Undirected {
			from, to = add(from, e.To), add(to, e.From)
		}
	}
	return from, to
}

// Ends lists, in the model's entity order, the entity types relationship
// type typ is stored from and to.
func (r *Relationships) Ends(typ string) (from, to []string) {
	from, to = ends(r.edges, typ)
	return OrderLike(from, r.order), OrderLike(to, r.order)
}

// Relationships are a model's relationships as stored edges, gathered once
// so that planning a call does not gather them again.
type Relationships struct {
	edges []edge
	order []string
}

// NewRelationships gathers m's relationships.
func NewRelationships(m *model.Model) *Relationships {
	return &Relationships{edges: collectEdges(m), order: m.EntityNames()}
}

// Reachable lists, in the model's entity order, the entity types that
// start reaches by following the relationship types in direction for at
// most depth hops: explore_relationships' possible targets, and one hop of
// a relationship test.
func (r *Relationships) Reachable(start string, types []string, direction string, depth int) []string {
	edges := r.edges
	var first []string
	for _, t := range types {
		for _, h := range hops(edges, start, t) {
			if string(h.Direction) == direction && !slices.Contains(first, h.Target) {
				first = append(first, h.Target)
			}
		}
	}
	return OrderLike(reachable(edges, first, types, direction, depth), r.order)
}

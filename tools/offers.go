package tools

import (
	"slices"

	"github.com/ragforge/ragforge/model"
)

// FieldOffer is one field as a tool offers it: the field (stored or
// computed) and the modes (or operators) the tool may apply to it.
type FieldOffer struct {
	Field    *model.Field
	Computed *model.ComputedField // nil for a stored field
	Modes    []string
}

// EntityOffer is what one tool offers for one entity.
type EntityOffer struct {
	Entity *model.Entity
	Fields []*FieldOffer
}

// Field returns the offered field with the given name, or nil.
func (o *EntityOffer) Field(name string) *FieldOffer {
	for _, f := range o.Fields {
		if f.Field.Name == name {
			return f
		}
	}
	return nil
}

// FieldNames lists the offered field names: the valid choices of an error.
func (o *EntityOffer) FieldNames() []string {
	names := make([]string, len(o.Fields))
	for i, f := range o.Fields {
		names[i] = f.Field.Name
	}
	return names
}

// offerFor returns the offer of tool for the named entity, or nil.
func (c *Catalog) offerFor(tool, entity string) *EntityOffer {
	for _, o := range c.offers[tool] {
		if o.Entity.Name == entity {
			return o
		}
	}
	return nil
}

// Entities lists the entities the named tool offers (its entity_type
// argument's choices), none for a tool that offers no entity.
func (c *Catalog) Entities(tool string) []string { return OfferEntities(c.offers[tool]) }

// RelationshipTypes lists the model's relationship types, as the
// generated tools name them.
func (c *Catalog) RelationshipTypes() []string { return relationshipTypes(c.edges) }

// OfferEntities lists the entities a tool offers: the enum of its
// entity_type argument.
func OfferEntities(offers []*EntityOffer) []string {
	names := make([]string, len(offers))
	for i, o := range offers {
		names[i] = o.Entity.Name
	}
	return names
}

// allFields lists an entity's stored then computed fields as offers with no
// modes yet. The tenant field is never offered: the engine binds it.
func allFields(m *model.Model, e *model.Entity) []*FieldOffer {
	out := make([]*FieldOffer, 0, len(e.Fields)+len(e.Computed))
	for _, f := range e.Fields {
		if m.Tenant != nil && f.Name == m.Tenant.Field {
			continue
		}
		out = append(out, &FieldOffer{Field: f})
	}
	for _, c := range e.Computed {
		out = append(out, &FieldOffer{Field: &c.Field, Computed: c})
	}
	return out
}

// control returns the entity's exposed_tools entry for tool; ok is false
// when the config has none (the tool is then fully enabled).
func control(e *model.Entity, tool string) (model.ToolControl, bool) {
	ctl, ok := e.ExposedTools[tool]
	return ctl, ok
}

// Enabled reports whether exposed_tools leaves tool enabled for entity e
// (a tool the config does not mention is).
func Enabled(e *model.Entity, tool string) bool {
	ctl, has := control(e, tool)
	return !has || ctl.Enabled
}

// narrow keeps the items of have that are in allowed; a nil allowed keeps
// everything (the config did not narrow).
func narrow(have, allowed []string) []string {
	if allowed == nil {
		return have
	}
	var out []string
	for _, h := range have {
		if slices.Contains(allowed, h) {
			out = append(out, h)
		}
	}
	return out
}

// ConditionsControl is the exposed_tools entry that narrows what the
// conditions of every tool offer: query_entities', whose conditions the
// other tools share (planner.QueryEntities is this name).
const ConditionsControl = "query_entities"

// queryOffers is what query_entities (and the condition lists of other
// tools) offer: every field, exposed to specialized tools or not, with its
// operators narrowed by exposed_tools.query_entities.
func queryOffers(m *model.Model) []*EntityOffer {
	var out []*EntityOffer
	for _, e := range m.Entities {
		ctl, has := control(e, ConditionsControl)
		if has && !ctl.Enabled {
			continue
		}
		o := &EntityOffer{Entity: e}
		for _, f := range allFields(m, e) {
			if has && ctl.Fields != nil && !slices.Contains(ctl.Fields, f.Field.Name) && f.Field.Name != e.UniqueField {
				continue
			}
			f.Modes = narrow(f.Field.Operators, ctl.Operators)
			o.Fields = append(o.Fields, f)
		}
		out = append(out, o)
	}
	return out
}

// specializedOffers is what a specialized tool offers: per entity, the
// fields of the given kind that are exposed to tools (and listed in
// exposed_tools.<tool>.fields when given), with the modes the CUE rules
// derived narrowed by exposed_tools.<tool>.modes (or .operators, the seeds'
// spelling for number_range). keep may drop further modes (fuzzy without
// server support). Entities and fields left with nothing are omitted.
func specializedOffers(m *model.Model, tool string, kind model.Type, keep func(e *model.Entity, f *FieldOffer, mode string) bool) []*EntityOffer {
	var out []*EntityOffer
	for _, e := range m.Entities {
		ctl, has := control(e, tool)
		if has && !ctl.Enabled {
			continue
		}
		o := &EntityOffer{Entity: e}
		for _, f := range allFields(m, e) {
			if f.Field.Type.Kind() != kind || !f.Field.Exposed {
				continue
			}
			if has && ctl.Fields != nil && !slices.Contains(ctl.Fields, f.Field.Name) {
				continue
			}
			modes := f.Field.Modes
			if has {
				modes = narrow(modes, ctl.Modes)
				modes = narrow(modes, ctl.Operators)
			}
			for _, mode := range modes {
				if keep == nil || keep(e, f, mode) {
					f.Modes = append(f.Modes, mode)
				}
			}
			if len(f.Modes) > 0 {
				o.Fields = append(o.Fields, f)
			}
		}
		if len(o.Fields) > 0 {
			out = append(out, o)
		}
	}
	return out
}

// unionFields lists the distinct field names of offers in first-seen order:
// the enum of a tool's field argument.
func unionFields(offers []*EntityOffer) []string {
	var out []string
	for _, o := range offers {
		for _, f := range o.Fields {
			if !slices.Contains(out, f.Field.Name) {
				out = append(out, f.Field.Name)
			}
		}
	}
	return out
}

// UnionModes lists the distinct modes of offers, in the order of the field
// offering the most modes (the order of the CUE rules, when a field is not
// narrowed), then first-seen.
func UnionModes(offers []*EntityOffer) []string {
	var out, ref []string
	for _, o := range offers {
		for _, f := range o.Fields {
			if len(f.Modes) > len(ref) {
				ref = f.Modes
			}
			for _, m := range f.Modes {
				if !slices.Contains(out, m) {
					out = append(out, m)
				}
			}
		}
	}
	rank := func(m string) int {
		if i := slices.Index(ref, m); i >= 0 {
			return i
		}
		return len(ref)
	}
	slices.SortStableFunc(out, func(a, b string) int { return rank(a) - rank(b) })
	return out
}

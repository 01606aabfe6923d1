package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// generator builds the tools of one catalog.
type generator struct {
	c    *Catalog
	m    *model.Model
	opts Options
}

// add appends a generated tool (all generated tools are read-only) and
// records the per-entity offers Validate checks calls against.
func (g *generator) add(name string, cat Category, desc string, in *schema, offers []*entityOffer) {
	raw := json.RawMessage(marshal(in))
	g.c.Tools = append(g.c.Tools, &Tool{
		Name:        name,
		Description: strings.TrimRight(desc, "\n"),
		InputSchema: raw,
		ReadOnly:    true,
		Category:    cat,
	})
	g.c.offers[name] = offers
}

// Shared argument schemas.

func entityTypeProp(names []string, desc string) prop {
	return prop{"entity_type", &schema{Type: "string", Description: desc, Enum: names}}
}

func (g *generator) limitProp() prop { return g.limitUpTo(g.c.limits.MaxLimit, "results") }

// limitUpTo is a limit of at most max of what (results, groups). The
// schema's maximum is the one truncation notes read (TruncationNote).
func (g *generator) limitUpTo(max int, what string) prop {
	l := g.c.limits
	return prop{"limit", &schema{
		Type:        "integer",
		Description: fmt.Sprintf("Maximum %s (default %d, at most %d)", what, l.DefaultLimit, max),
		Default:     l.DefaultLimit,
		Minimum:     num(1),
		Maximum:     num(float64(max)),
	}}
}

// offsetProp is the offset of a tool that pages what (results, groups).
func (g *generator) offsetProp(what string) prop {
	return prop{"offset", &schema{Type: "integer", Description: what + " to skip, for paging", Default: 0, Minimum: num(0), Maximum: num(float64(g.c.limits.MaxOffset))}}
}

func fieldProp(name string, names []string, desc string) prop {
	return prop{name, &schema{Type: "string", Description: desc, Enum: names}}
}

// valueSchema accepts what a condition compares with: a scalar, or a list
// for IN / NOT IN. Its fit with the field's type is checked by Validate.
func valueSchema(desc string) *schema {
	scalar := func() []*schema {
		return []*schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"}}
	}
	return &schema{Description: desc, AnyOf: append(scalar(), &schema{
		Type:  "array",
		Items: &schema{AnyOf: scalar()[:2]},
	})}
}

// conditionsProp is the seeds' conditions list: {field, operator, value}
// items ANDed together.
func conditionsProp(name string, offers []*entityOffer, desc string) prop {
	return prop{name, &schema{
		Type:        "array",
		Description: desc,
		MaxItems:    count(maxConditions),
		Items:       fieldTest(unionFields(offers), unionModes(offers), "Field of the entity (computed fields included)"),
	}}
}

// fieldTest is the schema of one {field, operator, value, ignore_case}
// condition.
func fieldTest(fields, ops []string, fieldDesc string) *schema {
	props := []prop{
		fieldProp("field", fields, fieldDesc),
		{"operator", &schema{Type: "string", Enum: ops}},
		{"value", valueSchema("Value to compare with: a list for IN/NOT IN, omitted for IS NULL/IS NOT NULL")},
	}
	if slices.Contains(ops, "CONTAINS") || slices.Contains(ops, "STARTS WITH") || slices.Contains(ops, "ENDS WITH") {
		props = append(props, prop{"ignore_case", &schema{Type: "boolean", Description: "Compare strings ignoring case (default: case-sensitive)", Default: false}})
	}
	return object(props...).require("field", "operator")
}

// operatorSummary renders the operators per field type, read from the
// fields themselves; a field whose operators differ from its type's (narrowed
// by exposed_tools) is listed on its own.
func operatorSummary(offers []*entityOffer) (summary string, odd map[*fieldOffer]bool) {
	type group struct {
		types []string
		ops   []string
	}
	var groups []*group
	byKind := map[model.Type]*group{}
	odd = map[*fieldOffer]bool{}
	for _, o := range offers {
		for _, f := range o.Fields {
			k := f.Field.Type.Kind()
			g, ok := byKind[k]
			if !ok {
				g = &group{ops: f.Modes}
				byKind[k] = g
				groups = append(groups, g)
			}
			if !slices.Contains(g.types, string(f.Field.Type)) {
				g.types = append(g.types, string(f.Field.Type))
			}
			if !slices.Equal(g.ops, f.Modes) {
				odd[f] = true
			}
		}
	}
	var b strings.Builder
	for _, g := range groups {
		fmt.Fprintf(&b, "- %s: %s\n", strings.Join(g.types, ", "), strings.Join(g.ops, ", "))
	}
	return b.String(), odd
}

// queryEntities is the general tool: every entity, every field, with the
// enhanced description of the seeds.
func (g *generator) queryEntities() {
	offers := queryOffers(g.m)
	if len(offers) == 0 {
		return
	}
	ops, odd := operatorSummary(offers)
	var b strings.Builder
	b.WriteString("Query entities with conditions on their fields (ANDed), ordering and paging.\n\n")
	b.WriteString("Entities, their fields (type) and computed fields (read-only, evaluated per query; usable in conditions and order_by):\n")
	for _, o := range offers {
		b.WriteString(entityHeader(o.Entity) + "\n")
		for _, f := range o.Fields {
			extra := ""
			if odd[f] {
				extra = " {operators: " + strings.Join(f.Modes, ", ") + "}"
			}
			b.WriteString(fieldLine(o.Entity, f, extra) + "\n")
		}
	}
	b.WriteString("\nOperators by field type:\n" + ops)
	b.WriteString("IN/NOT IN take a list value; IS NULL/IS NOT NULL take no value. String tests are case-sensitive unless ignore_case is true.\n")
	b.WriteString(g.relationalHelp())
	fmt.Fprintf(&b, "order_by is an ORDER BY on one key or a list (most significant first), any field or computed field, ASC or DESC; entities without a value come last either way. limit defaults to %d (at most %d); page with offset.", g.c.limits.DefaultLimit, g.c.limits.MaxLimit)

	in := object(
		entityTypeProp(offerEntities(offers), "Entity to query"),
		g.relationalConditionsProp("conditions", offers, "Conditions, all of which must hold"),
		orderByProp(unionFields(offers), "Sort key, or a list of them"),
		g.limitProp(),
		g.offsetProp("Results"),
		prop{"fields", &schema{
			Type:        "array",
			Description: "Fields to return (default: all stored fields plus the unique field)",
			Items:       &schema{Type: "string", Enum: unionFields(offers)},
			MinItems:    count(1),
			MaxItems:    count(maxFieldsInProjection),
			UniqueItems: true,
		}},
	).require("entity_type")
	g.add(QueryEntities, CategoryQuery, b.String(), in, offers)
}

// getEntityByID fetches one entity by its unique field.
func (g *generator) getEntityByID() {
	var offers []*entityOffer
	for _, e := range g.m.Entities {
		if ctl, has := control(e, GetEntityByID); has && !ctl.Enabled {
			continue
		}
		f := e.Field(e.UniqueField)
		if f == nil {
			continue
		}
		offers = append(offers, &entityOffer{Entity: e, Fields: []*fieldOffer{{Field: f}}})
	}
	if len(offers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("Get one entity with all its properties by its unique identifier, e.g. an id returned by another tool.\n\nUnique identifier per entity:\n")
	for _, o := range offers {
		f := o.Fields[0].Field
		fmt.Fprintf(&b, "- %s: %s (%s)", o.Entity.Name, f.Name, f.Type)
		if f.Description != "" {
			b.WriteString(" - " + f.Description)
		}
		b.WriteByte('\n')
	}
	in := object(
		entityTypeProp(offerEntities(offers), "Entity type"),
		prop{"id_value", &schema{Description: "Value of the entity's unique field", AnyOf: []*schema{{Type: "string"}, {Type: "number"}}}},
	).require("entity_type", "id_value")
	g.add(GetEntityByID, CategoryQuery, b.String(), in, offers)
}

// exploreRelationships follows relationship types from start entities.
func (g *generator) exploreRelationships() {
	if len(g.c.edges) == 0 {
		return
	}
	var starts []*entityOffer
	for _, o := range queryOffers(g.m) {
		if ctl, has := control(o.Entity, ExploreRelationships); has && !ctl.Enabled {
			continue
		}
		if len(g.c.typesOf(o.Entity.Name)) > 0 {
			starts = append(starts, o)
		}
	}
	if len(starts) == 0 {
		return
	}
	var entities []*model.Entity
	for _, o := range starts {
		entities = append(entities, o.Entity)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Follow relationships from start entities (start_entity_type filtered by start_conditions) to the entities connected to them, up to depth %d; each connected entity comes once per start, at its shortest depth.\n\n", g.c.limits.MaxDepth)
	b.WriteString("Relationships (the arrow is the stored direction):\n")
	for _, e := range mergeTargets(g.c.edges) {
		b.WriteString("- " + e.String())
		if e.Description != "" {
			b.WriteString(": " + e.Description)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\ndirection is seen from the start entity: outgoing follows the arrow (A --[R]--> B from A), incoming goes against it (from B back to A), both ignores it. Each result carries from_id, depth and path: the relationships from the start to it (type and properties), in order.\n")
	b.WriteString("Unique ids: " + uniqueFields(entities) + ".")

	var targets []string
	for _, e := range g.c.edges {
		for _, n := range []string{e.From, e.To} {
			if !slices.Contains(targets, n) {
				targets = append(targets, n)
			}
		}
	}
	targets = orderLike(targets, g.m.EntityNames())
	var tOffers []*entityOffer
	for _, o := range g.queryOffersOf(targets) {
		tOffers = append(tOffers, storedOffer(o))
	}
	l := g.c.limits
	in := object(
		prop{"start_entity_type", &schema{Type: "string", Description: "Entity to start from", Enum: offerEntities(starts)}},
		conditionsProp("start_conditions", starts, "Conditions selecting the start entities, e.g. its unique field = id"),
		prop{"relationship_type", &schema{Type: "string", Enum: relationshipTypes(g.c.edges)}},
		prop{"relationship_types", &schema{Type: "array", Description: "Several relationship types to follow together (instead of relationship_type)", Items: &schema{Type: "string", Enum: relationshipTypes(g.c.edges)}, MinItems: count(1), UniqueItems: true}},
		prop{"direction", &schema{Type: "string", Enum: Directions, Default: Directions[0]}},
		prop{"target_entity_type", &schema{Type: "string", Description: "Keep only connected entities of this type", Enum: targets}},
		conditionsProp("target_conditions", tOffers, "Conditions on the connected entities' stored fields (needs target_entity_type when several types are reachable)"),
		orderByProp(unionFields(tOffers), "Sort the connected entities by their fields (default: nearest first); needs target_entity_type when several types are reachable"),
		prop{"depth", &schema{Type: "integer", Description: fmt.Sprintf("Hops to follow (default %d, at most %d)", DefaultDepth, l.MaxDepth), Default: DefaultDepth, Minimum: num(1), Maximum: num(float64(l.MaxDepth))}},
		g.limitProp(),
		g.offsetProp("Results"),
	).require("start_entity_type")
	g.add(ExploreRelationships, CategoryGraph, b.String(), in, starts)
}

// orderLike sorts names in the order they appear in ref.
func orderLike(names, ref []string) []string {
	slices.SortStableFunc(names, func(a, b string) int { return slices.Index(ref, a) - slices.Index(ref, b) })
	return names
}

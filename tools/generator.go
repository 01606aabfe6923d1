package tools

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ragforge/ragforge/model"
)

// generator builds the tools of one catalog.
type generator struct {
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
// records the per-entity offers Validate checks calls against.
func (g *generator) add(name string, cat Category, desc string, in *Schema, offers []*EntityOffer) {
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

func EntityTypeProp(names []string) Prop {
	return Prop{"entity_type", &Schema{Type: "string", Enum: names}}
}

func (g *generator) limitProp() Prop { return g.limitUpTo(g.c.limits.MaxLimit) }

// limitUpTo is a limit of at most max. The schema's maximum is the one
// truncation notes read (TruncationNote); its default and bounds say all
// an agent needs, so it has no description. That it is at least 1 goes
// without saying, and Parse checks it (countFloors).
func (g *generator) limitUpTo(max int) Prop {
	l := g.c.limits
	return Prop{"limit", &Schema{
		Type:    "integer",
		Default: l.DefaultLimit,
		Maximum: Num(float64(max)),
	}}
}

// offsetProp is the offset of a tool that pages its results. Like a
// boolean flag's false, its default (0) goes without saying, and so does
// its lower bound, which Parse checks (countFloors).
func (g *generator) offsetProp() Prop {
	return Prop{"offset", &Schema{Type: "integer", Maximum: Num(float64(g.c.limits.MaxOffset))}}
}

// fieldProp is a field name argument. The description lists the fields a
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

// queryEntities is the general tool: every entity, every field. Its
// description is the graph's overview, which the other tools refer to.
func (g *generator) queryEntities() {
	offers := queryOffers(g.m)
	if len(offers) == 0 {
		return
	}
	_, odd := operatorSummary(offers)
	graph := g.overview(offers, odd)
	var b strings.Builder
	b.WriteString("Find entities by conditions on their fields and relationships; sorted, paged.\n\n")
	b.WriteString(graph)
	b.WriteString("\n" + g.conditionHelp(offers))
	b.WriteString("order_by: most significant key first; entities without a value come last.")

	in := Object(
		EntityTypeProp(OfferEntities(offers)),
		Prop{"conditions", Ref(ConditionsDef)},
		orderByProp(),
		g.limitProp(),
		g.offsetProp(),
		Prop{"fields", &Schema{
			Type:        "array",
			Description: "Fields to return (default: stored ones)",
			Items:       &Schema{Type: "string"},
			MinItems:    Count(1),
			MaxItems:    Count(maxFieldsInProjection),
			UniqueItems: true,
		}},
	).Require("entity_type")
	in.Defs = g.conditionDefs()
	g.add(QueryEntities, CategoryQuery, b.String(), in, offers)
	g.c.Tools[len(g.c.Tools)-1].GraphSchema = graph
}

// getEntityByID fetches one entity by its unique field.
func (g *generator) getEntityByID() {
	var offers []*EntityOffer
	for _, e := range g.m.Entities {
		if ctl, has := control(e, GetEntityByID); has && !ctl.Enabled {
			continue
		}
		f := e.Field(e.UniqueField)
		if f == nil {
			continue
		}
		offers = append(offers, &EntityOffer{Entity: e, Fields: []*FieldOffer{{Field: f}}})
	}
	if len(offers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("Get one entity's properties by its unique id: " + UniqueFields(EntitiesOf(offers)) + ".")
	in := Object(
		EntityTypeProp(OfferEntities(offers)),
		Prop{"id_value", &Schema{Types: []string{"string", "number"}}},
	).Require("entity_type", "id_value")
	g.add(GetEntityByID, CategoryQuery, b.String(), in, offers)
}

// exploreRelationships follows relationship types from start entities.
func (g *generator) exploreRelationships() {
	if len(g.c.edges) == 0 {
		return
	}
	var starts []*EntityOffer
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
	var b strings.Builder
	b.WriteString("Follow relationship_types from the start entities (start_entity_type, start_conditions: e.g. its id field = an id) up to depth hops, direction seen from the start (outgoing: along the stored arrow). Each connected entity comes once per start, at its shortest depth, with from_id, depth and path (relationship types and properties). Conditions are field tests (query_entities); target_conditions and order_by (default: nearest first) read target_entity_type's stored fields (needed when several types are reachable).\n")
	b.WriteString(g.relationshipsRef())

	var targets []string
	for _, e := range g.c.edges {
		for _, n := range []string{e.From, e.To} {
			if !slices.Contains(targets, n) {
				targets = append(targets, n)
			}
		}
	}
	targets = OrderLike(targets, g.m.EntityNames())
	l := g.c.limits
	in := Object(
		Prop{"start_entity_type", &Schema{Type: "string", Enum: OfferEntities(starts)}},
		ConditionsProp("start_conditions", TestDef),
		Prop{"relationship_types", &Schema{Type: "array", Items: &Schema{Type: "string", Enum: relationshipTypes(g.c.edges)}, MinItems: Count(1), UniqueItems: true}},
		Prop{"direction", &Schema{Type: "string", Enum: Directions, Default: Directions[0]}},
		Prop{"target_entity_type", &Schema{Type: "string", Enum: targets}},
		ConditionsProp("target_conditions", TestDef),
		orderByProp(),
		Prop{"depth", &Schema{Type: "integer", Default: DefaultDepth, Maximum: Num(float64(l.MaxDepth))}},
		g.limitProp(),
		g.offsetProp(),
	).Require("start_entity_type")
	in.Defs = TestDefs()
	g.add(ExploreRelationships, CategoryGraph, strings.TrimSpace(b.String()), in, starts)
}

// orderLike sorts names in the order they appear in ref.
func OrderLike(names, ref []string) []string {
	slices.SortStableFunc(names, func(a, b string) int { return slices.Index(ref, a) - slices.Index(ref, b) })
	return names
}

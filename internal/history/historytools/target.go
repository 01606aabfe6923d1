package historytools

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// MaxDisplayString cuts a display field's text (a description) in a
// result, which says so.
const MaxDisplayString = 200

// MaxCandidates is how many of the entities conditions meet a tool about
// one entity lists when they meet more than one.
const MaxCandidates = 10

// tracked is a tracked entity with the names its statements use, quoted.
type tracked struct {
	e *model.Entity
	// label and key are the label and the unique field; display the
	// display fields (model.DisplayFields).
	label, key string
	display    []string
	// path is the field holding the path of the file the entity is or is
	// in (a git import's file path or scope file field), "" when none.
	path string
}

func newTracked(m *model.Model, name string) (*tracked, error) {
	e := m.Entity(name)
	var qr ident.Quoter
	q := qr.Quote
	t := &tracked{e: e, label: q(e.Name), key: q(e.UniqueField)}
	for _, f := range m.DisplayFields(e) {
		t.display = append(t.display, q(f))
	}
	if g := m.ChangeTracking.Git; g != nil {
		switch name {
		case g.FileEntity:
			t.path = q(g.FilePath)
		case g.ScopeEntity:
			t.path = q(g.ScopeFile)
		}
	}
	if qr.Err != nil {
		return nil, fmt.Errorf("historytools: %w", qr.Err)
	}
	return t, nil
}

// byLabel is expr of node v, an entity of one of types: that entity's
// when there is one type, else a CASE on v's label.
func (h *historian) byLabel(v string, types []string, expr func(t *tracked) string) string {
	if len(types) == 1 {
		return expr(h.ents[types[0]])
	}
	var b strings.Builder
	b.WriteString("CASE")
	for _, typ := range types {
		t := h.ents[typ]
		b.WriteString(" WHEN " + v + ":" + t.label + " THEN " + expr(t))
	}
	b.WriteString(" END")
	return b.String()
}

// keyOf is node v's unique field.
func (h *historian) keyOf(v string, types []string) string {
	return h.byLabel(v, types, func(t *tracked) string { return v + "." + t.key })
}

// displayOf is the map of node v's display fields.
func (h *historian) displayOf(v string, types []string) string {
	return h.byLabel(v, types, func(t *tracked) string {
		if len(t.display) == 0 {
			return "{}"
		}
		return v + "{." + strings.Join(t.display, ", .") + "}"
	})
}

// pathOf is the path of the file node v is or is in (null when its
// entity has none).
func (h *historian) pathOf(v string, types []string) string {
	return h.byLabel(v, types, func(t *tracked) string {
		if t.path == "" {
			return "null"
		}
		return v + "." + t.path
	})
}

// display converts a display column; the converter's notes say what it
// shortened.
func display(conv *neo4jvalue.Converter, v any) map[string]any {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	return conv.Props(m)
}

// target names the entities a call asks about: those of entity_type
// (every tracked entity's without it) that meet conditions, query_entities'
// grammar.
type target struct {
	EntityType string            `json:"entity_type"`
	Conditions []tools.Condition `json:"conditions"`
}

// targetProps are target's arguments.
func (h *historian) targetProps() []tools.Prop {
	return []tools.Prop{
		{Name: "entity_type", Schema: &tools.Schema{Type: "string", Enum: h.types}},
		{Name: "conditions", Schema: tools.Ref(tools.ConditionsDef)},
	}
}

// scope is what a call reads: the Changes of types, and only those of the
// entities sel binds (to n) when the call gave conditions.
type scope struct {
	types []string
	sel   *planner.Selection
	// what names the entities in notes.
	what string
}

// scope checks t and compiles its conditions.
func (h *historian) scope(tool string, t target) (scope, error) {
	if t.EntityType == "" {
		if len(t.Conditions) > 0 {
			return scope{}, tools.Fail(tool, "/entity_type", h.types, "conditions test the fields of one entity type: give entity_type")
		}
		return scope{types: h.types, what: "any tracked entity"}, nil
	}
	if !slices.Contains(h.types, t.EntityType) {
		return scope{}, tools.Fail(tool, "/entity_type", h.types, "%s is not a tracked entity", t.EntityType)
	}
	s := scope{types: []string{t.EntityType}, what: "any " + t.EntityType}
	if len(t.Conditions) == 0 {
		return s, nil
	}
	if err := h.conds.Check(tool, t.EntityType, t.Conditions, "conditions"); err != nil {
		return s, err
	}
	sel, err := h.plan.Select(tool, t.EntityType, t.Conditions, nil)
	s.sel, s.what = sel, "any "+t.EntityType+" meeting the conditions"
	return s, err
}

// one names the one entity a tool about one entity reads: by key, or by
// conditions exactly one entity meets.
type one struct {
	target
	Key string `json:"key"`
}

// oneProps are one's arguments.
func (h *historian) oneProps() []tools.Prop {
	return append(h.targetProps(), tools.Prop{Name: "key", Schema: &tools.Schema{Type: "string", Description: "the entity's unique field; or give conditions instead"}})
}

// resolve returns the entity a and the value of its unique field: the key
// given, or that of the one entity the conditions select. More than one
// is the agent's to narrow: the error lists the first MaxCandidates with
// their display fields.
func (h *historian) resolve(ctx context.Context, tx neo4j.ManagedTransaction, tool string, a one, tn string) (*tracked, any, error) {
	if a.EntityType == "" {
		return nil, nil, tools.Fail(tool, "/entity_type", h.types, "give the entity's type")
	}
	switch {
	case a.Key != "" && len(a.Conditions) > 0:
		return nil, nil, tools.Fail(tool, "/key", nil, "give key or conditions, not both")
	case a.Key == "" && len(a.Conditions) == 0:
		return nil, nil, tools.Fail(tool, "/key", nil, "name the entity: its key, or conditions only it meets (e.g. on its name)")
	}
	s, err := h.scope(tool, a.target)
	if err != nil {
		return nil, nil, err
	}
	t := h.ents[a.EntityType]
	if s.sel == nil {
		return t, a.Key, nil
	}
	params := withTenant(s.sel.Params, tn)
	params["candidates"] = int64(MaxCandidates + 1)
	recs, err := rows(ctx, tx, s.sel.Cypher+"\nRETURN "+h.keyOf("n", s.types)+" AS key, "+h.displayOf("n", s.types)+" AS display\nORDER BY key\nLIMIT $candidates", params)
	if err != nil {
		return nil, nil, err
	}
	switch len(recs) {
	case 0:
		return nil, nil, tools.Fail(tool, "/conditions", nil, "no %s meets the conditions (find it with query_entities or a search tool)", a.EntityType)
	case 1:
		return t, recs[0].Values[0], nil
	}
	var list []string
	for _, r := range recs[:min(len(recs), MaxCandidates)] {
		shown, _ := json.Marshal(neo4jvalue.Value(r.Values[1]))
		list = append(list, fmt.Sprintf("%v %s", r.Values[0], shown))
	}
	more := ""
	if len(recs) > MaxCandidates {
		more = fmt.Sprintf(" (the first %d)", MaxCandidates)
	}
	return nil, nil, tools.Fail(tool, "/conditions", list, "more than one %s meets the conditions%s: narrow them or give key", a.EntityType, more)
}

// withTenant is a copy of params with the tenant's.
func withTenant(params map[string]any, tn string) map[string]any {
	out := maps.Clone(params)
	if out == nil {
		out = map[string]any{}
	}
	out[tenant.Param] = tn
	return out
}

// notFound is the error of a key no node of e has.
func notFound(tool string, e *model.Entity, key any) error {
	return tools.Fail(tool, "/key", nil, "no %s has %s %q (find it with query_entities or a search tool)", e.Name, e.UniqueField, fmt.Sprint(key))
}

// node is the pattern of t's node n whose unique field is $key, in the
// tenant.
func (h *historian) node(t *tracked) string {
	p := "(n:" + t.label + " {" + t.key + ": $key"
	if h.t.TenantField != "" {
		p += ", " + h.t.Q.Tenant + ": $tenant"
	}
	return p + "})"
}

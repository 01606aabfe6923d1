package config

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"cuelang.org/go/cue"

	"github.com/ragforge/ragforge/model"
)

// The raw* types mirror the config's YAML shape for cue.Value.Decode; decode
// turns them into the model, adding positions and derived capabilities.
type rawConfig struct {
	Entities        []rawEntity           `json:"entities"`
	Materialization rawMaterialization    `json:"materialization"`
	ToolDocs        map[string]rawToolDoc `json:"tool_docs"`
	Trees           []rawTree             `json:"trees"`
	Tenant          *struct {
		Field string `json:"field"`
	} `json:"tenant"`
	Provenance *struct {
		SourceField     string `json:"source_field"`
		ConfidenceField string `json:"confidence_field"`
		UpdatedAt       string `json:"updated_at"`
		CreatedAt       string `json:"created_at"`
		Required        bool   `json:"required"`
	} `json:"provenance"`
	Explore        *rawExplore              `json:"explore"`
	ChangeTracking *rawChangeTracking       `json:"change_tracking"`
	Analytics      *rawAnalytics            `json:"analytics"`
	Similarity     map[string]rawSimilarity `json:"similarity"`
}

type rawChangeTracking struct {
	Entities []string `json:"entities"`
	Change   struct {
		Label        string            `json:"label"`
		Relationship string            `json:"relationship"`
		Fields       map[string]string `json:"fields"`
	} `json:"change"`
	MaxDiffBytes int `json:"max_diff_bytes"`
	Git          *struct {
		File struct {
			Entity string `json:"entity"`
			Path   string `json:"path"`
		} `json:"file"`
		Scope *struct {
			Entity    string `json:"entity"`
			File      string `json:"file"`
			StartLine string `json:"start_line"`
			EndLine   string `json:"end_line"`
			Name      string `json:"name"`
		} `json:"scope"`
		Order string `json:"order"`
	} `json:"git"`
}

// decodeChangeTracking builds the model's change tracking from the
// validated block, which the schema's defaults have completed.
func decodeChangeTracking(r *rawChangeTracking, pos model.Pos) *model.ChangeTracking {
	ct := &model.ChangeTracking{Entities: r.Entities, Label: r.Change.Label, Relationship: r.Change.Relationship, MaxDiffBytes: r.MaxDiffBytes, Pos: pos}
	ct.Fields = model.ChangeFieldsOf(r.Change.Fields)
	if g := r.Git; g != nil {
		ct.Git = &model.GitImport{FileEntity: g.File.Entity, FilePath: g.File.Path, Order: g.Order}
		if s := g.Scope; s != nil {
			ct.Git.ScopeEntity, ct.Git.ScopeFile, ct.Git.ScopeStart, ct.Git.ScopeEnd, ct.Git.ScopeName = s.Entity, s.File, s.StartLine, s.EndLine, s.Name
		}
	}
	return ct
}

type rawAnalytics struct {
	MaxNodes   int                 `json:"max_nodes"`
	Importance []rawAnalyticsGraph `json:"importance"`
	Clusters   []struct {
		rawAnalyticsGraph
		Algorithm string `json:"algorithm"`
		MinSize   int    `json:"min_size"`
	} `json:"clusters"`
}

type rawAnalyticsGraph struct {
	Entity        string   `json:"entity"`
	Relationships []string `json:"relationships"`
	Weight        string   `json:"weight"`
	Show          []string `json:"show"`
}

type rawSimilarity struct {
	Index string   `json:"index"`
	Via   []string `json:"via"`
}

type rawExplore struct {
	Top          map[string]int `json:"top"`
	DefaultTop   int            `json:"default_top"`
	RecencyField string         `json:"recency_field"`
	HalfLifeDays float64        `json:"half_life_days"`
	Owner        *struct {
		Entity string `json:"entity"`
		Field  string `json:"field"`
	} `json:"owner"`
}

type rawTree struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Node        []string `json:"node"`
	Contains    string   `json:"contains"`
	Path        string   `json:"path"`
	Size        string   `json:"size"`
	Language    string   `json:"language"`
}

type rawEntity struct {
	Name          string                    `json:"name"`
	Description   string                    `json:"description"`
	UniqueField   string                    `json:"unique_field"`
	Fields        []rawField                `json:"searchable_fields"`
	Computed      []rawComputed             `json:"computed_fields"`
	Relationships []rawRelationship         `json:"relationships"`
	VectorIndexes []rawVectorIndex          `json:"vector_indexes"`
	FullTextIndex *rawFullTextIndex         `json:"full_text_index"`
	ExposedTools  map[string]rawToolControl `json:"exposed_tools"`
	Writable      *struct {
		Create bool `json:"create"`
		Update bool `json:"update"`
	} `json:"writable"`
	Key *struct {
		Field  string   `json:"field"`
		From   []string `json:"from"`
		Prefix string   `json:"prefix"`
	} `json:"key"`
	Immutable []string `json:"immutable"`
	Required  []string `json:"required"`
}

type rawField struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Values      []string `json:"values"`
	Indexed     bool     `json:"indexed"`
	Exposed     bool     `json:"exposed_to_tools"`
	Min         *float64 `json:"min"`
	Max         *float64 `json:"max"`
	StoredAs    string   `json:"stored_as"`
	NullValues  []string `json:"null_values"`
	Layout      string   `json:"layout"`
}

type rawComputed struct {
	rawField
	Expression    string `json:"expression"`
	Cypher        string `json:"cypher"`
	Materialized  any    `json:"materialized"`
	Index         bool   `json:"index"`
	CacheProperty string `json:"cache_property"`
}

type rawRelationship struct {
	Type        string        `json:"type"`
	Target      any           `json:"target"`
	Direction   string        `json:"direction"`
	Description string        `json:"description"`
	Properties  []rawField    `json:"properties"`
	Computed    []rawComputed `json:"computed_fields"`
	Writable    bool          `json:"writable"`
}

type rawVectorIndex struct {
	Name       string `json:"name"`
	Field      string `json:"field"`
	Property   string `json:"property"`
	Dimensions int    `json:"dimensions"`
	Similarity string `json:"similarity"`
	Model      string `json:"model"`
}

type rawFullTextIndex struct {
	Name     string   `json:"name"`
	Fields   []string `json:"fields"`
	Analyzer string   `json:"analyzer"`
}

type rawToolControl struct {
	Enabled   bool     `json:"enabled"`
	Fields    []string `json:"fields"`
	Modes     []string `json:"modes"`
	Operators []string `json:"operators"`
}

type rawMaterialization struct {
	Window      string `json:"window"`
	MinUses     int    `json:"min_uses"`
	MinNodes    int    `json:"min_nodes"`
	UnusedAfter string `json:"unused_after"`
}

type rawToolDoc struct {
	Keywords []string `json:"keywords"`
	Examples []struct {
		User  string `json:"user"`
		Notes string `json:"notes"`
	} `json:"examples"`
}

// capability is what #Config.#capabilities derives for one field.
type capability struct {
	Modes     []string `json:"modes"`
	Operators []string `json:"operators"`
}

// entityCapabilities is #Config.#capabilities for one entity: its fields by
// name and its relationships' properties by relationship index.
type entityCapabilities struct {
	Fields        map[string]capability   `json:"fields"`
	Relationships []map[string]capability `json:"relationships"`
}

// decode builds the model from the validated value v; positions come from
// data, the user's files before unification.
func decode(v, data cue.Value) (*model.Model, error) {
	var raw rawConfig
	if err := v.Decode(&raw); err != nil {
		return nil, fmt.Errorf("decoding validated config: %w", err)
	}
	var caps map[string]entityCapabilities
	if err := v.LookupPath(cue.MakePath(cue.Def("capabilities"))).Decode(&caps); err != nil {
		return nil, fmt.Errorf("reading derived capabilities: %w", err)
	}
	m := &model.Model{ToolDocs: map[string]model.ToolDoc{}}
	if err := decodeMaterialization(&m.Materialization, raw.Materialization); err != nil {
		return nil, err
	}
	for name, d := range raw.ToolDocs {
		doc := model.ToolDoc{Keywords: d.Keywords}
		for _, ex := range d.Examples {
			doc.Examples = append(doc.Examples, model.Example{User: ex.User, Notes: ex.Notes})
		}
		m.ToolDocs[name] = doc
	}
	for i, re := range raw.Entities {
		m.Entities = append(m.Entities, decodeEntity(re, caps[re.Name], func(rest ...any) model.Pos {
			return posAt(data, append([]any{"entities", i}, rest...)...)
		}))
	}
	for i, rt := range raw.Trees {
		m.Trees = append(m.Trees, &model.Tree{
			Name: rt.Name, Description: rt.Description, Nodes: rt.Node, Contains: rt.Contains,
			Path: rt.Path, Size: rt.Size, Language: rt.Language, Pos: posAt(data, "trees", i),
		})
	}
	if t := raw.Tenant; t != nil {
		m.Tenant = &model.Tenant{Field: t.Field, Pos: posAt(data, "tenant")}
	}
	if p := raw.Provenance; p != nil {
		m.Provenance = &model.Provenance{SourceField: p.SourceField, ConfidenceField: p.ConfidenceField, UpdatedAt: p.UpdatedAt, CreatedAt: p.CreatedAt, Required: p.Required, Pos: posAt(data, "provenance")}
	}
	if x := raw.Explore; x != nil {
		ex := &model.Explore{Top: x.Top, DefaultTop: x.DefaultTop, RecencyField: x.RecencyField, HalfLifeDays: x.HalfLifeDays, Pos: posAt(data, "explore")}
		if x.Owner != nil {
			ex.OwnerEntity, ex.OwnerField = x.Owner.Entity, x.Owner.Field
		}
		m.Explore = ex
	}
	if ct := raw.ChangeTracking; ct != nil {
		m.ChangeTracking = decodeChangeTracking(ct, posAt(data, "change_tracking"))
	}
	// The schema fills an absent analytics block with empty lists: no
	// analytics tools, no model.Analytics.
	if x := raw.Analytics; x != nil && len(x.Importance)+len(x.Clusters) > 0 {
		an := &model.Analytics{MaxNodes: x.MaxNodes, Pos: posAt(data, "analytics")}
		graph := func(g rawAnalyticsGraph, kind string, i int) model.AnalyticsGraph {
			return model.AnalyticsGraph{Entity: g.Entity, Relationships: g.Relationships, Weight: g.Weight, Show: g.Show, Pos: posAt(data, "analytics", kind, i)}
		}
		for i, g := range x.Importance {
			ag := graph(g, "importance", i)
			an.Importance = append(an.Importance, &ag)
		}
		for i, c := range x.Clusters {
			an.Clusters = append(an.Clusters, &model.AnalyticsClusters{AnalyticsGraph: graph(c.rawAnalyticsGraph, "clusters", i), Algorithm: c.Algorithm, MinSize: c.MinSize})
		}
		m.Analytics = an
	}
	// find_similar tools follow the entities' order, with the defaults
	// filled in: the first vector index, every relationship type.
	for _, e := range m.Entities {
		rs, ok := raw.Similarity[e.Name]
		if !ok {
			continue
		}
		sim := &model.Similar{Entity: e.Name, Index: rs.Index, Via: rs.Via, Pos: posAt(data, "similarity", e.Name)}
		if sim.Index == "" && len(e.VectorIndexes) > 0 {
			sim.Index = e.VectorIndexes[0].Name
		}
		if len(sim.Via) == 0 {
			for _, r := range e.Relationships {
				if !slices.Contains(sim.Via, r.Type) {
					sim.Via = append(sim.Via, r.Type)
				}
			}
		}
		m.Similarity = append(m.Similarity, sim)
	}
	// Profiles keep the config's order, which a map would lose.
	if ps := v.LookupPath(cue.ParsePath("profiles")); ps.Exists() {
		it, err := ps.Fields()
		if err != nil {
			return nil, fmt.Errorf("decoding profiles: %w", err)
		}
		for it.Next() {
			p := &model.Profile{Name: it.Selector().Unquoted(), Pos: posAt(data, "profiles", it.Selector().Unquoted())}
			if err := it.Value().Decode(&p.Tools); err != nil {
				return nil, fmt.Errorf("decoding profile %s: %w", p.Name, err)
			}
			m.Profiles = append(m.Profiles, p)
		}
	}
	hideTenantField(m)
	return m, nil
}

// hideTenantField keeps the tenant field out of every tool: the engine
// binds its value, so an agent must neither see nor send it.
func hideTenantField(m *model.Model) {
	if m.Tenant == nil {
		return
	}
	for _, e := range m.Entities {
		if f := e.Field(m.Tenant.Field); f != nil {
			f.Exposed = false
		}
	}
}

// decodeEntity builds one entity of the model; at gives the position of a
// value under the entity.
func decodeEntity(re rawEntity, caps entityCapabilities, at func(rest ...any) model.Pos) *model.Entity {
	e := &model.Entity{
		Name:        re.Name,
		Description: re.Description,
		UniqueField: re.UniqueField,
		Pos:         at(),
	}
	for j, rf := range re.Fields {
		f := field(rf, caps.Fields[rf.Name])
		f.Pos = at("searchable_fields", j)
		e.Fields = append(e.Fields, f)
	}
	for j, rc := range re.Computed {
		c := &model.ComputedField{
			Field:         *field(rc.rawField, caps.Fields[rc.Name]),
			Expression:    rc.Expression,
			Cypher:        rc.Cypher,
			Materialized:  materialize(rc.Materialized),
			Index:         rc.Index,
			CacheProperty: rc.CacheProperty,
		}
		c.Pos = at("computed_fields", j)
		if rc.Expression != "" {
			c.ExpressionPos = at("computed_fields", j, "expression")
		} else {
			c.ExpressionPos = at("computed_fields", j, "cypher")
		}
		e.Computed = append(e.Computed, c)
	}
	for j, rr := range re.Relationships {
		r := &model.Relationship{
			Type:        rr.Type,
			Targets:     targets(rr.Target),
			Direction:   model.Direction(rr.Direction),
			Description: rr.Description,
			Writable:    rr.Writable,
			Pos:         at("relationships", j),
		}
		for k, rp := range rr.Properties {
			p := field(rp, caps.Relationships[j][rp.Name])
			p.Pos = at("relationships", j, "properties", k)
			r.Properties = append(r.Properties, p)
		}
		for k, rc := range rr.Computed {
			c := &model.ComputedField{Field: *field(rc.rawField, caps.Relationships[j][rc.Name]), Expression: rc.Expression, Materialized: model.Never}
			c.Pos = at("relationships", j, "computed_fields", k)
			c.ExpressionPos = at("relationships", j, "computed_fields", k, "expression")
			r.Computed = append(r.Computed, c)
		}
		e.Relationships = append(e.Relationships, r)
	}
	for j, rv := range re.VectorIndexes {
		e.VectorIndexes = append(e.VectorIndexes, &model.VectorIndex{
			Name: rv.Name, Field: rv.Field, Property: rv.Property,
			Dimensions: rv.Dimensions, Similarity: rv.Similarity, Model: rv.Model,
			Pos: at("vector_indexes", j),
		})
	}
	if ft := re.FullTextIndex; ft != nil {
		e.FullTextIndex = &model.FullTextIndex{Name: ft.Name, Fields: ft.Fields, Analyzer: ft.Analyzer, Pos: at("full_text_index")}
	}
	if w := re.Writable; w != nil {
		e.Writable = model.Writable{Create: w.Create, Update: w.Update}
	}
	if k := re.Key; k != nil {
		e.Key = &model.Key{Field: k.Field, From: k.From, Prefix: k.Prefix, Pos: at("key")}
	}
	e.Immutable, e.Required = re.Immutable, re.Required
	if len(re.ExposedTools) > 0 {
		e.ExposedTools = map[string]model.ToolControl{}
		for name, tc := range re.ExposedTools {
			e.ExposedTools[name] = model.ToolControl(tc)
		}
	}
	return e
}

func field(rf rawField, c capability) *model.Field {
	f := &model.Field{
		Name:        rf.Name,
		Type:        model.Type(rf.Type),
		Description: rf.Description,
		Values:      rf.Values,
		Indexed:     rf.Indexed,
		Exposed:     rf.Exposed,
		Min:         rf.Min,
		Max:         rf.Max,
		Modes:       c.Modes,
		Operators:   c.Operators,
		NullValues:  rf.NullValues,
		Layout:      rf.Layout,
	}
	if f.Type.Kind() == model.Number && rf.StoredAs == string(model.Text) {
		f.StoredAs = model.Text
	}
	if f.Type.Kind() == model.Datetime {
		f.StoredAs = model.Temporal
		if rf.StoredAs != "" {
			f.StoredAs = model.DatetimeStorage(rf.StoredAs)
		}
	}
	return f
}

func materialize(v any) model.Materialize {
	switch x := v.(type) {
	case bool:
		if x {
			return model.Always
		}
	case string:
		if x == "auto" {
			return model.Auto
		}
	}
	return model.Never
}

func targets(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, t := range x {
			if s, ok := t.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// decodeMaterialization converts the policy (the schema filled in its
// defaults) into durations and counts.
func decodeMaterialization(dst *model.Materialization, raw rawMaterialization) error {
	var err error
	if dst.Window, err = parseDuration(raw.Window); err != nil {
		return err
	}
	if dst.UnusedAfter, err = parseDuration(raw.UnusedAfter); err != nil {
		return err
	}
	dst.MinUses, dst.MinNodes = raw.MinUses, raw.MinNodes
	return nil
}

// parseDuration reads the schema's #Duration: a whole number of m, h or d.
func parseDuration(s string) (time.Duration, error) {
	if len(s) < 2 {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	unit := map[byte]time.Duration{'m': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}[s[len(s)-1]]
	if unit == 0 {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	return time.Duration(n) * unit, nil
}

// posAt returns the position of the value at a path of keys and indices.
func posAt(data cue.Value, path ...any) model.Pos {
	sels := make([]cue.Selector, len(path))
	for i, p := range path {
		switch x := p.(type) {
		case int:
			sels[i] = cue.Index(x)
		case string:
			sels[i] = cue.Str(x)
		}
	}
	return posOf(data.LookupPath(cue.MakePath(sels...)))
}

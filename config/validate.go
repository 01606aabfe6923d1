package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"cuelang.org/go/cue"

	"github.com/ragforge/ragforge/model"
)

// Validate checks a model as Load checks a config, so a model built
// (or changed) in Go cannot bypass the schema: it is written back in the
// config's shape, unified with the embedded #Config and validated there —
// the schema stays the one definition of a valid config —, then its
// computed fields are compiled (expression types, cycles, cypher bodies).
// Errors are [ConfigErrors], positioned where the model records a
// position (a loaded model) and otherwise named by their path. A model
// Load returned, or Validate passed, unchanged since, is valid without
// being checked again (see validated).
func Validate(m *model.Model) error {
	cfg, pos := encodeModel(m)
	fp, ok := fingerprint(cfg)
	if ok && known(m, fp) {
		return nil
	}
	if err := check(m, cfg, pos); err != nil {
		return err
	}
	if ok {
		remember(m, fp)
	}
	return nil
}

// check validates m, written in the config's shape as cfg with its
// positions pos, against the schema and compiles its computed fields.
func check(m *model.Model, cfg map[string]any, pos map[string]model.Pos) error {
	cueMu.Lock()
	defer cueMu.Unlock()
	def, err := configDef()
	if err != nil {
		return err
	}
	data := schemaContext.Encode(cfg)
	if err := data.Err(); err != nil {
		return fmt.Errorf("config: encoding the model: %w", err)
	}
	var errs ConfigErrors
	if err := def.Unify(data).Validate(cue.All(), cue.Concrete(true), cue.Hidden(true)); err != nil {
		errs = translate(err, data, def)
	}
	blocked, ok := blockedEntities(errs)
	if ok {
		checked := &model.Model{}
		for i, e := range m.Entities {
			if !blocked[i] {
				checked.Entities = append(checked.Entities, e)
			}
		}
		errs = append(errs, checkComputed(checked, nil)...)
	}
	for i := range errs {
		if errs[i].Pos.Line == 0 {
			errs[i].Pos = nearestPos(pos, errs[i].Path)
		}
	}
	if len(errs) > 0 {
		return errs.sorted()
	}
	return nil
}

// nearestPos is the position recorded for the deepest prefix of path.
func nearestPos(pos map[string]model.Pos, path string) model.Pos {
	for p := path; p != ""; {
		if at, ok := pos[p]; ok && at.Line != 0 {
			return at
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return model.Pos{}
}

// encodeModel writes m in the config's shape (what Load reads), and the
// positions m records, keyed by data path.
func encodeModel(m *model.Model) (map[string]any, map[string]model.Pos) {
	pos := map[string]model.Pos{}
	cfg := map[string]any{}
	entities := []any{}
	for i, e := range m.Entities {
		entities = append(entities, encodeEntity(e, "entities."+strconv.Itoa(i), pos))
	}
	cfg["entities"] = entities
	cfg["materialization"] = encodeMaterialization(m.Materialization)
	if len(m.ToolDocs) > 0 {
		cfg["tool_docs"] = encodeToolDocs(m.ToolDocs)
	}
	if t := m.Tenant; t != nil {
		pos["tenant"] = t.Pos
		cfg["tenant"] = map[string]any{"field": t.Field}
	}
	if p := m.Provenance; p != nil {
		pos["provenance"] = p.Pos
		cfg["provenance"] = encodeProvenance(p)
	}
	if x := m.Explore; x != nil {
		pos["explore"] = x.Pos
		cfg["explore"] = encodeExplore(x)
	}
	if c := m.ChangeTracking; c != nil {
		pos["change_tracking"] = c.Pos
		cfg["change_tracking"] = encodeChangeTracking(c)
	}
	if a := m.Analytics; a != nil {
		pos["analytics"] = a.Pos
		cfg["analytics"] = encodeAnalytics(a, pos)
	}
	if len(m.Similarity) > 0 {
		cfg["similarity"] = encodeSimilarity(m.Similarity, pos)
	}
	if len(m.Profiles) > 0 {
		profiles := map[string]any{}
		for _, p := range m.Profiles {
			pos["profiles."+p.Name] = p.Pos
			profiles[p.Name] = append([]string{}, p.Tools...)
		}
		cfg["profiles"] = profiles
	}
	if len(m.Trees) > 0 {
		cfg["trees"] = encodeTrees(m.Trees, pos)
	}
	return cfg, pos
}

// encodeEntity writes one entity, at data path at, recording its
// positions in pos.
func encodeEntity(e *model.Entity, at string, pos map[string]model.Pos) map[string]any {
	pos[at] = e.Pos
	ent := map[string]any{"name": e.Name, "unique_field": e.UniqueField}
	setString(ent, "description", e.Description)
	var fields, computed, rels, vectors []any
	for j, f := range e.Fields {
		pos[at+".searchable_fields."+strconv.Itoa(j)] = f.Pos
		fields = append(fields, encodeField(f))
	}
	for j, c := range e.Computed {
		pos[at+".computed_fields."+strconv.Itoa(j)] = c.Pos
		computed = append(computed, encodeComputed(c))
	}
	for j, r := range e.Relationships {
		rels = append(rels, encodeRelationship(r, at+".relationships."+strconv.Itoa(j), pos))
	}
	for j, v := range e.VectorIndexes {
		pos[at+".vector_indexes."+strconv.Itoa(j)] = v.Pos
		vi := map[string]any{"name": v.Name, "field": v.Field, "dimensions": v.Dimensions}
		setString(vi, "property", v.Property)
		setString(vi, "similarity", v.Similarity)
		setString(vi, "model", v.Model)
		vectors = append(vectors, vi)
	}
	for key, list := range map[string][]any{"searchable_fields": fields, "computed_fields": computed, "relationships": rels, "vector_indexes": vectors} {
		if len(list) > 0 {
			ent[key] = list
		}
	}
	if ft := e.FullTextIndex; ft != nil {
		pos[at+".full_text_index"] = ft.Pos
		fti := map[string]any{"name": ft.Name, "fields": append([]string{}, ft.Fields...)}
		setString(fti, "analyzer", ft.Analyzer)
		ent["full_text_index"] = fti
	}
	if len(e.ExposedTools) > 0 {
		ent["exposed_tools"] = encodeExposedTools(e.ExposedTools)
	}
	if e.Writable.Any() {
		ent["writable"] = map[string]any{"create": e.Writable.Create, "update": e.Writable.Update}
	}
	if k := e.Key; k != nil {
		pos[at+".key"] = k.Pos
		ent["key"] = map[string]any{"field": k.Field, "from": append([]string{}, k.From...), "prefix": k.Prefix}
	}
	if e.Immutable != nil {
		ent["immutable"] = append([]string{}, e.Immutable...)
	}
	if e.Required != nil {
		ent["required"] = append([]string{}, e.Required...)
	}
	return ent
}

// encodeComputedBase writes what every computed field has: its field's
// keys (a computed field has no indexed), its expression or cypher and
// its cache property.
func encodeComputedBase(c *model.ComputedField) map[string]any {
	cf := encodeField(&c.Field)
	delete(cf, "indexed")
	setString(cf, "expression", c.Expression)
	setString(cf, "cypher", c.Cypher)
	setString(cf, "cache_property", c.CacheProperty)
	return cf
}

// encodeComputed writes one computed field of an entity.
func encodeComputed(c *model.ComputedField) map[string]any {
	cf := encodeComputedBase(c)
	switch c.Materialized {
	case model.Always:
		cf["materialized"] = true
	case model.Auto:
		cf["materialized"] = "auto"
	case model.Never, "":
		cf["materialized"] = false
	default:
		cf["materialized"] = string(c.Materialized)
	}
	cf["index"] = c.Index
	return cf
}

// encodeRelationship writes one relationship, at data path at, recording
// its positions and its properties' in pos.
func encodeRelationship(r *model.Relationship, at string, pos map[string]model.Pos) map[string]any {
	pos[at] = r.Pos
	rel := map[string]any{"type": r.Type}
	if len(r.Targets) == 1 {
		rel["target"] = r.Targets[0]
	} else {
		rel["target"] = append([]string{}, r.Targets...)
	}
	setString(rel, "direction", string(r.Direction))
	setString(rel, "description", r.Description)
	if r.Writable {
		rel["writable"] = true
	}
	if len(r.Properties) > 0 {
		var props []any
		for k, p := range r.Properties {
			pos[at+".properties."+strconv.Itoa(k)] = p.Pos
			props = append(props, encodeField(p))
		}
		rel["properties"] = props
	}
	if len(r.Computed) > 0 {
		var cfs []any
		for k, c := range r.Computed {
			pos[at+".computed_fields."+strconv.Itoa(k)] = c.Pos
			cfs = append(cfs, encodeRelComputed(c))
		}
		rel["computed_fields"] = cfs
	}
	return rel
}

// encodeRelComputed writes a relationship's computed field in the
// config's shape; what only an entity's computed field may set (cypher,
// materialization) is written when set, so the schema refuses it.
func encodeRelComputed(c *model.ComputedField) map[string]any {
	cf := encodeComputedBase(c)
	if c.Materialized != model.Never && c.Materialized != "" {
		cf["materialized"] = string(c.Materialized)
	}
	return cf
}

// encodeExposedTools writes an entity's exposed_tools.
func encodeExposedTools(exposed map[string]model.ToolControl) map[string]any {
	tools := map[string]any{}
	for name, tc := range exposed {
		ctl := map[string]any{"enabled": tc.Enabled}
		for key, list := range map[string][]string{"fields": tc.Fields, "modes": tc.Modes, "operators": tc.Operators} {
			if list != nil {
				ctl[key] = list
			}
		}
		tools[name] = ctl
	}
	return tools
}

// encodeMaterialization writes the materialization block.
func encodeMaterialization(m model.Materialization) map[string]any {
	mat := map[string]any{}
	setString(mat, "window", duration(m.Window))
	setString(mat, "unused_after", duration(m.UnusedAfter))
	if m.MinUses != 0 {
		mat["min_uses"] = m.MinUses
	}
	if m.MinNodes != 0 {
		mat["min_nodes"] = m.MinNodes
	}
	return mat
}

// encodeToolDocs writes tool_docs.
func encodeToolDocs(toolDocs map[string]model.ToolDoc) map[string]any {
	docs := map[string]any{}
	for name, d := range toolDocs {
		doc := map[string]any{}
		if d.Keywords != nil {
			doc["keywords"] = d.Keywords
		}
		if d.Examples != nil {
			var exs []any
			for _, ex := range d.Examples {
				e := map[string]any{"user": ex.User}
				setString(e, "notes", ex.Notes)
				exs = append(exs, e)
			}
			doc["examples"] = exs
		}
		docs[name] = doc
	}
	return docs
}

// encodeProvenance writes the provenance block.
func encodeProvenance(p *model.Provenance) map[string]any {
	prov := map[string]any{}
	setString(prov, "source_field", p.SourceField)
	setString(prov, "confidence_field", p.ConfidenceField)
	setString(prov, "updated_at", p.UpdatedAt)
	setString(prov, "created_at", p.CreatedAt)
	if p.Required {
		prov["required"] = true
	}
	return prov
}

// encodeExplore writes the explore block.
func encodeExplore(x *model.Explore) map[string]any {
	ex := map[string]any{}
	if x.Top != nil {
		ex["top"] = x.Top
	}
	if x.DefaultTop != 0 {
		ex["default_top"] = x.DefaultTop
	}
	if x.HalfLifeDays != 0 {
		ex["half_life_days"] = x.HalfLifeDays
	}
	setString(ex, "recency_field", x.RecencyField)
	if x.OwnerEntity != "" || x.OwnerField != "" {
		ex["owner"] = map[string]any{"entity": x.OwnerEntity, "field": x.OwnerField}
	}
	return ex
}

// encodeSimilarity writes the similarity block, recording its positions
// in pos.
func encodeSimilarity(similarity []*model.Similar, pos map[string]model.Pos) map[string]any {
	sims := map[string]any{}
	for _, x := range similarity {
		pos["similarity."+x.Entity] = x.Pos
		sim := map[string]any{}
		setString(sim, "index", x.Index)
		if len(x.Via) > 0 {
			sim["via"] = append([]string{}, x.Via...)
		}
		sims[x.Entity] = sim
	}
	return sims
}

// encodeTrees writes the trees, recording their positions in pos.
func encodeTrees(trees []*model.Tree, pos map[string]model.Pos) []any {
	var out []any
	for i, t := range trees {
		pos["trees."+strconv.Itoa(i)] = t.Pos
		tr := map[string]any{"name": t.Name, "node": append([]string{}, t.Nodes...), "contains": t.Contains, "path": t.Path}
		setString(tr, "description", t.Description)
		setString(tr, "size", t.Size)
		setString(tr, "language", t.Language)
		out = append(out, tr)
	}
	return out
}

// encodeChangeTracking writes a change_tracking block; names left empty
// keep the schema's defaults.
func encodeChangeTracking(c *model.ChangeTracking) map[string]any {
	fields := map[string]any{}
	for _, r := range c.Fields.Roles() {
		setString(fields, r[0], r[1])
	}
	change := map[string]any{"fields": fields}
	setString(change, "label", c.Label)
	setString(change, "relationship", c.Relationship)
	out := map[string]any{"entities": append([]string{}, c.Entities...), "change": change}
	if c.MaxDiffBytes != 0 {
		out["max_diff_bytes"] = c.MaxDiffBytes
	}
	if g := c.Git; g != nil {
		git := map[string]any{"file": map[string]any{"entity": g.FileEntity, "path": g.FilePath}}
		if g.ScopeEntity != "" {
			scope := map[string]any{"entity": g.ScopeEntity, "file": g.ScopeFile, "start_line": g.ScopeStart, "end_line": g.ScopeEnd}
			if g.ScopeName != "" {
				scope["name"] = g.ScopeName
			}
			git["scope"] = scope
		}
		if g.Order != "" {
			git["order"] = g.Order
		}
		out["git"] = git
	}
	return out
}

// encodeAnalytics writes the analytics block in the config's shape,
// recording its graphs' positions.
func encodeAnalytics(a *model.Analytics, pos map[string]model.Pos) map[string]any {
	graph := func(g *model.AnalyticsGraph, at string) map[string]any {
		pos[at] = g.Pos
		out := map[string]any{"entity": g.Entity, "relationships": append([]string{}, g.Relationships...), "show": append([]string{}, g.Show...)}
		setString(out, "weight", g.Weight)
		return out
	}
	importance, clusters := []any{}, []any{}
	for i, g := range a.Importance {
		importance = append(importance, graph(g, "analytics.importance."+strconv.Itoa(i)))
	}
	for i, c := range a.Clusters {
		out := graph(&c.AnalyticsGraph, "analytics.clusters."+strconv.Itoa(i))
		setString(out, "algorithm", c.Algorithm)
		if c.MinSize != 0 {
			out["min_size"] = c.MinSize
		}
		clusters = append(clusters, out)
	}
	out := map[string]any{"importance": importance, "clusters": clusters}
	if a.MaxNodes != 0 {
		out["max_nodes"] = a.MaxNodes
	}
	return out
}

// encodeField writes a field (or the shared part of a computed field or a
// relationship property) in the config's shape.
func encodeField(f *model.Field) map[string]any {
	out := map[string]any{"name": f.Name, "type": string(f.Type), "exposed_to_tools": f.Exposed}
	setString(out, "description", f.Description)
	setString(out, "stored_as", string(f.StoredAs))
	if f.Values != nil {
		out["values"] = f.Values
	}
	if f.NullValues != nil {
		out["null_values"] = f.NullValues
	}
	setString(out, "layout", f.Layout)
	if f.Indexed {
		out["indexed"] = true
	}
	if f.Min != nil {
		out["min"] = *f.Min
	}
	if f.Max != nil {
		out["max"] = *f.Max
	}
	if f.Modes != nil {
		out["tool_modes"] = f.Modes
	}
	return out
}

func setString(m map[string]any, key, value string) {
	if value != "" {
		m[key] = value
	}
}

// duration writes d in the schema's #Duration form (whole days, hours or
// minutes); "" for zero, which keeps the schema's default. A duration that
// is not whole minutes is written as Go prints it, which the schema
// rejects with its own message.
func duration(d time.Duration) string {
	switch {
	case d == 0:
		return ""
	case d%(24*time.Hour) == 0:
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return d.String()
}

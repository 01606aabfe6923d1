package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// Entity is one entity in a result: its type, its id (the unique field's
// value), its stored properties and the computed fields the call used or
// asked for, plus what the tool adds (score, distance, how it was reached).
type Entity struct {
	EntityType string         `json:"entity_type"`
	ID         any            `json:"id"`
	Properties map[string]any `json:"properties"`
	Computed   map[string]any `json:"computed,omitempty"`
	// Score is the search score (semantic, full-text, fuzzy).
	Score *float64 `json:"score,omitempty"`
	// DistanceKm is the distance from the searched point (distance_search).
	DistanceKm *float64 `json:"distance_km,omitempty"`
	// FromID, Depth, Relationship and Path say how explore_relationships
	// reached the entity: from which start entity, in how many hops, the
	// properties of the relationship that reached it (the path's last),
	// and the relationships of one shortest path from the start (type and
	// properties each), in order.
	FromID       any            `json:"from_id,omitempty"`
	Depth        int            `json:"depth,omitempty"`
	Relationship map[string]any `json:"relationship,omitempty"`
	Path         []any          `json:"path,omitempty"`
	// Related holds what the call's include asked for: per relationship
	// type, the related entities' fields (an empty list when none is
	// related). RelatedCut names the lists the include limit cut.
	Related    map[string][]map[string]any `json:"related,omitempty"`
	RelatedCut []string                    `json:"related_cut,omitempty"`
	// Aggregates holds the values of the aggregates of related entities
	// the call sorted or filtered by (query_entities), by key: null where
	// AVG, MIN or MAX had nothing to aggregate.
	Aggregates map[string]any `json:"aggregates,omitempty"`
}

// Relationship is one relationship in a query_relationships result: its
// type, its declared properties and the entities at the ends of its
// stored arrow (type, id and properties each).
type Relationship struct {
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
	From       Entity         `json:"from"`
	To         Entity         `json:"to"`
}

// Group is one group of an aggregate_entities result. Count is how many
// values Value aggregated: the group's entities (or relationships), or
// the non-null values of the aggregated field.
//
// Display holds the display fields of a group that is one entity
// (grouped by its unique field), so the group is named, not only keyed.
type Group struct {
	Group   any            `json:"group"`
	Display map[string]any `json:"display,omitempty"`
	Value   any            `json:"value"`
	Count   int64          `json:"count"`
}

// Bucket is one histogram bucket: lower <= x < upper (the last bucket of a
// min–max histogram includes its upper bound).
type Bucket struct {
	Lower any   `json:"lower"`
	Upper any   `json:"upper"`
	Count int64 `json:"count"`
}

type resultKind int

const (
	kindEntities resultKind = iota
	kindRelationships
	kindAggregate
	kindGroups
	kindHistogram
	kindRows
	kindCustom
)

// Result is what a tool call returns to the agent. It marshals to the form
// of its tool: {"entities": [...], "count", "truncated"} for entity tools,
// {"relationships": [...], "count", "truncated"} for query_relationships,
// {"groups": [...]} or {"value"} for aggregates, {"buckets": [...]} for
// histograms, {"rows": [...]} for run_cypher, and a custom tool's own
// value. Notes say what was left out or shortened, and how to get it.
type Result struct {
	kind          resultKind
	Entities      []Entity
	Relationships []Relationship
	Groups        []Group
	Value         any
	Buckets       []Bucket
	Rows          []map[string]any
	Stats         map[string]any
	Count         int
	// Total is the count over the whole answer, not only the page: the
	// values an aggregate aggregated (ungrouped, always; grouped, over
	// every group when the call asked for total), or the entities a list
	// call matched when it asked for total. TotalAtLeast replaces it when
	// the count stopped at its cap.
	Total        *int64
	TotalAtLeast *int64
	Truncated    bool
	Notes        []string
	// Custom is a custom tool handler's result.
	Custom any
}

// MarshalJSON renders the result in its tool's form.
func (r *Result) MarshalJSON() ([]byte, error) {
	type page struct {
		Entities      *[]Entity         `json:"entities,omitempty"`
		Relationships *[]Relationship   `json:"relationships,omitempty"`
		Groups        *[]Group          `json:"groups,omitempty"`
		Buckets       *[]Bucket         `json:"buckets,omitempty"`
		Rows          *[]map[string]any `json:"rows,omitempty"`
		Stats         map[string]any    `json:"stats,omitempty"`
		Count         int               `json:"count"`
		Total         *int64            `json:"total,omitempty"`
		TotalAtLeast  *int64            `json:"total_at_least,omitempty"`
		Truncated     bool              `json:"truncated"`
		Notes         []string          `json:"notes,omitempty"`
	}
	p := page{Stats: r.Stats, Count: r.Count, Total: r.Total, TotalAtLeast: r.TotalAtLeast, Truncated: r.Truncated, Notes: r.Notes}
	switch r.kind {
	case kindCustom:
		return json.Marshal(r.Custom)
	case kindAggregate:
		return json.Marshal(struct {
			Value any      `json:"value"`
			Total *int64   `json:"total,omitempty"`
			Notes []string `json:"notes,omitempty"`
		}{r.Value, r.Total, r.Notes})
	case kindGroups:
		g := nonNil(r.Groups)
		p.Groups = &g
	case kindHistogram:
		b := nonNil(r.Buckets)
		p.Buckets = &b
	case kindRows:
		rows := nonNil(r.Rows)
		p.Rows = &rows
	case kindRelationships:
		rels := nonNil(r.Relationships)
		p.Relationships = &rels
	default:
		e := nonNil(r.Entities)
		p.Entities = &e
	}
	return json.Marshal(p)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// shaper turns rows into a Result as they stream in.
type shaper struct {
	e *Engine
	// tool names the called tool, whose arguments the notes may suggest.
	tool string
	st   *planner.Statement
	res  *Result
	// c converts the values (package neo4jvalue) and remembers what it
	// cut and left out, for the notes.
	c         *neo4jvalue.Converter
	truncated bool
	// last holds the sort keys of the last row shaped (Shape.SortKeys);
	// tie says the first row beyond the limit has the same keys.
	last []any
	tie  bool
	// scan is what a regex or glob scan read (nil for other statements).
	scan *scanReport
	// capped says a traversal stopped at Limits.MaxExpanded
	// (Shape.Capped); missing that the entity the call named does not
	// exist (Shape.Missing).
	capped, missing bool
	// relatedCut says an include limit cut some entity's related list.
	relatedCut bool
}

func newShaper(ctx context.Context, e *Engine, tool string, st *planner.Statement) *shaper {
	sh := &shaper{e: e, tool: tool, st: st, c: neo4jvalue.New(ctx, e.m, e.opts.MaxString)}
	sh.c.Whole, sh.c.ReadWhole = st.Shape.Whole, e.catalog.LongTextNote()
	sh.reset()
	return sh
}

// reset empties the shaper (a retried transaction starts over).
func (sh *shaper) reset() {
	kind := kindEntities
	switch sh.st.Shape.Kind {
	case planner.ShapeAggregate:
		kind = kindAggregate
		if sh.st.Shape.Grouped {
			kind = kindGroups
		}
	case planner.ShapeHistogram:
		kind = kindHistogram
	case planner.ShapeRows:
		kind = kindRows
	case planner.ShapeRelationships:
		kind = kindRelationships
	}
	sh.res = &Result{kind: kind}
	sh.c.Reset()
	sh.truncated, sh.capped, sh.missing, sh.relatedCut = false, false, false, false
	sh.last, sh.tie = nil, false
}

// full reports whether the call's limit is reached.
func (sh *shaper) full() bool {
	n := sh.res.Count
	if sh.st.Shape.Kind == planner.ShapeRows {
		return n >= sh.e.opts.MaxRows
	}
	return sh.st.Shape.Limit > 0 && n >= sh.st.Shape.Limit
}

// add shapes one row.
func (sh *shaper) add(rec *neo4j.Record) {
	if sh.carrier(rec) {
		return
	}
	r := sh.res
	get := func(k string) any { v, _ := rec.Get(k); return v }
	switch r.kind {
	case kindAggregate:
		r.Value = sh.value("value", get("value"))
		r.Total = count(get(planner.ColCount))
	case kindGroups:
		c, _ := get(planner.ColCount).(int64)
		r.Groups = append(r.Groups, Group{Group: sh.value("group", get("group")), Display: sh.props(get(planner.ColDisplay)), Value: sh.value("value", get("value")), Count: c})
	case kindHistogram:
		c, _ := get("count").(int64)
		r.Buckets = append(r.Buckets, Bucket{Lower: sh.value("lower", get("lower")), Upper: sh.value("upper", get("upper")), Count: c})
	case kindRows:
		row := map[string]any{}
		for i, k := range rec.Keys {
			if k == sh.st.Shape.Capped || k == sh.st.Shape.Missing {
				continue
			}
			if v, ok := sh.c.Value(k, rec.Values[i]); ok {
				row[k] = v
			}
		}
		r.Rows = append(r.Rows, row)
	case kindRelationships:
		typ, _ := get(planner.ColType).(string)
		r.Relationships = append(r.Relationships, Relationship{Type: typ, Properties: sh.props(get(planner.ColProperties)),
			From: sh.end(planner.ColFrom, get), To: sh.end(planner.ColTo, get)})
	default:
		r.Entities = append(r.Entities, sh.entity(rec, get))
		for _, k := range sh.st.Shape.Stats {
			if r.Stats == nil {
				r.Stats = map[string]any{}
			}
			r.Stats[k] = sh.value(k, get(k))
		}
	}
	r.Count++
	if len(sh.st.Shape.SortKeys) > 0 {
		sh.last = sh.sortKeys(rec)
	}
}

// read shapes rows as run reads them: up to the call's limit, then the
// row beyond it marks the result cut (or rowCap rows read mark it
// truncated). It needs no driver: run feeds it a result stream, the
// offline golden test (result_golden_test.go) a case's recorded rows.
func (sh *shaper) read(rows iter.Seq[*neo4j.Record], rowCap int) {
	read := 0
	for rec := range rows {
		read++
		if sh.full() {
			sh.cut(rec)
			return
		}
		sh.add(rec)
		if read >= rowCap {
			sh.truncated = true
			return
		}
	}
}

// cut marks the result truncated at rec, the first row beyond the limit,
// and notes whether rec ties with the last row shaped on every sort key.
func (sh *shaper) cut(rec *neo4j.Record) {
	sh.truncated = true
	if len(sh.st.Shape.SortKeys) == 0 || sh.last == nil {
		return
	}
	next := sh.sortKeys(rec)
	for i := range next {
		if !sameKey(next[i], sh.last[i]) {
			return
		}
	}
	sh.tie = true
}

// sortKeys reads a row's sort keys.
func (sh *shaper) sortKeys(rec *neo4j.Record) []any {
	keys := sh.st.Shape.SortKeys
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i], _ = rec.Get(k.Column)
	}
	return out
}

// readTotal runs the statement's total (planner.Statement.Total) in the
// transaction of its page, so both read the same graph, and puts its
// count in the result: Total, or past tools.MaxTotal TotalAtLeast and a
// note.
func (sh *shaper) readTotal(ctx context.Context, tx neo4j.ManagedTransaction) error {
	res, err := tx.Run(ctx, sh.st.Total.Cypher, sh.st.Total.Params)
	if err != nil {
		return err
	}
	rec, err := res.Single(ctx)
	if err != nil {
		return err
	}
	n, _ := rec.Get(planner.ColTotal)
	sh.total(n)
	return nil
}

// total puts a total's count in the result.
func (sh *shaper) total(v any) {
	n, ok := v.(int64)
	_, capped := sh.st.Total.Params[planner.ParamTotalCap]
	switch {
	case !ok:
		sh.res.Notes = append(sh.res.Notes, fmt.Sprintf("the total could not be counted (the count read %v)", v))
	case capped && n > tools.MaxTotal:
		at := int64(tools.MaxTotal)
		sh.res.TotalAtLeast = &at
		sh.res.Notes = append(sh.res.Notes, tools.TotalCapNote())
	default:
		sh.res.Total = &n
	}
}

// count reads a count column: nil when the row has none.
func count(v any) *int64 {
	if c, ok := v.(int64); ok {
		return &c
	}
	return nil
}

// carrier reads the Capped and Missing columns and reports whether the
// row only carries them (every other column null), which is no result.
func (sh *shaper) carrier(rec *neo4j.Record) bool {
	c, m := sh.st.Shape.Capped, sh.st.Shape.Missing
	if c == "" && m == "" {
		return false
	}
	only := true
	for i, k := range rec.Keys {
		switch {
		case k == c:
			if rec.Values[i] == true {
				sh.capped = true
			}
		case k == m:
			if rec.Values[i] == true {
				sh.missing = true
			}
		case rec.Values[i] != nil:
			only = false
		}
	}
	return only
}

func (sh *shaper) entity(rec *neo4j.Record, get func(string) any) Entity {
	ent := Entity{EntityType: sh.st.Shape.Entity, ID: sh.value("id", get(planner.ColID))}
	if ent.EntityType == "" {
		labels, _ := get(planner.ColLabels).([]any)
		ent.EntityType = sh.entityType(labels)
	}
	ent.Properties = sh.props(get(planner.ColProperties))
	if c := sh.props(get(planner.ColComputed)); len(c) > 0 {
		ent.Computed = c
	}
	if len(sh.st.Shape.Related) > 0 {
		sh.related(&ent, get(planner.ColRelated))
	}
	for _, k := range sh.st.Shape.Extra {
		v := get(k)
		switch k {
		case "score", "distance_km":
			if f, ok := v.(float64); ok {
				if k == "score" {
					ent.Score = &f
				} else {
					ent.DistanceKm = &f
				}
			}
		case "from_id":
			ent.FromID = sh.value(k, v)
		case "depth":
			d, _ := v.(int64)
			ent.Depth = int(d)
		case "relationship":
			if m := sh.props(v); len(m) > 0 {
				ent.Relationship = m
			}
		case "path":
			if l, ok := sh.value(k, v).([]any); ok && len(l) > 0 {
				ent.Path = l
			}
		case planner.ColAggregates:
			ent.Aggregates, _ = sh.value(k, v).(map[string]any)
		}
	}
	return ent
}

// end shapes a relationship's end from the entity columns with prefix.
func (sh *shaper) end(prefix string, get func(string) any) Entity {
	labels, _ := get(prefix + planner.ColLabels).([]any)
	return Entity{EntityType: sh.entityType(labels), ID: sh.value("id", get(prefix+planner.ColID)), Properties: sh.props(get(prefix + planner.ColProperties))}
}

// related reads an entity's include lists (Shape.Related), each fetched
// with one entity beyond its limit: a list that has it is cut to the
// limit and named in RelatedCut.
func (sh *shaper) related(ent *Entity, v any) {
	m, _ := v.(map[string]any)
	ent.Related = map[string][]map[string]any{}
	for _, l := range sh.st.Shape.Related {
		items, _ := m[l.Via].([]any)
		if len(items) > l.Limit {
			items = items[:l.Limit]
			ent.RelatedCut = append(ent.RelatedCut, l.Via)
			sh.relatedCut = true
		}
		list := make([]map[string]any, len(items))
		for i, it := range items {
			list[i] = sh.props(it)
		}
		ent.Related[l.Via] = list
	}
}

// entityType picks the model entity among a node's labels.
func (sh *shaper) entityType(labels []any) string {
	for _, e := range sh.e.m.Entities {
		for _, l := range labels {
			if l == e.Name {
				return e.Name
			}
		}
	}
	if len(labels) > 0 {
		return fmt.Sprint(labels[0])
	}
	return ""
}

// value converts one value of a row; a value left out (an embedding) is
// null.
func (sh *shaper) value(name string, v any) any {
	out, _ := sh.c.Value(name, v)
	return out
}

// props converts a map column (an entity's properties or computed values,
// a relationship's properties), dropping null values (absent properties)
// and vector-index properties.
func (sh *shaper) props(v any) map[string]any {
	m, _ := v.(map[string]any)
	return sh.c.Props(m)
}

// result finishes the result with its notes.
func (sh *shaper) result() *Result {
	r := sh.res
	r.Truncated = sh.truncated
	if sh.scan != nil {
		sh.scanResult()
	}
	if sh.capped {
		r.Truncated = true
		r.Notes = append(r.Notes, sh.e.catalog.CapNote(sh.tool))
	}
	if sh.truncated {
		switch r.kind {
		case kindHistogram:
			r.Notes = append(r.Notes, tools.HistogramTruncationNote(sh.st.Shape.Limit))
		case kindRows:
			r.Notes = append(r.Notes, sh.e.catalog.TruncationNote(sh.tool, sh.e.opts.MaxRows))
		default:
			r.Notes = append(r.Notes, sh.e.catalog.TruncationNote(sh.tool, sh.st.Shape.Limit))
		}
	}
	if sh.tie {
		noun := "entities"
		switch r.kind {
		case kindGroups:
			noun = "groups"
		case kindRelationships:
			noun = "relationships"
		}
		r.Notes = append(r.Notes, sh.e.catalog.TieNote(sh.tool, noun, sh.tiedOn(), sh.st.Shape.Limit))
	}
	if nf := sh.st.Shape.NotFound; nf != "" && (sh.missing || sh.st.Shape.Missing == "" && r.Count == 0) {
		r.Notes = append(r.Notes, nf)
	}
	if sh.relatedCut {
		r.Notes = append(r.Notes, tools.IncludeCutNote())
	}
	r.Notes = append(r.Notes, sh.st.Shape.Notes...)
	r.Notes = append(r.Notes, sh.c.Notes()...)
	return r
}

// vectorIndex returns the model's vector index with the given name.
func (e *Engine) vectorIndex(name string) *model.VectorIndex {
	for _, ent := range e.m.Entities {
		for _, vi := range ent.VectorIndexes {
			if vi.Name == name {
				return vi
			}
		}
	}
	return nil
}

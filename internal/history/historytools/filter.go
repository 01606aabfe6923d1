package historytools

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/history/change"
	"github.com/ragforge/ragforge/tools"
)

// query is a call that reads the Changes of its entities in a window:
// find_recently_modified_entities, get_most_modified_entities and
// get_change_statistics.
type query struct {
	tool string
	s    scope
	w    window
	// kind keeps the changes of one kind ("" every kind).
	kind string
	tn   string
	// anchored says the window counts back from the latest change.
	anchored bool
}

// newQuery checks a call's entities, kind and window before anything is
// read.
func (h *historian) newQuery(tool string, t target, w window, kind, tn string) (query, error) {
	if kind != "" && !slices.Contains(change.Kinds, kind) {
		return query{}, tools.Fail(tool, "/kind", change.Kinds, "%s is not a kind of change", kind)
	}
	anchored, err := w.anchored(tool)
	if err != nil {
		return query{}, err
	}
	// The bounds are checked here against now; frame computes them again
	// from the latest change when the window is anchored to it.
	if _, _, err := w.bounds(tool, h.env.Now()); err != nil {
		return query{}, err
	}
	s, err := h.scope(tool, t)
	if err != nil {
		return query{}, err
	}
	return query{tool: tool, s: s, w: w, kind: kind, tn: tn, anchored: anchored}, nil
}

// frame is the start of a query's statement, its Changes c in its window
// (and n, their entity, when the query selects entities), with its
// parameters, and the window.
type frame struct {
	match    string
	params   map[string]any
	from, to time.Time
	// latest is the time of the latest change of the query's entities
	// when the window counts from it (zero otherwise, or when there is
	// none).
	latest time.Time
}

// changes is the start of a statement over the Changes c of s in the
// tenant (of its entities n when it selects some), MATCH … WHERE with
// preds, and its parameters.
func (h *historian) changes(s scope, tn string, preds ...string) (string, map[string]any) {
	f := h.t.Q.Fields
	var q string
	var conds []string
	var params map[string]any
	if s.sel != nil {
		params = withTenant(s.sel.Params, tn)
		q = s.sel.Cypher + "\nMATCH (n)-[:" + h.t.Q.Rel + "]->(c:" + h.t.Q.Label + ")"
	} else {
		params = withTenant(nil, tn)
		params["types"] = s.types
		q = "MATCH (c:" + h.t.Q.Label + ")"
		conds = append(conds, "c."+f.EntityType+" IN $types")
	}
	if h.t.TenantField != "" {
		conds = append(conds, "c."+h.t.Q.Tenant+" = $tenant")
	}
	conds = append(conds, preds...)
	if len(conds) > 0 {
		q += "\nWHERE " + strings.Join(conds, " AND ")
	}
	return q + "\n", params
}

// kindPred keeps the query's kind of change.
func (q query) kindPred(h *historian) []string {
	if q.kind == "" {
		return nil
	}
	return []string{"c." + h.t.Q.Fields.Kind + " = $kind"}
}

// frame reads, when the window counts from it, the latest change of the
// query's entities, and starts the statement.
func (h *historian) frame(ctx context.Context, tx neo4j.ManagedTransaction, q query) (*frame, error) {
	fr := &frame{}
	now := h.env.Now().UTC()
	if q.anchored {
		var err error
		if fr.latest, err = h.latest(ctx, tx, q.s, q.kind, q.tn); err != nil {
			return nil, err
		}
		if !fr.latest.IsZero() {
			// The latest change is in the window: a period ends just after it.
			now = fr.latest.Add(time.Nanosecond)
		}
	}
	var err error
	if fr.from, fr.to, err = q.w.bounds(q.tool, now); err != nil {
		return nil, err
	}
	ts := "c." + h.t.Q.Fields.Timestamp
	preds := q.kindPred(h)
	if !fr.from.IsZero() {
		preds = append(preds, ts+" >= $from")
	}
	if !fr.to.IsZero() {
		preds = append(preds, ts+" < $to")
	}
	fr.match, fr.params = h.changes(q.s, q.tn, preds...)
	if !fr.from.IsZero() {
		fr.params["from"] = fr.from
	}
	if !fr.to.IsZero() {
		fr.params["to"] = fr.to
	}
	if q.kind != "" {
		fr.params["kind"] = q.kind
	}
	return fr, nil
}

// window returns the frame's window in the result's form.
func (fr *frame) window() (from, to string) {
	if !fr.from.IsZero() {
		from = timeOf(fr.from)
	}
	if !fr.to.IsZero() {
		to = timeOf(fr.to)
	}
	return from, to
}

// latest is the time of the latest change of s's entities (of kind when
// given), zero when they have none.
func (h *historian) latest(ctx context.Context, tx neo4j.ManagedTransaction, s scope, kind, tn string) (time.Time, error) {
	var preds []string
	if kind != "" {
		preds = []string{"c." + h.t.Q.Fields.Kind + " = $kind"}
	}
	match, params := h.changes(s, tn, preds...)
	if kind != "" {
		params["kind"] = kind
	}
	// In the time's order, so that an index on it (schema apply adds
	// one) finds the latest without reading every Change.
	ts := "c." + h.t.Q.Fields.Timestamp
	recs, err := rows(ctx, tx, match+"WITH "+ts+" AS latest WHERE latest IS NOT NULL\nRETURN latest ORDER BY latest DESC LIMIT 1", params)
	if err != nil || len(recs) == 0 {
		return time.Time{}, err
	}
	t, _ := recs[0].Values[0].(time.Time)
	return t.UTC(), nil
}

// nothingRecorded is the note of an empty answer on a graph without a
// recorded change.
const nothingRecorded = "no change is recorded (writes record them; `ragforge-plan history import` records a repository's commits)"

// empty explains an answer with no change: when the latest change of the
// query's entities (of its kind) was, or, when they have none, when the
// latest change of any tracked entity was; latest is the former, in the
// result's form ("" when they have none).
func (h *historian) empty(ctx context.Context, tx neo4j.ManagedTransaction, q query, fr *frame) (note, latest string, err error) {
	t := fr.latest
	if t.IsZero() {
		if t, err = h.latest(ctx, tx, q.s, q.kind, q.tn); err != nil {
			return "", "", err
		}
	}
	kind := ""
	if q.kind != "" {
		kind = q.kind + " "
	}
	if !t.IsZero() {
		hint := "widen the window, or give relative_to latest_change to count relative_period back from it"
		if q.anchored || q.w.RelativePeriod == "" {
			hint = "widen the window"
		}
		return fmt.Sprintf("no change in this window; the latest recorded %schange of %s was at %s: %s", kind, q.s.what, timeOf(t), hint), timeOf(t), nil
	}
	if q.kind == "" && q.s.sel == nil && len(q.s.types) == len(h.types) {
		return nothingRecorded, "", nil
	}
	if t, err = h.latest(ctx, tx, scope{types: h.types}, "", q.tn); err != nil || t.IsZero() {
		return nothingRecorded, "", err
	}
	return fmt.Sprintf("there is no recorded %schange of %s; the latest recorded change of any tracked entity was at %s", kind, q.s.what, timeOf(t)), "", nil
}

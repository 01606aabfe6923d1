package handwritten

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
)

// Engines are the engines of the two graphs' configs.
type Engines map[string]*engine.Engine

// Check asks every workload both ways and returns, per workload key, why
// its answers differ (a side failed, the rows differ, or both are empty,
// which proves nothing): ragforge's rows from engine.Execute and the
// hand-written statement's rows must be the same values of w.Cols, in the
// same order unless w.Unordered. Timings mean nothing unless both answer
// the same question, so Check runs before [Measure], which times only the
// workloads Check passed. rows holds each workload's row count.
func Check(ctx context.Context, d neo4j.DriverWithContext, db string, es Engines, ws []Workload) (rows map[string]int, failed map[string]error) {
	rows, failed = map[string]int{}, map[string]error{}
	for _, w := range ws {
		rf, err := RagforgeRows(ctx, es[w.Graph], w)
		if err != nil {
			failed[w.Key] = fmt.Errorf("ragforge: %w", err)
			continue
		}
		hw, err := HandRows(ctx, d, db, w)
		if err != nil {
			failed[w.Key] = fmt.Errorf("hand-written: %w", err)
			continue
		}
		if w.Unordered {
			slices.Sort(rf)
			slices.Sort(hw)
		}
		switch {
		case len(hw) == 0 && len(rf) == 0:
			failed[w.Key] = errors.New("both answers are empty: choose other arguments")
		case !slices.Equal(rf, hw):
			failed[w.Key] = fmt.Errorf("the answers differ\n%s", diff(rf, hw))
		default:
			rows[w.Key] = len(rf)
		}
	}
	return rows, failed
}

// RagforgeRows runs w's call through engine.Execute and renders its rows
// on w.Cols.
func RagforgeRows(ctx context.Context, e *engine.Engine, w Workload) ([]string, error) {
	res, err := e.Execute(ctx, w.Call)
	if err != nil {
		return nil, err
	}
	var out []string
	row := func(get func(col string) (any, bool)) error {
		vals := make([]string, len(w.Cols))
		for i, c := range w.Cols {
			v, ok := get(c)
			if !ok {
				return fmt.Errorf("ragforge's result has no %q", c)
			}
			vals[i] = norm(v)
		}
		out = append(out, strings.Join(vals, " | "))
		return nil
	}
	for _, g := range res.Groups {
		if err := row(func(c string) (any, bool) {
			switch c {
			case "group":
				return g.Group, true
			case "value":
				return g.Value, true
			case "count":
				return g.Count, true
			}
			return nil, false
		}); err != nil {
			return nil, err
		}
	}
	for _, r := range res.Rows {
		if err := row(func(c string) (any, bool) {
			if c == "node_ids" {
				ns, _ := r["nodes"].([]any)
				ids := make([]any, len(ns))
				for i, n := range ns {
					m, _ := n.(map[string]any)
					ids[i] = m["id"]
				}
				return ids, ns != nil
			}
			v, ok := r[c]
			return v, ok
		}); err != nil {
			return nil, err
		}
	}
	for _, en := range res.Entities {
		if err := row(func(c string) (any, bool) { return entityValue(en, c) }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// entityValue is the part of a result entity a column names: its id,
// depth or distance, else a stored field, an aggregate of related
// entities (query_entities' aggregate tests) or a computed field.
func entityValue(en engine.Entity, col string) (any, bool) {
	switch {
	case col == "id":
		return en.ID, true
	case col == "depth":
		return int64(en.Depth), en.Depth > 0
	case col == "distance_km" && en.DistanceKm != nil:
		return *en.DistanceKm, true
	}
	if v, ok := en.Properties[col]; ok {
		return v, true
	}
	if v, ok := en.Aggregates[col]; ok {
		return v, true
	}
	v, ok := en.Computed[col]
	return v, ok
}

// HandRows runs w's hand-written statement in a read transaction and
// renders its rows on w.Cols.
func HandRows(ctx context.Context, d neo4j.DriverWithContext, db string, w Workload) ([]string, error) {
	res, err := neo4j.ExecuteQuery(ctx, d, w.Hand, w.HandParams, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(db), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(res.Records))
	for _, rec := range res.Records {
		vals := make([]string, len(w.Cols))
		for i, c := range w.Cols {
			v, ok := rec.Get(c)
			if !ok {
				return nil, fmt.Errorf("the hand-written statement returns no column %q", c)
			}
			vals[i] = norm(v)
		}
		out = append(out, strings.Join(vals, " | "))
	}
	return out, nil
}

// norm renders a value for comparison: instants in UTC whether they come
// as driver values (the hand-written side) or ISO strings (ragforge's
// results), numbers of either kind by their value to 10 significant
// digits (an average or a distance computed by the same expression on
// both sides may still print differently), lists element by element.
func norm(v any) string {
	if t, ok := v.(time.Time); ok {
		return t.UTC().Format(time.RFC3339Nano)
	}
	switch x := neo4jvalue.Value(v).(type) {
	case nil:
		return "null"
	case string:
		if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return t.UTC().Format(time.RFC3339Nano)
		}
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		if x == float64(int64(x)) {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', 10, 64)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = norm(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// diff lays both answers side by side, marking the rows that differ.
func diff(rf, hw []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %-4s %-56s %s\n", "#", "ragforge", "hand-written")
	at := func(rs []string, i int) string {
		if i < len(rs) {
			return rs[i]
		}
		return "-"
	}
	for i := range max(len(rf), len(hw)) {
		mark := " "
		if at(rf, i) != at(hw, i) {
			mark = "≠"
		}
		fmt.Fprintf(&b, "%s %-4d %-56s %s\n", mark, i+1, at(rf, i), at(hw, i))
	}
	return b.String()
}

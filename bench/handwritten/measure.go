package handwritten

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/bench/peers"
	"github.com/ragforge/ragforge/planner"
)

// Target is the bound: ragforge's statement at most this many
// times the hand-written one's db hits and median time.
const Target = 1.25

// Measurement is one workload's comparison.
type Measurement struct {
	Workload Workload
	// Rows is the length of the answer both sides gave (Check passed).
	Rows int
	// RagforgeCypher is ragforge's statement (engine.Plan), with the
	// fetch step of a regex scan after it.
	RagforgeCypher string
	// RagforgePlan and HandPlan are the PROFILE trees, one operator a line
	// with its rows and db hits; RagforgeHits and HandHits their totals.
	RagforgePlan, HandPlan string
	RagforgeHits, HandHits int64
	// RagforgeDriver and HandDriver are the statements' median latencies
	// on the Go driver (a read transaction, records collected); Execute is
	// engine.Execute's median for the same call, end to end.
	RagforgeDriver, HandDriver, Execute time.Duration
	Runs                                int
}

// HitsRatio and TimeRatio are ragforge's over the hand-written statement's.
func (m Measurement) HitsRatio() float64 {
	return float64(m.RagforgeHits) / float64(max(m.HandHits, 1))
}

// TimeRatio is ragforge's statement's median over the hand-written one's.
func (m Measurement) TimeRatio() float64 { return float64(m.RagforgeDriver) / float64(m.HandDriver) }

// ExecuteRatio is engine.Execute's median over the hand-written statement's.
func (m Measurement) ExecuteRatio() float64 { return float64(m.Execute) / float64(m.HandDriver) }

// Meets says whether ragforge's statement is within Target of the
// hand-written one in db hits and in median time.
func (m Measurement) Meets() bool { return m.HitsRatio() <= Target && m.TimeRatio() <= Target }

// Measure PROFILEs both statements of every workload, then times each n
// times on the Go driver, and engine.Execute n times, after warm-up runs:
// ragforge's statement as engine.Plan gives it (a regex scan's candidates
// matched in Go and its fetch step run, as Execute does), the hand-written
// one as it is. The three alternate in blocks of a fifth of n, so a busy
// moment of the shared machine falls on all of them. Only workloads Check
// passed should be measured; rows are their row counts.
func Measure(ctx context.Context, d neo4j.DriverWithContext, db string, es Engines, ws []Workload, rows map[string]int, n, warm int) ([]Measurement, error) {
	var out []Measurement
	block := max(1, n/5)
	for _, w := range ws {
		e := es[w.Graph]
		st, err := e.Plan(ctx, w.Call)
		if err != nil {
			return nil, fmt.Errorf("%s: ragforge: %w", w.Key, err)
		}
		m := Measurement{Workload: w, Rows: rows[w.Key], RagforgeCypher: st.Cypher, Runs: n}
		if st.Next != nil {
			m.RagforgeCypher += "\n-- the chunks after the first:\n" + st.Next.Cypher
		}
		if st.Fetch != nil {
			m.RagforgeCypher += "\n-- then, for the ids kept:\n" + st.Fetch.Cypher
		}
		if m.RagforgePlan, m.RagforgeHits, err = profileSteps(ctx, d, db, st); err != nil {
			return nil, fmt.Errorf("%s: ragforge's statement: %w", w.Key, err)
		}
		if m.HandPlan, m.HandHits, err = peers.ProfileCypher(ctx, d, db, w.Hand, w.HandParams); err != nil {
			return nil, fmt.Errorf("%s: the hand-written statement: %w", w.Key, err)
		}
		rf, hw, ex := make([]time.Duration, 0, n), make([]time.Duration, 0, n), make([]time.Duration, 0, n)
		round := func(k int, keep bool) error {
			for range k {
				a, err := timeSteps(ctx, d, db, st)
				if err != nil {
					return fmt.Errorf("%s: ragforge's statement: %w", w.Key, err)
				}
				if keep {
					rf = append(rf, a)
				}
			}
			for range k {
				b, err := peers.TimeRead(ctx, d, db, peers.Collect(w.Hand, w.HandParams))
				if err != nil {
					return fmt.Errorf("%s: the hand-written statement: %w", w.Key, err)
				}
				if keep {
					hw = append(hw, b)
				}
			}
			for range k {
				start := time.Now()
				if _, err := e.Execute(ctx, w.Call); err != nil {
					return fmt.Errorf("%s: engine.Execute: %w", w.Key, err)
				}
				if keep {
					ex = append(ex, time.Since(start))
				}
			}
			return nil
		}
		if err := round(warm, false); err != nil {
			return nil, err
		}
		for len(rf) < n {
			if err := round(min(block, n-len(rf)), true); err != nil {
				return nil, err
			}
		}
		m.RagforgeDriver, m.HandDriver, m.Execute = peers.Median(rf), peers.Median(hw), peers.Median(ex)
		out = append(out, m)
	}
	return out, nil
}

// step is one statement engine.Execute ran for a call, with its
// parameters.
type step struct {
	cypher string
	params map[string]any
}

// steps runs ragforge's statement as engine.Execute does, in one read
// transaction on a new session (as the hand-written statement is timed:
// peers.TimeRead), and returns what it ran: the statement itself, or for
// a regex or glob scan (Filter) its chunks — in unique-field order (or
// value order: Filter.ValueOrder), sizes doubling from the statement's
// first chunk (engine.scan's caps on a chunk's bytes and time do not bind
// on these texts) — with the candidates matched in Go until one match
// more than the limit (in value order, all of them), then the fetch step
// for the kept ids. Rows are collected, as a caller reads them.
func steps(ctx context.Context, d neo4j.DriverWithContext, db string, st *planner.Statement) ([]step, error) {
	var out []step
	_, err := peers.TimeRead(ctx, d, db, func(ctx context.Context, tx neo4j.ManagedTransaction) (err error) {
		out, err = stepsIn(ctx, tx, st)
		return err
	})
	return out, err
}

// stepsIn is steps within the transaction tx.
func stepsIn(ctx context.Context, tx neo4j.ManagedTransaction, st *planner.Statement) ([]step, error) {
	run := func(cypher string, params map[string]any) ([]*neo4j.Record, error) {
		res, err := tx.Run(ctx, cypher, params)
		if err != nil {
			return nil, err
		}
		return res.Collect(ctx)
	}
	if st.Filter == nil {
		_, err := run(st.Cypher, st.Params)
		return []step{{st.Cypher, st.Params}}, err
	}
	match, err := st.Filter.Matcher()
	if err != nil {
		return nil, err
	}
	var (
		out               []step
		kept              []any
		after, afterValue any
	)
	keepAll := st.Filter.ValueOrder != ""
	chunk, stmt := st.FirstChunk(), st
	for stmt != nil {
		params := map[string]any{planner.ScanChunk: int64(chunk)}
		for k, v := range stmt.Params {
			if k != planner.ScanChunk {
				params[k] = v
			}
		}
		if after != nil {
			params[planner.ScanAfter] = after
			params[planner.ScanAfterValue] = afterValue
		}
		recs, err := run(stmt.Cypher, params)
		if err != nil {
			return nil, err
		}
		out = append(out, step{stmt.Cypher, params})
		if len(recs) != 1 || len(recs[0].Values) < 2 {
			return nil, fmt.Errorf("a scan chunk returned %d rows, want one of ids and values", len(recs))
		}
		ids, _ := recs[0].Values[0].([]any)
		values, _ := recs[0].Values[1].([]any)
		full := false
		for i, v := range values {
			if s, _ := v.(string); match(s) {
				if full = !keepAll && len(kept) == st.Shape.Limit; full {
					break
				}
				kept = append(kept, ids[i])
			}
		}
		if full || len(ids) < chunk {
			break
		}
		after, afterValue, chunk, stmt = ids[len(ids)-1], values[len(values)-1], min(2*chunk, 65536), st.Next
	}
	if len(kept) > 0 {
		params := map[string]any{planner.FetchIDs: kept}
		for k, v := range st.Fetch.Params {
			if k != planner.FetchIDs {
				params[k] = v
			}
		}
		if _, err := run(st.Fetch.Cypher, params); err != nil {
			return nil, err
		}
		out = append(out, step{st.Fetch.Cypher, params})
	}
	return out, nil
}

// timeSteps is how long steps takes: ragforge's statements on the driver.
func timeSteps(ctx context.Context, d neo4j.DriverWithContext, db string, st *planner.Statement) (time.Duration, error) {
	start := time.Now()
	_, err := steps(ctx, d, db, st)
	return time.Since(start), err
}

// profileSteps PROFILEs every statement steps ran, with the same
// parameters, and adds up their db hits.
func profileSteps(ctx context.Context, d neo4j.DriverWithContext, db string, st *planner.Statement) (string, int64, error) {
	ss, err := steps(ctx, d, db, st)
	if err != nil {
		return "", 0, err
	}
	var plan strings.Builder
	var hits int64
	for i, s := range ss {
		p, h, err := peers.ProfileCypher(ctx, d, db, s.cypher, s.params)
		if err != nil {
			return "", 0, err
		}
		if len(ss) > 1 {
			fmt.Fprintf(&plan, "    -- step %d of %d (%d db hits):\n", i+1, len(ss), h)
		}
		plan.WriteString(p)
		hits += h
	}
	return plan.String(), hits, nil
}

// Report is one run's result, as docs/performance.md quotes it.
type Report struct {
	// Graphs describes the loaded graphs; Commit and Command say what was
	// measured and how.
	Graphs, Commit, Command string
	Measurements            []Measurement
	// Failed are the workloads whose answers differ or whose call failed,
	// with why; they were not timed.
	Failed map[string]error
	// Order is every workload key in table order.
	Order []Workload
}

// Write renders the table: one row per workload, db hits and medians of
// both statements with ragforge's ratio, engine.Execute's median, and a
// mark on every row over Target.
func (r *Report) Write(w io.Writer, plans bool) {
	fmt.Fprintf(w, "graphs: %s\n", r.Graphs)
	if r.Commit != "" {
		fmt.Fprintf(w, "commit: %s\n", r.Commit)
	}
	fmt.Fprintf(w, "command: %s\n\n", r.Command)
	fmt.Fprintln(w, "| workload | rows | db hits ragforge / hand | ratio | median ragforge / hand | ratio | Execute | Execute ÷ hand | ≤ 1.25× |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|:-:|")
	byKey := map[string]Measurement{}
	for _, m := range r.Measurements {
		byKey[m.Workload.Key] = m
	}
	runs := 0
	for _, wl := range r.Order {
		if err, ok := r.Failed[wl.Key]; ok {
			fmt.Fprintf(w, "| %s | – | – | – | – | – | – | – | ✗ not timed: %s |\n", wl.Key, short(err))
			continue
		}
		m, ok := byKey[wl.Key]
		if !ok {
			continue
		}
		runs = m.Runs
		mark := "✓"
		if !m.Meets() {
			mark = "✗"
		}
		fmt.Fprintf(w, "| %s | %d | %d / %d | %.2f× | %s / %s | %.2f× | %s | %.2f× | %s |\n", wl.Key, m.Rows,
			m.RagforgeHits, m.HandHits, m.HitsRatio(), peers.Millis(m.RagforgeDriver), peers.Millis(m.HandDriver), m.TimeRatio(),
			peers.Millis(m.Execute), m.ExecuteRatio(), mark)
	}
	fmt.Fprintf(w, "\nmedians of %d runs each on the Go driver after warm-up; ratio = ragforge's ÷ the hand-written statement's; ✗ marks a ratio over %.2f× (db hits or statement time) or a workload that was not timed\n", runs, Target)
	fmt.Fprintln(w, "\n| workload | question |\n|---|---|")
	for _, wl := range r.Order {
		fmt.Fprintf(w, "| %s | %s |\n", wl.Key, strings.ReplaceAll(wl.Name, "|", `\|`))
	}
	for _, wl := range r.Order {
		if err, ok := r.Failed[wl.Key]; ok {
			fmt.Fprintf(w, "\n%s was not timed: %v\n", wl.Key, err)
		}
	}
	if !plans {
		return
	}
	for _, m := range r.Measurements {
		fmt.Fprintf(w, "\n### %s — %s\n\nragforge (%d db hits):\n%s\n%s\nhand-written (%d db hits):\n%s\n%s", m.Workload.Key, m.Workload.Name,
			m.RagforgeHits, indent(m.RagforgeCypher), m.RagforgePlan, m.HandHits, indent(m.Workload.Hand), m.HandPlan)
	}
}

// short is an error's first line, at most 80 characters, for a table
// cell (the whole error follows the table).
func short(err error) string {
	l, _, _ := strings.Cut(err.Error(), "\n")
	l = strings.ReplaceAll(l, "|", "/")
	if r := []rune(l); len(r) > 80 {
		l = string(r[:80]) + "…"
	}
	return l
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }

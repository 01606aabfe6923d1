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
		if st.Fetch != nil {
			m.RagforgeCypher += "\n-- then, for the ids kept:\n" + st.Fetch.Cypher
		}
		if m.RagforgePlan, m.RagforgeHits, err = profilePlanned(ctx, d, db, st); err != nil {
			return nil, fmt.Errorf("%s: ragforge's statement: %w", w.Key, err)
		}
		if m.HandPlan, m.HandHits, err = peers.ProfileCypher(ctx, d, db, w.Hand, w.HandParams); err != nil {
			return nil, fmt.Errorf("%s: the hand-written statement: %w", w.Key, err)
		}
		rf, hw, ex := make([]time.Duration, 0, n), make([]time.Duration, 0, n), make([]time.Duration, 0, n)
		round := func(k int, keep bool) error {
			for range k {
				a, err := peers.TimeRead(ctx, d, db, planned(st))
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

// planned is the read work of ragforge's statement as engine.Execute runs
// it: the statement, and for a regex or glob scan (Filter) the candidates
// matched in Go until one more than the limit matched, then the fetch step
// for the kept ids, in the same transaction.
func planned(st *planner.Statement) peers.ReadWork {
	if st.Filter == nil {
		return peers.Collect(st.Cypher, st.Params)
	}
	return func(ctx context.Context, tx neo4j.ManagedTransaction) error {
		_, err := scan(ctx, tx, st)
		return err
	}
}

// scan runs a Filter statement's candidates and its fetch step, and
// returns the ids it kept.
func scan(ctx context.Context, tx neo4j.ManagedTransaction, st *planner.Statement) ([]any, error) {
	match, err := st.Filter.Matcher()
	if err != nil {
		return nil, err
	}
	res, err := tx.Run(ctx, st.Cypher, st.Params)
	if err != nil {
		return nil, err
	}
	var kept []any
	for res.Next(ctx) {
		v, _ := res.Record().Get(planner.ColValue)
		s, _ := v.(string)
		if !match(s) {
			continue
		}
		if len(kept) == st.Shape.Limit {
			break
		}
		id, _ := res.Record().Get(planner.ColID)
		kept = append(kept, id)
	}
	if err := res.Err(); err != nil {
		return nil, err
	}
	if len(kept) == 0 {
		return kept, nil
	}
	return kept, peers.Collect(st.Fetch.Cypher, fetchParams(st, kept))(ctx, tx)
}

// fetchParams are the parameters of a scan's fetch step for the kept ids.
func fetchParams(st *planner.Statement, kept []any) map[string]any {
	params := map[string]any{planner.FetchIDs: kept}
	for k, v := range st.Fetch.Params {
		if k != planner.FetchIDs {
			params[k] = v
		}
	}
	return params
}

// profilePlanned PROFILEs ragforge's statement; for a regex or glob scan,
// the candidate statement (PROFILE reads it to its end, where Execute
// stops once it has one match beyond the limit) plus the fetch step of
// the ids Execute keeps.
func profilePlanned(ctx context.Context, d neo4j.DriverWithContext, db string, st *planner.Statement) (string, int64, error) {
	plan, hits, err := peers.ProfileCypher(ctx, d, db, st.Cypher, st.Params)
	if err != nil || st.Fetch == nil {
		return plan, hits, err
	}
	sess := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: db, AccessMode: neo4j.AccessModeRead})
	defer sess.Close(ctx)
	kept, err := neo4j.ExecuteRead(ctx, sess, func(tx neo4j.ManagedTransaction) ([]any, error) { return scan(ctx, tx, st) })
	if err != nil {
		return "", 0, err
	}
	fplan, fhits, err := peers.ProfileCypher(ctx, d, db, st.Fetch.Cypher, fetchParams(st, kept))
	return plan + "    -- fetch step:\n" + fplan, hits + fhits, err
}

// Report is one run's result, as README.md quotes it.
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
			fmt.Fprintf(w, "| %s | – | – | – | – | – | – | – | ✗ %s |\n", wl.Key, firstLine(err.Error()))
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
		fmt.Fprintf(w, "| %s | %s |\n", wl.Key, wl.Name)
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

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }

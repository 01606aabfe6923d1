package peers

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ragforge/ragforge/engine"
)

// Timing is one workload's measurement: the median latency of each side.
type Timing struct {
	Workload Workload
	// Rows is the length of the answer (both sides return the same rows:
	// Check ran first).
	Rows int
	// Runs is how many timed runs each side had.
	Runs              int
	Ragforge, GraphQL time.Duration
	// LineCount says how ragforge's statement got line_count: read from
	// the materialized property, computed at query time, or not used.
	LineCount string
}

// Speedup is how many times faster ragforge answered: @neo4j/graphql's
// median over ragforge's.
func (t Timing) Speedup() float64 { return float64(t.GraphQL) / float64(t.Ragforge) }

// Measure times every workload n times on each side after warm untimed
// runs of each. ragforge is timed around engine.Execute in this process
// (validate, plan, read transaction, shape the result); @neo4j/graphql
// around graphql() in the Node process (parse, validate, translate, run,
// resolve). The sides alternate in blocks of a fifth of n, so a busy
// moment of the shared machine falls on both.
func Measure(ctx context.Context, e *engine.Engine, gql *GraphQL, ws []Workload, n, warm int) ([]Timing, error) {
	block := max(1, n/5)
	var out []Timing
	for _, w := range ws {
		t := Timing{Workload: w, Runs: n}
		rows, err := RagforgeRows(ctx, e, w)
		if err != nil {
			return nil, fmt.Errorf("%s: ragforge: %w", w.Key, err)
		}
		t.Rows = len(rows)
		if t.LineCount, err = lineCountUse(ctx, e, w); err != nil {
			return nil, err
		}
		if _, err := timeRagforge(ctx, e, w, warm); err != nil {
			return nil, err
		}
		if _, err := gql.Time(w, warm); err != nil {
			return nil, fmt.Errorf("%s: %w", w.Key, err)
		}
		var rf, gq []time.Duration
		for len(rf) < n {
			k := min(block, n-len(rf))
			ds, err := timeRagforge(ctx, e, w, k)
			if err != nil {
				return nil, err
			}
			rf = append(rf, ds...)
			if ds, err = gql.Time(w, k); err != nil {
				return nil, fmt.Errorf("%s: %w", w.Key, err)
			}
			gq = append(gq, ds...)
		}
		t.Ragforge, t.GraphQL = Median(rf), Median(gq)
		out = append(out, t)
	}
	return out, nil
}

func timeRagforge(ctx context.Context, e *engine.Engine, w Workload, n int) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		if _, err := e.Execute(ctx, w.Call); err != nil {
			return nil, fmt.Errorf("%s: ragforge: %w", w.Key, err)
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

// lineCountUse says how ragforge's statement for w gets line_count.
func lineCountUse(ctx context.Context, e *engine.Engine, w Workload) (string, error) {
	st, err := e.Plan(ctx, w.Call)
	if err != nil {
		return "", fmt.Errorf("%s: ragforge: %w", w.Key, err)
	}
	for _, u := range st.Uses {
		if u.Computed && u.Field == "line_count" {
			if u.Materialized {
				return "stored (materialized, indexed)", nil
			}
			return "computed per query", nil
		}
	}
	return "not used", nil
}

// Median is the middle of ds (the mean of the two middle ones when even).
func Median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Report is one run's result, written as the markdown docs/performance.md quotes.
type Report struct {
	Scale Scale
	// Graph describes the loaded fixture (nodes per label).
	Graph    string
	Setup    *Setup
	Versions map[string]string
	Timings  []Timing
	// Command is the command that measured it.
	Command string
}

// Write renders the report: what ran, how ragforge was set up, then one
// table row per workload.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "scale %s: %s\n", r.Scale, r.Graph)
	keys := make([]string, 0, len(r.Versions))
	for k := range r.Versions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var vs []string
	for _, k := range keys {
		vs = append(vs, k+" "+r.Versions[k])
	}
	fmt.Fprintf(w, "peer: %s (graphql() in-process, default driver settings)\n", strings.Join(vs, ", "))
	for _, l := range r.Setup.Lines() {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "command: %s\n\n", r.Command)
	fmt.Fprintln(w, "| workload | rows | ragforge | @neo4j/graphql | ragforge speed-up | ragforge's line_count |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---|")
	for _, t := range r.Timings {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %.1f× | %s |\n", t.Workload.Name, t.Rows, Millis(t.Ragforge), Millis(t.GraphQL), t.Speedup(), t.LineCount)
	}
	if len(r.Timings) > 0 {
		fmt.Fprintf(w, "\nmedians of %d runs per side after warm-up; speed-up = @neo4j/graphql's median ÷ ragforge's\n", r.Timings[0].Runs)
	}
}

// Millis formats a latency in milliseconds with three significant digits.
func Millis(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	default:
		return fmt.Sprintf("%.2f ms", v)
	}
}

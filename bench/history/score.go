package history

import (
	"fmt"
	"io"
	"math"
	"time"
)

// Score compares recorded histories with the truth, declaration by
// declaration: links are (declaration, commit) pairs.
type Score struct {
	Decls, WithHistory        int
	TruthLinks, Recorded, Hit int
	// CountEqual and LatestEqual count the declarations whose number of
	// changes, and whose latest change's time, equal the truth's.
	CountEqual, LatestEqual int
	// Missing counts declarations with a true history and none recorded.
	Missing int
	// Older counts the true links missed that are older than the
	// declaration's oldest recorded change: git log -L going on past
	// where the import starts the declaration's history.
	Older int
}

// Compare scores recorded against truth over decls.
func Compare(decls []Decl, truth, recorded map[string][]Touch) Score {
	s := Score{Decls: len(decls)}
	for _, d := range decls {
		want, got := truth[d.UUID], recorded[d.UUID]
		if len(want) > 0 {
			s.WithHistory++
			if len(got) == 0 {
				s.Missing++
			}
		}
		in := map[string]bool{}
		for _, t := range want {
			in[t.Commit] = true
		}
		seen := map[string]bool{}
		var oldest time.Time
		for _, t := range got {
			if !seen[t.Commit] && in[t.Commit] {
				s.Hit++
			}
			seen[t.Commit] = true
			if oldest.IsZero() || t.At.Before(oldest) {
				oldest = t.At
			}
		}
		for _, t := range want {
			if !seen[t.Commit] && len(got) > 0 && t.At.Before(oldest) {
				s.Older++
			}
		}
		s.TruthLinks += len(in)
		s.Recorded += len(seen)
		if len(in) == len(seen) {
			s.CountEqual++
		}
		if latest(want).Equal(latest(got)) {
			s.LatestEqual++
		}
	}
	return s
}

func latest(ts []Touch) time.Time {
	var out time.Time
	for _, t := range ts {
		if t.At.After(out) {
			out = t.At
		}
	}
	return out
}

// Precision is the share of recorded links that are true.
func (s Score) Precision() float64 { return ratio(s.Hit, s.Recorded) }

// Recall is the share of true links recorded.
func (s Score) Recall() float64 { return ratio(s.Hit, s.TruthLinks) }

// ratio is a/b, NaN when b is 0 (nothing recorded, or no truth), which
// the table prints as NaN rather than a believable 1.
func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// Adjusted is the truth without the commits the adjustment drops.
func Adjusted(truth map[string][]Touch) map[string][]Touch {
	out := make(map[string][]Touch, len(truth))
	for id, ts := range truth {
		for _, t := range ts {
			if t.Drop == "" {
				out[id] = append(out[id], t)
			}
		}
	}
	return out
}

// Dropped counts, for each reason, the links of the truth the
// adjustment drops and how many of those recorded holds.
func Dropped(truth, recorded map[string][]Touch) map[string][2]int {
	out := map[string][2]int{}
	for id, ts := range truth {
		got := map[string]bool{}
		for _, t := range recorded[id] {
			got[t.Commit] = true
		}
		for _, t := range ts {
			if t.Drop != "" {
				n := out[t.Drop]
				n[0]++
				if got[t.Commit] {
					n[1]++
				}
				out[t.Drop] = n
			}
		}
	}
	return out
}

// Print writes the scores against git log -L (raw) and against the
// adjusted truth as the docs' table rows.
func Print(w io.Writer, raw, adj Score) {
	row := func(what, format string, f func(Score) []any) {
		fmt.Fprintf(w, "| %s | "+format+" | "+format+" |\n", append(append([]any{what}, f(raw)...), f(adj)...)...)
	}
	row("functions and methods (with a history)", "%d (%d)", func(s Score) []any { return []any{s.Decls, s.WithHistory} })
	row("links: true / recorded / both", "%d / %d / %d", func(s Score) []any { return []any{s.TruthLinks, s.Recorded, s.Hit} })
	row("precision", "%.4f", func(s Score) []any { return []any{s.Precision()} })
	row("recall", "%.4f", func(s Score) []any { return []any{s.Recall()} })
	row("change_count equal", "%.2f %% (%d)", func(s Score) []any { return []any{100 * ratio(s.CountEqual, s.Decls), s.CountEqual} })
	row("modified_at equal", "%.2f %% (%d)", func(s Score) []any { return []any{100 * ratio(s.LatestEqual, s.Decls), s.LatestEqual} })
	row("with a history, none recorded", "%d", func(s Score) []any { return []any{s.Missing} })
	row("true links missed: older than the oldest recorded change / within the recorded span", "%d / %d", func(s Score) []any { return []any{s.Older, s.TruthLinks - s.Hit - s.Older} })
}

package explore

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ragforge/ragforge/model"
)

// Salience weights. A node's degree weight grows with the log of its
// degree from degreeFloor (no edge) to 1 (the best connected candidate);
// a node of an entity with the recency field but no value in it counts
// as one half-life old.
const (
	degreeFloor      = 0.75
	missingAgeFactor = 1.0
	defaultHalfLife  = 30.0
)

// SalienceFormula says how salience is computed, for explanations.
const SalienceFormula = "salience = score × degree weight × recency weight; score is the node's best normalized source score (vector: cosine similarity; full-text: score / the term's best; name match: 1 exact, 0.8 to 1 a prefix, 0.6 to 0.8 a substring, more the more of the field it covers, under 0.5 a word within 1 or 2 edits); degree weight = 0.75 + 0.25 × ln(1+degree) / ln(1+highest candidate degree); recency weight = 0.5^(age in days / half-life), a missing date counting as one half-life"

// found is one raw score of a candidate from one source.
type found struct {
	source int
	raw    float64
}

// candidate is a node some source found, with what ranks it.
type candidate struct {
	id    string
	ent   int
	found []found
	// score is the best normalized score; scores the normalized score
	// of each kept source, for explanations.
	score  float64
	scores map[int]float64
	degree int64
	// recency is the raw recency value.
	recency                     any
	degreeW, recencyW, salience float64
}

// halfLife is the configured half-life in days (defaultHalfLife when
// unset).
func halfLife(ex *model.Explore) float64 {
	if ex.HalfLifeDays > 0 {
		return ex.HalfLifeDays
	}
	return defaultHalfLife
}

// recencyWeight is 0.5^(age / half-life) of a stored datetime of field f
// (1 for an entity without the field, one half-life's weight for a node
// without a value, 1 for a future date).
func recencyWeight(v any, f *model.Field, now time.Time, halfLifeDays float64) float64 {
	if f == nil {
		return 1
	}
	t, ok := timeOf(v, f.StoredAs)
	if !ok {
		return math.Pow(0.5, missingAgeFactor)
	}
	age := now.Sub(t).Hours() / 24
	if age <= 0 {
		return 1
	}
	return math.Pow(0.5, age/halfLifeDays)
}

// degreeWeight grows with the log of degree, relative to the best
// connected candidate.
func degreeWeight(degree, highest int64) float64 {
	if highest <= 0 {
		return 1
	}
	return degreeFloor + (1-degreeFloor)*math.Log1p(float64(degree))/math.Log1p(float64(highest))
}

// sourceStats counts one source's candidates for explanations.
type sourceStats struct {
	hits, dropped int
	best          float64
}

// rank scores the candidates: drops vector scores under their threshold
// (counted), normalizes each source, keeps each node's best score,
// weights it by degree and recency, and keeps the top of each entity in
// salience order. It returns the kept hits, best first, and each
// source's and entity's counts.
func (x *explorer) rank(cands []*candidate, srcs []*source, tops map[string]int, now time.Time) (kept []*candidate, stats []sourceStats, perEntity map[int]int) {
	stats = make([]sourceStats, len(srcs))
	for _, c := range cands {
		for _, f := range c.found {
			s := srcs[f.source]
			if s.kind == kindVector && f.raw < s.minRaw {
				continue
			}
			stats[f.source].best = max(stats[f.source].best, f.raw)
		}
	}
	var live []*candidate
	var highest int64
	for _, c := range cands {
		c.ent, c.scores = -1, map[int]float64{}
		for _, f := range c.found {
			s := srcs[f.source]
			if s.kind == kindVector && f.raw < s.minRaw {
				stats[f.source].dropped++
				continue
			}
			stats[f.source].hits++
			n := s.normalize(f.raw, stats[f.source].best)
			c.scores[f.source] = max(c.scores[f.source], n)
			c.score = max(c.score, n)
			if i := slices.Index(x.ents, s.ent); c.ent < 0 || i < c.ent {
				c.ent = i
			}
		}
		if c.ent >= 0 {
			live = append(live, c)
			highest = max(highest, c.degree)
		}
	}
	hl := halfLife(x.m.Explore)
	for _, c := range live {
		c.degreeW = degreeWeight(c.degree, highest)
		c.recencyW = recencyWeight(c.recency, x.ents[c.ent].recency, now, hl)
		c.salience = c.score * c.degreeW * c.recencyW
	}
	slices.SortFunc(live, func(a, b *candidate) int {
		return cmp.Or(cmp.Compare(b.salience, a.salience), cmp.Compare(b.score, a.score), cmp.Compare(a.id, b.id))
	})
	perEntity = map[int]int{}
	for _, c := range live {
		perEntity[c.ent]++
		if perEntity[c.ent] <= tops[x.ents[c.ent].e.Name] {
			kept = append(kept, c)
		}
	}
	return kept, stats, perEntity
}

// why renders a kept hit's score parts.
func (x *explorer) why(c *candidate, srcs []*source) *Why {
	w := &Why{Degree: c.degree, DegreeWeight: round(c.degreeW), RecencyWeight: round(c.recencyW)}
	ids := make([]int, 0, len(c.scores))
	for i := range c.scores {
		ids = append(ids, i)
	}
	slices.Sort(ids)
	for _, i := range ids {
		w.Sources = append(w.Sources, fmt.Sprintf("%s: %.3f", srcs[i].label(), c.scores[i]))
	}
	return w
}

// round keeps 4 decimals, enough to compare and cheap to read.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

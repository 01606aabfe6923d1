package similar

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// scored is a candidate with its mode's score and, for the structural
// modes, its structural score.
type scored struct {
	c          *candidate
	score      float64
	structural float64
}

// rank scores the candidates for the call's mode and sorts them best
// first, ties by key. degree is the node's neighbour count, degrees the
// shared neighbours'.
func rank(a Args, degree int64, degrees map[string]int64, cands map[string]*candidate) []scored {
	var out []scored
	var bestSem, bestStruct float64
	for _, c := range cands {
		s := scored{c: c, structural: structuralScore(a.Measure, degree, degrees, c)}
		if c.semantic != nil {
			bestSem = max(bestSem, *c.semantic)
		}
		bestStruct = max(bestStruct, s.structural)
		out = append(out, s)
	}
	kept := out[:0]
	for _, s := range out {
		switch a.Mode {
		case Semantic:
			if s.c.semantic == nil {
				continue
			}
			s.score = *s.c.semantic
		case Structural:
			if len(s.c.shared) == 0 {
				continue
			}
			s.score = s.structural
		default:
			w := *a.SemanticWeight
			if s.c.semantic != nil && bestSem > 0 {
				s.score += w * *s.c.semantic / bestSem
			}
			if bestStruct > 0 {
				s.score += (1 - w) * s.structural / bestStruct
			}
		}
		kept = append(kept, s)
	}
	slices.SortFunc(kept, func(x, y scored) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return compareKeys(x.c.key, y.c.key)
	})
	return kept
}

// structuralScore is the candidate's Jaccard or Adamic–Adar score.
func structuralScore(measure string, degree int64, degrees map[string]int64, c *candidate) float64 {
	if len(c.shared) == 0 {
		return 0
	}
	if measure == AdamicAdar {
		var s float64
		for _, z := range c.shared {
			// A shared neighbour has the node and the candidate: at
			// least 2, so the logarithm is positive.
			if d := degrees[z]; d > 1 {
				s += 1 / math.Log(float64(d))
			}
		}
		return s
	}
	union := degree + c.degree - int64(len(c.shared))
	if union <= 0 {
		return 0
	}
	return float64(len(c.shared)) / float64(union)
}

// compareKeys orders unique-field values: numbers by value, anything else
// by its text.
func compareKeys(x, y any) int {
	if a, ok := x.(int64); ok {
		if b, ok := y.(int64); ok {
			return cmp.Compare(a, b)
		}
	}
	return cmp.Compare(fmt.Sprint(x), fmt.Sprint(y))
}

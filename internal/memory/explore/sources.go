package explore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragforge/ragforge/internal/cypher/lucene"
	"github.com/ragforge/ragforge/model"
)

// Candidate counts: each source fetches this many candidates per hit kept,
// within bounds, so reranking by salience has room to reorder. A vector
// index is shared by every tenant, so its nearest candidates are counted
// before the tenant filter.
const (
	candidateFactor = 10
	minCandidates   = 50
	maxCandidates   = 500
	// minWordLen is the shortest word of a text match that is matched on
	// its own (besides the whole text) by the name match.
	minWordLen = 3
)

// The kinds of source.
const (
	kindVector   = "vector"
	kindFullText = "fulltext"
	kindMatch    = "match"
)

// source is one search of a call: a query against one vector index, a
// text match through one full-text index, or the text matches against one
// entity's string fields. Its scores are normalized on their own.
type source struct {
	kind string
	ent  *entityInfo
	// index is the vector or full-text index searched.
	index string
	// text is what the agent asked (for explanations).
	text string
	// vector is the embedded query; minRaw the least raw index score
	// kept; cosine says the index's scores are (1 + cos) / 2.
	vector []float32
	minRaw float64
	cosine bool
	// lucene is the full-text query; terms the lower-cased texts the
	// match looks for, pairs their letter pairs (letterPairs).
	lucene string
	terms  []string
	pairs  []string
	limit  int
}

// label names a source in explanations.
func (s *source) label() string {
	switch s.kind {
	case kindVector, kindFullText:
		return fmt.Sprintf("%s %s %q", s.kind, s.index, s.text)
	}
	return fmt.Sprintf("%s %s.%s", s.kind, s.ent.e.Name, strings.Join(s.ent.textFields, "|"))
}

// candidates is how many candidates a source fetches for top hits.
func candidates(top int) int {
	return min(max(top*candidateFactor, minCandidates), maxCandidates)
}

// sources plans a call's searches, embedding each query once per vector
// index (once per model and size when indexes share them).
func (x *explorer) sources(ctx context.Context, a Args, tops map[string]int) ([]*source, error) {
	var out []*source
	type embedKey struct {
		text, model string
		dims        int
	}
	embedded := map[embedKey][]float32{}
	for qi, q := range a.Queries {
		threshold := DefaultThreshold
		if q.Threshold != nil {
			threshold = *q.Threshold
		}
		for _, ei := range x.ents {
			for _, vi := range ei.e.VectorIndexes {
				k := embedKey{q.Query, vi.Model, vi.Dimensions}
				vec, ok := embedded[k]
				if !ok {
					var err error
					if vec, err = x.env.Embedder.Embed(ctx, q.Query, vi); err != nil {
						return nil, fmt.Errorf("explore: embedding query %d for index %s: %w", qi, vi.Name, err)
					}
					if vi.Dimensions > 0 && len(vec) != vi.Dimensions {
						return nil, fmt.Errorf("explore: the embedder returned %d dimensions; index %s has %d", len(vec), vi.Name, vi.Dimensions)
					}
					embedded[k] = vec
				}
				s := &source{kind: kindVector, ent: ei, index: vi.Name, text: q.Query, vector: vec, limit: candidates(tops[ei.e.Name]), minRaw: threshold}
				if cosine(vi) {
					s.cosine, s.minRaw = true, (1+threshold)/2
				}
				out = append(out, s)
			}
		}
	}
	if len(a.TextMatches) == 0 {
		return out, nil
	}
	for _, ei := range x.ents {
		limit := candidates(tops[ei.e.Name])
		switch ei.text {
		case textFullText:
			for _, t := range a.TextMatches {
				out = append(out, &source{kind: kindFullText, ent: ei, index: ei.e.FullTextIndex.Name, text: t, lucene: luceneFuzzy(t), limit: limit})
			}
		case textFields:
			out = append(out, &source{kind: kindMatch, ent: ei, text: strings.Join(a.TextMatches, ", "), terms: matchTerms(a.TextMatches), pairs: letterPairs(a.TextMatches), limit: limit})
		}
	}
	return out, nil
}

// words lower-cases text and splits it into words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// luceneFuzzy is a text match as a full-text query: each word escaped and
// fuzzy by its length (as search engines' AUTO: exact up to 2 letters,
// one edit up to 5, two beyond), any word matching, more matches scoring
// higher.
func luceneFuzzy(text string) string {
	ws := words(text)
	terms := make([]string, len(ws))
	for i, w := range ws {
		terms[i] = lucene.Escape(w)
		switch n := utf8.RuneCountInString(w); {
		case n > 5:
			terms[i] += "~2"
		case n > 2:
			terms[i] += "~1"
		}
	}
	return strings.Join(terms, " ")
}

// matchTerms are the lower-cased texts the name match looks for: each
// text whole, and its words of minWordLen letters or more.
func matchTerms(texts []string) []string {
	var out []string
	add := func(s string) {
		for _, t := range out {
			if t == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, t := range texts {
		add(strings.ToLower(strings.TrimSpace(t)))
		for _, w := range words(t) {
			if utf8.RuneCountInString(w) >= minWordLen {
				add(w)
			}
		}
	}
	return out
}

// normalize puts a source's raw score on 0..1: cosine scores become the
// cosine similarity (negative is 0), euclidean ones stay as Neo4j gives
// them (1 / (1 + d²)), full-text scores are divided by the source's best,
// and the name match's score (matchScore) is already on 0..1.
func (s *source) normalize(raw, best float64) float64 {
	switch s.kind {
	case kindVector:
		if s.cosine {
			return max(0, 2*raw-1)
		}
		return raw
	case kindFullText:
		if best <= 0 {
			return 0
		}
		return raw / best
	}
	return min(raw, 1)
}

// param names a source's statement parameter.
func param(i int, name string) string { return "s" + strconv.Itoa(i) + "_" + name }

// cosine reports whether index vi compares by cosine (the default).
func cosine(vi *model.VectorIndex) bool { return vi.Similarity != "euclidean" }

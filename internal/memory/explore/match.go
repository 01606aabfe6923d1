package explore

import (
	"strings"
	"unicode/utf8"

	"github.com/hbollon/go-edlib"
)

// Name match without a full-text index. Neo4j reads the tenant's nodes of
// the entity and keeps the source's limit of them (candidates: 50 to 500)
// that share the most letter pairs with the text matches, their text
// fields lower-cased and cut to matchTextLen; Go scores those by
// matchScore. A letter pair survives any one edit elsewhere in a word, so
// a misspelt name still shares pairs with the stored one.
const (
	// matchTextLen bounds the characters of each field a candidate
	// brings back: names, not documents.
	matchTextLen = 200
	// Score bands: an exact value, a prefix, a substring (each higher the
	// more of the value the term covers), a word within edits.
	scoreExact     = 1.0
	scorePrefix    = 0.8
	scoreSubstring = 0.6
	scoreEdits     = 0.5
)

// maxEdits is the edit distance a word of n letters tolerates, as the
// full-text search's fuzzy terms do (luceneFuzzy): none up to 2 letters,
// one up to 5, two beyond; swapping two neighbouring letters is one edit.
func maxEdits(n int) int {
	switch {
	case n > 5:
		return 2
	case n > 2:
		return 1
	}
	return 0
}

// letterPairs are the distinct letter pairs of the texts' words (a
// one-letter word is itself), the prefilter the candidate statement
// counts.
func letterPairs(texts []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		for _, w := range words(t) {
			rs := []rune(w)
			for i := 0; i == 0 || i+1 < len(rs); i++ {
				g := string(rs[i:min(i+2, len(rs))])
				if !seen[g] {
					seen[g] = true
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// matchScore scores a candidate's lower-cased field values against the
// terms (matchTerms): the best of each term against each value, 0 when
// none matches. Exact and prefix matches rank above substrings, and
// those above a word within maxEdits.
func matchScore(terms, values []string) float64 {
	best := 0.0
	for _, t := range terms {
		tn := utf8.RuneCountInString(t)
		for _, v := range values {
			vn := utf8.RuneCountInString(v)
			if tn == 0 || vn == 0 {
				continue
			}
			cover := float64(tn) / float64(vn)
			switch {
			case v == t:
				return scoreExact
			case strings.HasPrefix(v, t):
				best = max(best, scorePrefix+(scoreExact-scorePrefix)*cover)
			case strings.Contains(v, t):
				best = max(best, scoreSubstring+(scorePrefix-scoreSubstring)*cover)
			default:
				best = max(best, editScore(t, v))
			}
		}
	}
	return best
}

// editScore is the best score of term t's words against value v's words
// within maxEdits (0 when none is close): scoreEdits × the share of the
// longer word left unedited, averaged over t's words, so every word of a
// term must be close to one of v's.
func editScore(t, v string) float64 {
	tw, vw := words(t), words(v)
	if len(tw) == 0 {
		return 0
	}
	sum := 0.0
	for _, a := range tw {
		an, allowed := utf8.RuneCountInString(a), maxEdits(utf8.RuneCountInString(a))
		wordBest := 0.0
		for _, b := range vw {
			bn := utf8.RuneCountInString(b)
			if bn-an > allowed || an-bn > allowed {
				continue
			}
			if d := edlib.OSADamerauLevenshteinDistance(a, b); d <= allowed {
				wordBest = max(wordBest, 1-float64(d)/float64(max(an, bn)))
			}
		}
		if wordBest == 0 {
			return 0
		}
		sum += wordBest
	}
	return scoreEdits * sum / float64(len(tw))
}

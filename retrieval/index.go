package retrieval

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// field is one indexed part of a Document. Fields are scored with different
// weights (BM25F) because a word in a tool's name says more about the tool
// than the same word in a parameter description.
type field int

const (
	fieldName field = iota
	fieldKeyword
	fieldDescription
	fieldExample
	fieldParameter
	numFields
)

// Signal names, as reported in a Selection: which fields of a tool matched.
const (
	SignalName        = "name"
	SignalKeyword     = "keyword"
	SignalDescription = "description"
	SignalExample     = "example"
	SignalParameter   = "parameter"
	// SignalAlways marks a tool that is in the selection because it is on
	// the always-include list.
	SignalAlways = "always"
	// SignalFill marks a tool added without any match, only to widen an
	// uncertain selection to the fallback size (fail-open).
	SignalFill = "fill"
)

var fieldSignals = [numFields]string{SignalName, SignalKeyword, SignalDescription, SignalExample, SignalParameter}

// FieldWeights gives one number per indexed field.
type FieldWeights struct {
	Name, Keyword, Description, Example, Parameter float64
}

func (w FieldWeights) array() [numFields]float64 {
	return [numFields]float64{w.Name, w.Keyword, w.Description, w.Example, w.Parameter}
}

// Scoring holds the BM25F constants and analysis switches of an Index. The
// defaults were tuned on the dev split of the public evaluation data only
// (see MEASUREMENTS.md); a catalog with unusual documents (say, only names
// and keywords) may do better with its own.
type Scoring struct {
	// Weight multiplies a field's term frequency: a word in a tool name
	// says more than the same word in a parameter description.
	Weight FieldWeights
	// B is BM25's length normalization per field (0: none, 1: full).
	B FieldWeights
	// K1 is BM25's term-frequency saturation.
	K1 float64
	// GramWeight scales the score of character n-gram matches relative
	// to whole-word matches.
	GramWeight float64
	// ArabicGrams indexes character trigrams of Arabic words; they find
	// sub-word matches the light stemmer misses.
	ArabicGrams bool
	// LatinGrams, when positive, also indexes character n-grams of that
	// length for words in other scripts (English).
	LatinGrams int
	// FeedbackDocs, FeedbackTerms and FeedbackWeight configure
	// pseudo-relevance feedback: the FeedbackTerms most characteristic
	// word terms of the FeedbackDocs best tools are added to the message
	// with weight FeedbackWeight (relative to a message term). Zero
	// FeedbackDocs turns it off.
	FeedbackDocs   int
	FeedbackTerms  int
	FeedbackWeight float64
}

// docTerm is one word term of a tool with its summed field-weighted
// frequency, for pseudo-relevance feedback.
type docTerm struct {
	text  string
	entry *termEntry
	tf    float64
}

// DefaultScoring returns the tuned defaults NewIndex uses.
func DefaultScoring() Scoring {
	return Scoring{
		Weight:         FieldWeights{Name: 3.0, Keyword: 2.5, Description: 1.0, Example: 1.5, Parameter: 0.6},
		B:              FieldWeights{Name: 0.3, Keyword: 0.5, Description: 0.9, Example: 0.75, Parameter: 0.75},
		K1:             2.0,
		GramWeight:     0.3,
		ArabicGrams:    true,
		FeedbackDocs:   3,
		FeedbackTerms:  20,
		FeedbackWeight: 0.2,
	}
}

// posting is one document's occurrence of a term: the weighted,
// length-normalized term frequency per field.
type posting struct {
	doc  int32
	comp [numFields]float32
}

// termEntry is a vocabulary term with its inverse document frequency.
type termEntry struct {
	text     string
	idf      float64
	gram     bool
	postings []posting
}

// Index is the searchable form of a tool catalog. Build it once with
// NewIndex; it is read-only afterwards and safe for concurrent Select calls.
type Index struct {
	docs     []Document
	byName   map[string]int
	terms    map[string]*termEntry
	an       *analyzer
	sc       Scoring
	tokens   []int
	totalTok int
	docTerms [][]docTerm
}

// NewIndex analyzes the documents and builds the inverted index. Names must be
// non-empty and unique: a selection names tools, so two tools with one name
// could not be told apart.
func NewIndex(docs []Document) (*Index, error) {
	return NewIndexWithScoring(docs, DefaultScoring())
}

// NewIndexWithScoring is NewIndex with explicit scoring constants, for
// catalogs that need their own tuning and for the tuning itself.
func NewIndexWithScoring(docs []Document, sc Scoring) (*Index, error) {
	ix := &Index{
		docs:   append([]Document(nil), docs...),
		byName: make(map[string]int, len(docs)),
		terms:  map[string]*termEntry{},
		an:     newAnalyzer(sc.ArabicGrams, sc.LatinGrams),
		sc:     sc,
		tokens: make([]int, len(docs)),
	}
	var problems []string
	for i, d := range ix.docs {
		if strings.TrimSpace(d.Name) == "" {
			problems = append(problems, fmt.Sprintf("document %d has no name", i))
			continue
		}
		if j, dup := ix.byName[d.Name]; dup {
			problems = append(problems, fmt.Sprintf("documents %d and %d are both named %q", j, i, d.Name))
			continue
		}
		ix.byName[d.Name] = i
	}
	if len(problems) > 0 {
		return nil, errors.New("retrieval index: " + strings.Join(problems, "; "))
	}

	// Term frequencies and lengths per document and field.
	type tfKey struct {
		term string
		doc  int32
	}
	tf := map[tfKey]*[numFields]float32{}
	gram := map[string]bool{}
	lengths := make([][numFields]float64, len(ix.docs))
	var total [numFields]float64
	for i, d := range ix.docs {
		for f, text := range fieldTexts(d) {
			terms := ix.an.analyze(text)
			for _, t := range terms {
				k := tfKey{t.text, int32(i)}
				e := tf[k]
				if e == nil {
					e = new([numFields]float32)
					tf[k] = e
				}
				e[f]++
				if t.gram {
					gram[t.text] = true
				}
			}
			lengths[i][f] = float64(len(terms))
			total[f] += float64(len(terms))
		}
		ix.tokens[i] = d.ApproxTokens()
		ix.totalTok += ix.tokens[i]
	}
	var avg [numFields]float64
	for f := range avg {
		avg[f] = max(total[f]/math.Max(float64(len(ix.docs)), 1), 1)
	}
	weight, b := sc.Weight.array(), sc.B.array()
	for k, counts := range tf {
		var p posting
		p.doc = k.doc
		for f := field(0); f < numFields; f++ {
			if counts[f] == 0 {
				continue
			}
			norm := 1 - b[f] + b[f]*lengths[k.doc][f]/avg[f]
			p.comp[f] = float32(weight[f] * float64(counts[f]) / norm)
		}
		e := ix.terms[k.term]
		if e == nil {
			e = &termEntry{text: k.term, gram: gram[k.term]}
			ix.terms[k.term] = e
		}
		e.postings = append(e.postings, p)
	}
	n := float64(len(ix.docs))
	ix.docTerms = make([][]docTerm, len(ix.docs))
	for _, e := range ix.terms {
		df := float64(len(e.postings))
		e.idf = math.Log(1 + (n-df+0.5)/(df+0.5))
		// Map iteration order is random; sort so that float sums, and so
		// scores, are identical from build to build.
		sortPostings(e.postings)
		if e.gram {
			continue
		}
		for _, p := range e.postings {
			var tf float64
			for _, c := range p.comp {
				tf += float64(c)
			}
			ix.docTerms[p.doc] = append(ix.docTerms[p.doc], docTerm{e.text, e, tf})
		}
	}
	for _, dts := range ix.docTerms {
		slices.SortFunc(dts, func(a, b docTerm) int { return strings.Compare(a.text, b.text) })
	}
	return ix, nil
}

func sortPostings(ps []posting) {
	slices.SortFunc(ps, func(a, b posting) int { return cmp.Compare(a.doc, b.doc) })
}

// fieldTexts returns the text of each field of d. Example notes are left out
// on purpose (see Example).
func fieldTexts(d Document) [numFields]string {
	var t [numFields]string
	t[fieldName] = d.Name
	t[fieldKeyword] = strings.Join(d.Keywords, " \n ")
	t[fieldDescription] = d.Category + " \n " + d.Description + " \n " + d.WhenToUse
	var ex []string
	for _, e := range d.Examples {
		ex = append(ex, e.User)
	}
	t[fieldExample] = strings.Join(ex, " \n ")
	var ps []string
	for _, p := range d.Parameters {
		ps = append(ps, p.Name, p.Description, strings.Join(p.Enum, " "))
	}
	t[fieldParameter] = strings.Join(ps, " \n ")
	return t
}

// Len is the number of tools in the index.
func (ix *Index) Len() int { return len(ix.docs) }

// Documents returns the indexed documents in the order given to NewIndex.
func (ix *Index) Documents() []Document { return append([]Document(nil), ix.docs...) }

// Document returns the document with the given name.
func (ix *Index) Document(name string) (Document, bool) {
	i, ok := ix.byName[name]
	if !ok {
		return Document{}, false
	}
	return ix.docs[i], true
}

// Tokens returns the approximate token cost of one tool's definition (see
// Document.ApproxTokens) and of the whole catalog, so callers can report the
// share of catalog tokens a selection delivers.
func (ix *Index) Tokens(name string) (tool, catalog int) {
	if i, ok := ix.byName[name]; ok {
		tool = ix.tokens[i]
	}
	return tool, ix.totalTok
}

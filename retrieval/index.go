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

// scoring holds the BM25F constants. They were tuned on the dev split of the
// public evaluation data only (see MEASUREMENTS.md).
type scoring struct {
	weight     [numFields]float64 // field weights
	b          [numFields]float64 // length normalization per field
	k1         float64            // term-frequency saturation
	gramWeight float64            // factor for character n-gram terms
}

var defaultScoring = scoring{
	weight:     [numFields]float64{3.0, 2.5, 1.0, 1.5, 0.5},
	b:          [numFields]float64{0.3, 0.5, 0.75, 0.75, 0.75},
	k1:         1.2,
	gramWeight: 0.3,
}

// posting is one document's occurrence of a term: the weighted,
// length-normalized term frequency per field.
type posting struct {
	doc  int32
	comp [numFields]float32
}

// termEntry is a vocabulary term with its inverse document frequency.
type termEntry struct {
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
	sc       scoring
	tokens   []int
	totalTok int
}

// NewIndex analyzes the documents and builds the inverted index. Names must be
// non-empty and unique: a selection names tools, so two tools with one name
// could not be told apart.
func NewIndex(docs []Document) (*Index, error) {
	return newIndex(docs, defaultScoring)
}

func newIndex(docs []Document, sc scoring) (*Index, error) {
	ix := &Index{
		docs:   append([]Document(nil), docs...),
		byName: make(map[string]int, len(docs)),
		terms:  map[string]*termEntry{},
		an:     newAnalyzer(),
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
	for k, counts := range tf {
		var p posting
		p.doc = k.doc
		for f := field(0); f < numFields; f++ {
			if counts[f] == 0 {
				continue
			}
			norm := 1 - sc.b[f] + sc.b[f]*lengths[k.doc][f]/avg[f]
			p.comp[f] = float32(sc.weight[f] * float64(counts[f]) / norm)
		}
		e := ix.terms[k.term]
		if e == nil {
			e = &termEntry{gram: gram[k.term]}
			ix.terms[k.term] = e
		}
		e.postings = append(e.postings, p)
	}
	n := float64(len(ix.docs))
	for _, e := range ix.terms {
		df := float64(len(e.postings))
		e.idf = math.Log(1 + (n-df+0.5)/(df+0.5))
		// Map iteration order is random; sort so that float sums, and so
		// scores, are identical from build to build.
		sortPostings(e.postings)
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

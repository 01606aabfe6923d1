package retrieval

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Fallback reasons: why a selection was widened to FallbackK. Together they
// are the precise meaning of "uncertain".
const (
	// ReasonNoSignal: no tool matched any term of the message.
	ReasonNoSignal = "no-signal"
	// ReasonWeak: the best tool matched less than MinCoverage of the
	// message's term weight.
	ReasonWeak = "weak"
	// ReasonFlat: the best tool left out (rank TopK+1) scored at least
	// FlatRatio times the best score, so the cut at TopK is arbitrary.
	ReasonFlat = "flat"
)

// Scored is one tool of a ranking: its BM25F score and the fields that
// matched.
type Scored struct {
	Name    string   `json:"name"`
	Score   float64  `json:"score"`
	Signals []string `json:"signals"`
	// Terms lists, per signal, the message terms that matched (n-grams
	// shown as ~gram); only filled when Options.Debug is set.
	Terms map[string][]string `json:"terms,omitempty"`
}

// Selection is the answer for one message: the tools to hand to the agent,
// best first (score descending, then name), and whether the fallback widened
// it.
type Selection struct {
	Selected []Scored `json:"selected"`
	Fallback bool     `json:"fallback"`
	// Reason is the uncertainty test that triggered the fallback.
	Reason string `json:"reason,omitempty"`
	// Coverage is the share of the message's term weight that the best
	// tool matched (0 when nothing matched).
	Coverage float64 `json:"coverage"`
}

// Names returns the selected tool names in order.
func (s Selection) Names() []string {
	names := make([]string, len(s.Selected))
	for i, t := range s.Selected {
		names[i] = t.Name
	}
	return names
}

// WriteDebug prints the selection as a table: rank, score, name and the
// signals that fired (with matched terms when Debug was on). It is what
// `ragforge-plan select --debug` shows to explain a choice.
func (s Selection) WriteDebug(w io.Writer) error {
	status := "confident"
	if s.Fallback {
		status = "fallback (" + s.Reason + ")"
	}
	if _, err := fmt.Fprintf(w, "%d tools, %s, coverage %.2f\n", len(s.Selected), status, s.Coverage); err != nil {
		return err
	}
	for i, t := range s.Selected {
		sig := strings.Join(t.Signals, ",")
		if len(t.Terms) > 0 {
			var parts []string
			for _, name := range t.Signals {
				if terms := t.Terms[name]; len(terms) > 0 {
					parts = append(parts, name+"["+strings.Join(terms, " ")+"]")
				}
			}
			sig = strings.Join(parts, " ")
		}
		if _, err := fmt.Fprintf(w, "%3d %8.3f  %-32s %s\n", i+1, t.Score, t.Name, sig); err != nil {
			return err
		}
	}
	return nil
}

// queryTerm is a distinct term of a message found in the vocabulary.
type queryTerm struct {
	text  string
	entry *termEntry
}

// scores computes the BM25F score of every tool for the message, the query
// terms found in the vocabulary, and the message's total word-term weight.
// With pseudo-relevance feedback on (Scoring.FeedbackDocs > 0), a second
// pass adds the most characteristic word terms of the first pass's best
// tools, with a reduced weight: a message about "tunes" that finds music
// tools then also reaches a tool that only says "song".
//
// first is the first pass's scores (the same slice as scores when feedback is
// off): the uncertainty tests read it, because feedback amplifies whatever
// the first pass ranked highest and so hides a flat first pass.
func (ix *Index) scores(message string) (scores, first []float64, fired [][numFields]bool, qts []queryTerm, wordWeight float64) {
	seen := map[string]bool{}
	for _, t := range ix.an.analyze(message) {
		if seen[t.text] {
			continue
		}
		seen[t.text] = true
		e := ix.terms[t.text]
		if e == nil {
			continue
		}
		qts = append(qts, queryTerm{t.text, e})
		if !e.gram {
			wordWeight += e.idf
		}
	}
	scores = make([]float64, len(ix.docs))
	fired = make([][numFields]bool, len(ix.docs))
	for _, q := range qts {
		w := q.entry.idf
		if q.entry.gram {
			w *= ix.sc.GramWeight
		}
		ix.accumulate(scores, fired, q.entry, w)
	}
	first = scores
	if ix.sc.FeedbackDocs > 0 && ix.sc.FeedbackTerms > 0 && len(qts) > 0 {
		first = slices.Clone(scores)
		ix.feedback(scores, seen)
	}
	return scores, first, fired, qts, wordWeight
}

// accumulate adds one term's BM25F contribution, with weight w, to every
// tool that contains it; fired (when not nil) records the matching fields.
func (ix *Index) accumulate(scores []float64, fired [][numFields]bool, e *termEntry, w float64) {
	k1 := ix.sc.K1
	for _, p := range e.postings {
		var tf float64
		for f := field(0); f < numFields; f++ {
			if p.comp[f] > 0 {
				tf += float64(p.comp[f])
				if fired != nil {
					fired[p.doc][f] = true
				}
			}
		}
		scores[p.doc] += w * tf / (k1 + tf)
	}
}

// feedback is the second pass of pseudo-relevance feedback: it weighs the
// word terms of the FeedbackDocs best tools by their BM25F weight in each
// tool, scaled by that tool's share of the best score, and adds the
// FeedbackTerms heaviest terms not in the message with FeedbackWeight. An
// expansion term may reach a tool the message missed entirely, which is the
// point; such a tool reports no field signal, as no message term matched it.
func (ix *Index) feedback(scores []float64, inQuery map[string]bool) {
	order := ix.order(scores)
	if len(order) == 0 {
		return
	}
	if len(order) > ix.sc.FeedbackDocs {
		order = order[:ix.sc.FeedbackDocs]
	}
	best := scores[order[0]]
	weight := map[*termEntry]float64{}
	var cands []*termEntry
	k1 := ix.sc.K1
	for _, d := range order {
		share := scores[d] / best
		for _, dt := range ix.docTerms[d] {
			if inQuery[dt.text] {
				continue
			}
			if _, ok := weight[dt.entry]; !ok {
				cands = append(cands, dt.entry)
			}
			weight[dt.entry] += share * dt.entry.idf * dt.tf / (k1 + dt.tf)
		}
	}
	slices.SortFunc(cands, func(a, b *termEntry) int {
		if c := cmp.Compare(weight[b], weight[a]); c != 0 {
			return c
		}
		return strings.Compare(a.text, b.text)
	})
	if len(cands) > ix.sc.FeedbackTerms {
		cands = cands[:ix.sc.FeedbackTerms]
	}
	if len(cands) == 0 {
		return
	}
	top := weight[cands[0]]
	for _, e := range cands {
		ix.accumulate(scores, nil, e, ix.sc.FeedbackWeight*e.idf*weight[e]/top)
	}
}

// Rank returns up to n tools with a positive score for the message, best
// first, ties broken by name. It applies no fallback and no always-include
// list: it is the raw ranking that evaluation measures.
func (ix *Index) Rank(message string, n int) []Scored {
	scores, _, fired, _, _ := ix.scores(message)
	order := ix.order(scores)
	if n >= 0 && len(order) > n {
		order = order[:n]
	}
	out := make([]Scored, len(order))
	for i, d := range order {
		out[i] = ix.scored(d, scores, fired)
	}
	return out
}

// order returns the indexes of the tools with a positive score, sorted by
// score descending then name, which makes every ranking deterministic.
func (ix *Index) order(scores []float64) []int {
	var order []int
	for d, s := range scores {
		if s > 0 {
			order = append(order, d)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return strings.Compare(ix.docs[a].Name, ix.docs[b].Name)
	})
	return order
}

func (ix *Index) scored(d int, scores []float64, fired [][numFields]bool) Scored {
	s := Scored{Name: ix.docs[d].Name, Score: scores[d], Signals: []string{}}
	for f := field(0); f < numFields; f++ {
		if fired[d][f] {
			s.Signals = append(s.Signals, fieldSignals[f])
		}
	}
	return s
}

// Select chooses the tools for one message:
//
//  1. Every tool is scored (BM25F over name, keywords, description,
//     examples and parameters); tools with a positive score are ranked.
//  2. The ranking is uncertain when nothing matched (ReasonNoSignal), when
//     the best tool covers less than MinCoverage of the message's term
//     weight (ReasonWeak), or when the best tool left out (rank TopK+1)
//     scores at least FlatRatio of the best (ReasonFlat).
//  3. A certain ranking yields its TopK best tools, cut after the last
//     that scores MinScoreRatio of the best; an uncertain one its
//     FallbackK best, topped up in name order with unmatched tools if fewer
//     matched (fail-open: an agent with a superfluous tool does better than
//     one without the right tool).
//  4. The Always tools are added; unknown names are an error.
//  5. The hard cap MaxTools drops the lowest-ranked retrieved tools.
//
// The result is deterministic for a given index, message and options.
func (ix *Index) Select(message string, opts Options) (Selection, error) {
	o, err := opts.resolved()
	if err != nil {
		return Selection{}, err
	}
	always := make([]int, 0, len(o.Always))
	isAlways := map[int]bool{}
	for _, name := range o.Always {
		d, ok := ix.byName[name]
		if !ok {
			return Selection{}, fmt.Errorf("tool selection: always-include tool %q is not in the catalog", name)
		}
		if !isAlways[d] {
			isAlways[d] = true
			always = append(always, d)
		}
	}

	scores, first, fired, qts, wordWeight := ix.scores(message)
	order := ix.order(scores)
	firstOrder := order
	if len(first) > 0 && &first[0] != &scores[0] {
		firstOrder = ix.order(first)
	}
	var sel Selection
	if len(firstOrder) > 0 && wordWeight > 0 {
		top := firstOrder[0]
		var matched float64
		for _, q := range qts {
			if q.entry.gram {
				continue
			}
			if _, ok := slices.BinarySearchFunc(q.entry.postings, int32(top), func(p posting, d int32) int { return cmp.Compare(p.doc, d) }); ok {
				matched += q.entry.idf
			}
		}
		sel.Coverage = matched / wordWeight
	}
	switch {
	case len(order) == 0:
		sel.Reason = ReasonNoSignal
	case sel.Coverage < o.MinCoverage:
		sel.Reason = ReasonWeak
	case len(firstOrder) > o.TopK && first[firstOrder[o.TopK]] >= o.FlatRatio*first[firstOrder[0]]:
		sel.Reason = ReasonFlat
	}
	sel.Fallback = sel.Reason != ""

	k := o.TopK
	if sel.Fallback {
		k = o.FallbackK
	}
	k = min(k, o.MaxTools-len(always))
	var picked []int
	fill := map[int]bool{}
	for _, d := range order {
		if len(picked) >= k || !sel.Fallback && scores[d] < o.MinScoreRatio*scores[order[0]] {
			break
		}
		if !isAlways[d] {
			picked = append(picked, d)
		}
	}
	if sel.Fallback && len(picked) < k {
		taken := map[int]bool{}
		for _, d := range picked {
			taken[d] = true
		}
		rest := make([]int, 0, len(ix.docs))
		for d := range ix.docs {
			if !taken[d] && !isAlways[d] {
				rest = append(rest, d)
			}
		}
		slices.SortFunc(rest, func(a, b int) int { return strings.Compare(ix.docs[a].Name, ix.docs[b].Name) })
		for _, d := range rest {
			if len(picked) >= k {
				break
			}
			picked = append(picked, d)
			fill[d] = true
		}
	}
	all := append(picked, always...)
	slices.SortFunc(all, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return strings.Compare(ix.docs[a].Name, ix.docs[b].Name)
	})
	var matchedTerms []map[string][]string
	if o.Debug {
		matchedTerms = ix.matchedTerms(all, qts)
	}
	sel.Selected = make([]Scored, len(all))
	for i, d := range all {
		s := ix.scored(d, scores, fired)
		if isAlways[d] {
			s.Signals = append(s.Signals, SignalAlways)
		}
		if fill[d] {
			s.Signals = append(s.Signals, SignalFill)
		}
		if o.Debug {
			s.Terms = matchedTerms[i]
		}
		sel.Selected[i] = s
	}
	return sel, nil
}

// matchedTerms lists, for each selected tool, which message terms matched in
// which field; only computed for debug output.
func (ix *Index) matchedTerms(docs []int, qts []queryTerm) []map[string][]string {
	out := make([]map[string][]string, len(docs))
	for i, d := range docs {
		m := map[string][]string{}
		for _, q := range qts {
			j, ok := slices.BinarySearchFunc(q.entry.postings, int32(d), func(p posting, d int32) int { return cmp.Compare(p.doc, d) })
			if !ok {
				continue
			}
			label := q.text
			if q.entry.gram {
				label = "~" + strings.TrimPrefix(q.text, gramPrefix)
			}
			for f := field(0); f < numFields; f++ {
				if q.entry.postings[j].comp[f] > 0 {
					m[fieldSignals[f]] = append(m[fieldSignals[f]], label)
				}
			}
		}
		out[i] = m
	}
	return out
}

package retrievaleval

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/ragforge/ragforge/internal/tokens"
	"github.com/ragforge/ragforge/retrieval"
)

// Result holds the figures for one data set, split and language.
//
//   - RecallAt1/5/12: share of messages whose correct tools are all within
//     the first k of the raw ranking (Index.Rank: no fallback, no
//     always-include).
//   - MRR: mean of 1/r, where r is the rank at which the last correct tool
//     appears (0 when one is not ranked at all); for single-tool messages,
//     the usual MRR.
//   - SelectionRecall: share of messages whose correct tools are all in the
//     actual Selection (TopK, widened by the fallback when uncertain) — what
//     an agent really gets.
//   - FallbackRate: share of selections that the fallback widened.
//   - MeanSelected: mean number of tools selected.
//   - TokenShare: mean, over messages, of the selected tools' tokens
//     divided by the whole catalog's: o200k_base tokens (internal/tokens)
//     of each tool's compact JSON definition (Document.Definition), what
//     an LLM reads of it.
//   - P50/P99: latency of Index.Select per message, analysis included.
type Result struct {
	DataSet         string        `json:"dataset"`
	Split           string        `json:"split"`
	Language        string        `json:"language"`
	Tools           int           `json:"tools"`
	Messages        int           `json:"messages"`
	RecallAt1       float64       `json:"recall_at_1"`
	RecallAt5       float64       `json:"recall_at_5"`
	RecallAt12      float64       `json:"recall_at_12"`
	MRR             float64       `json:"mrr"`
	SelectionRecall float64       `json:"selection_recall"`
	FallbackRate    float64       `json:"fallback_rate"`
	MeanSelected    float64       `json:"mean_selected"`
	TokenShare      float64       `json:"token_share"`
	P50             time.Duration `json:"p50_ns"`
	P99             time.Duration `json:"p99_ns"`
}

// Run builds the data set's index and measures every case of the split.
func Run(ds DataSet, split string, opts retrieval.Options) (Result, error) {
	ix, err := retrieval.NewIndex(ds.Docs)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", ds.Name, err)
	}
	return RunIndex(ix, ds, split, opts)
}

// RunIndex is Run on an index already built from ds.Docs.
func RunIndex(ix *retrieval.Index, ds DataSet, split string, opts retrieval.Options) (Result, error) {
	res := Result{DataSet: ds.Name, Split: split, Language: ds.Language, Tools: ix.Len()}
	tok, total, err := definitionTokens(ds.Docs)
	if err != nil {
		return res, err
	}
	var lat []time.Duration
	for _, c := range ds.Cases {
		if c.Split != split {
			continue
		}
		for _, w := range c.Want {
			if _, ok := ix.Document(w); !ok {
				return res, fmt.Errorf("%s: answer %q is not in the catalog", ds.Name, w)
			}
		}
		res.Messages++
		start := time.Now()
		sel, err := ix.Select(c.Message, opts)
		lat = append(lat, time.Since(start))
		if err != nil {
			return res, err
		}
		ranking := ix.Rank(c.Message, -1)
		r := lastRank(ranking, c.Want)
		if r > 0 {
			res.MRR += 1 / float64(r)
			for k, dst := range map[int]*float64{1: &res.RecallAt1, 5: &res.RecallAt5, 12: &res.RecallAt12} {
				if r <= k {
					*dst++
				}
			}
		}
		names := sel.Names()
		found := true
		for _, w := range c.Want {
			found = found && slices.Contains(names, w)
		}
		if found {
			res.SelectionRecall++
		}
		if sel.Fallback {
			res.FallbackRate++
		}
		res.MeanSelected += float64(len(names))
		selected := 0
		for _, n := range names {
			selected += tok[n]
		}
		if total > 0 {
			res.TokenShare += float64(selected) / float64(total)
		}
	}
	if res.Messages == 0 {
		return res, nil
	}
	n := float64(res.Messages)
	for _, v := range []*float64{&res.RecallAt1, &res.RecallAt5, &res.RecallAt12, &res.MRR, &res.SelectionRecall, &res.FallbackRate, &res.MeanSelected, &res.TokenShare} {
		*v /= n
	}
	slices.Sort(lat)
	res.P50 = percentile(lat, 0.50)
	res.P99 = percentile(lat, 0.99)
	return res, nil
}

// definitionTokens counts the o200k_base tokens of each document's
// compact JSON definition, by name, and of all of them.
func definitionTokens(docs []retrieval.Document) (map[string]int, int, error) {
	byName := make(map[string]int, len(docs))
	total := 0
	for _, d := range docs {
		b, err := json.Marshal(d.Definition())
		if err != nil {
			return nil, 0, err
		}
		n, err := tokens.Count(string(b))
		if err != nil {
			return nil, 0, err
		}
		byName[d.Name] = n
		total += n
	}
	return byName, total, nil
}

// lastRank is the 1-based rank of the lowest-ranked correct tool, or 0 when
// some correct tool is not ranked.
func lastRank(ranking []retrieval.Scored, want []string) int {
	last := 0
	for _, w := range want {
		i := slices.IndexFunc(ranking, func(s retrieval.Scored) bool { return s.Name == w })
		if i < 0 {
			return 0
		}
		last = max(last, i+1)
	}
	return last
}

// percentile uses the nearest-rank method on sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/ragforge/ragforge/internal/retrievaleval"
	"github.com/ragforge/ragforge/mcpserver"
	"github.com/ragforge/ragforge/retrieval"
)

// evalReport is `ragforge-plan eval-retrieval --format json`.
type evalReport struct {
	Data    string                 `json:"data"`
	Split   string                 `json:"split"`
	Options retrieval.Options      `json:"options"`
	Results []retrievaleval.Result `json:"results"`
	// Latency1000 is Select's latency on a 1,000-tool catalog pooled from
	// all data sets, queried with the split's messages of all data sets.
	Latency1000 latencyReport `json:"latency_1000_tools"`
}

type latencyReport struct {
	Tools    int           `json:"tools"`
	Messages int           `json:"messages"`
	P50      time.Duration `json:"p50_ns"`
	P99      time.Duration `json:"p99_ns"`
}

func runEvalRetrieval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("eval-retrieval", stderr,
		"usage: ragforge-plan eval-retrieval [--data DIR] [--split dev|test] [--search-tools] [--format text|json]",
	)
	data := fs.String("data", "", "evaluation data folder (default: the copy vendored at "+retrievaleval.DataPath+" in the repository)")
	split := fs.String("split", retrievaleval.SplitDev, "split to measure: dev (tune on it) or test (report it)")
	search := fs.Bool("search-tools", false, "measure serve's search_tools selection (5 tools, the score cut) instead of select's (12, 20 when uncertain)")
	format := formatFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if *split != retrievaleval.SplitDev && *split != retrievaleval.SplitTest {
		fmt.Fprintf(stderr, "ragforge-plan eval-retrieval: unknown --split %q (allowed: dev, test)\n", *split)
		return 2
	}
	dir := *data
	if dir == "" {
		var err error
		if dir, err = retrievaleval.DefaultDataDir(); err != nil {
			fmt.Fprintf(stderr, "ragforge-plan eval-retrieval: %v\n", err)
			return 2
		}
	}
	base := retrieval.DefaultOptions()
	if *search {
		base = mcpserver.DefaultSearchOptions()
	}
	opts, err := retrieval.OverrideFromEnv(base)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan eval-retrieval: %v\n", err)
		return 2
	}
	sets, err := retrievaleval.LoadAll(dir)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan eval-retrieval: %v\n", err)
		return 1
	}
	report := evalReport{Data: dir, Split: *split, Options: opts}
	for _, ds := range sets {
		if ctx.Err() != nil {
			return 130
		}
		r, err := retrievaleval.Run(ds, *split, opts)
		if err != nil {
			fmt.Fprintf(stderr, "ragforge-plan eval-retrieval: %v\n", err)
			return 1
		}
		report.Results = append(report.Results, r)
	}
	pool := retrievaleval.PooledCatalog(sets, retrievaleval.LatencyCatalogSize)
	ix, err := retrieval.NewIndex(pool)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan eval-retrieval: %v\n", err)
		return 1
	}
	msgs := retrievaleval.Messages(sets, *split)
	p50, p99, err := retrievaleval.Latency(ix, msgs, opts)
	if err != nil {
		fmt.Fprintf(stderr, "ragforge-plan eval-retrieval: %v\n", err)
		return 1
	}
	report.Latency1000 = latencyReport{Tools: len(pool), Messages: len(msgs), P50: p50, P99: p99}
	if *format == "json" {
		return writeJSON("eval-retrieval", stdout, stderr, report)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "data set\tsplit\tlang\ttools\tmsgs\tR@1\tR@5\tR@12\tMRR\tsel.recall\tfallback\tmean k\ttokens\tp50\tp99\t")
	for _, r := range report.Results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.1f\t%.3f\t%v\t%v\t\n",
			r.DataSet, r.Split, r.Language, r.Tools, r.Messages, r.RecallAt1, r.RecallAt5, r.RecallAt12, r.MRR,
			r.SelectionRecall, r.FallbackRate, r.MeanSelected, r.TokenShare, r.P50.Round(100), r.P99.Round(100))
	}
	if err := tw.Flush(); err != nil {
		return 1
	}
	fmt.Fprintf(stdout, "\nlatency on a %d-tool pooled catalog over %d messages: p50 %v, p99 %v\n",
		report.Latency1000.Tools, report.Latency1000.Messages, p50.Round(100), p99.Round(100))
	fmt.Fprintf(stdout, "\nR@k: correct tools within the first k of the ranking; sel.recall: within the actual selection (top-k %d, fallback %d, score cut %g);\n"+
		"tokens: mean share of catalog tokens delivered (o200k tokens of each tool's JSON definition); p50/p99: Select latency.\n", opts.TopK, opts.FallbackK, opts.MinScoreRatio)
	return 0
}

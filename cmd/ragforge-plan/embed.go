package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"golang.org/x/term"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/embed"
)

// embedReport is `ragforge-plan embed --format json`.
type embedReport struct {
	OK      bool                `json:"ok"`
	Indexes []embed.IndexReport `json:"indexes"`
	Error   string              `json:"error,omitempty"`
}

// runEmbed computes the vectors of a config's vector indexes for the nodes
// that lack one or whose text changed since (`ragforge-plan embed`), so
// semantic_search and find_similar work on a graph loaded by other means
// than the write tools.
func runEmbed(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("embed", stderr,
		"usage: ragforge-plan embed CONFIG... [--field Entity.field]... --embedder offline|openai [--batch N] [--quiet] [--format text|json] [--uri URI --user U --password-file F --database DB]",
		"  embeds every vector index's field for the nodes without a vector or whose text changed since (a stored hash),",
		"  one batch per write transaction: a killed run resumes where it stopped",
	)
	var fields stringList
	fs.Var(&fields, "field", "embed only this `Entity.field` (repeatable; default: every vector index)")
	batch := fs.Int("batch", embed.DefaultBatchSize, "nodes per batch: one embeddings request and one write transaction")
	quiet := fs.Bool("quiet", false, "no progress bar (there is none either when stderr is not a terminal)")
	format := formatFlag(fs)
	conn := addConnectionFlags(fs)
	ef := addEmbedderFlags(fs)
	configs, ok := parseConfigs(fs, args)
	if !ok {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "ragforge-plan embed: %v\n", err)
		return 1
	}
	if *batch < 1 {
		return fail(fmt.Errorf("--batch must be at least 1"))
	}
	m, err := config.Load(configs...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if _, err := embed.Targets(m, fields); err != nil {
		return fail(err)
	}
	emb, err := ef.build(m)
	if err != nil {
		return fail(err)
	}
	if emb == nil {
		return fail(fmt.Errorf("embed needs an embedder: give --embedder offline or --embedder openai (the one the server's queries use)"))
	}
	d, err := conn.open(ctx)
	if err != nil {
		return fail(err)
	}
	defer d.Close(context.Background())
	opts := embed.Options{Database: conn.database, Embedder: emb, Fields: fields, BatchSize: *batch}
	if f, ok := stderr.(*os.File); ok && !*quiet && term.IsTerminal(int(f.Fd())) {
		opts.Progress = stderr
	}
	rep, err := embed.Run(ctx, d, m, opts)
	out := embedReport{OK: err == nil}
	if rep != nil {
		out.Indexes = rep.Indexes
	}
	if err != nil {
		out.Error = err.Error()
	}
	code := 0
	if *format == "json" {
		code = writeJSON("embed", stdout, stderr, out)
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "index\tnodes\tembedded\tcurrent\tempty\tcleared\tseconds\tnodes/s\t")
		for _, r := range out.Indexes {
			rate := 0.0
			if r.Seconds > 0 {
				rate = float64(r.Nodes) / r.Seconds
			}
			fmt.Fprintf(tw, "%s.%s (%s)\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.0f\t\n", r.Entity, r.Field, r.Index, r.Nodes, r.Embedded, r.Current, r.Empty, r.Cleared, r.Seconds, rate)
		}
		tw.Flush()
	}
	if err != nil {
		return fail(err)
	}
	return code
}

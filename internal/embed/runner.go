package embed

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/schollz/progressbar/v3"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/internal/cypher/ident"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
)

// runner fills one vector index.
type runner struct {
	d    neo4j.DriverWithContext
	opts Options
	t    Target
	rep  IndexReport
	// Quoted identifiers, from the model only.
	label, text, vector, hash string
}

// stored is what a batch reads of one node.
type stored struct {
	id, text, hash string
	hasVector      bool
}

func (r *runner) run(ctx context.Context) error {
	start := time.Now()
	defer func() { r.rep.Seconds = time.Since(start).Seconds() }()
	var err error
	if r.label, err = ident.Quote(r.t.Entity.Name); err != nil {
		return err
	}
	if r.text, err = ident.Quote(r.t.Index.Field); err != nil {
		return err
	}
	if r.vector, err = ident.Quote(r.t.Index.VectorProperty()); err != nil {
		return err
	}
	if r.hash, err = ident.Quote(r.t.Index.HashProperty()); err != nil {
		return err
	}
	ids, err := r.ids(ctx)
	if err != nil {
		return err
	}
	r.rep.Nodes = len(ids)
	bar := r.bar(len(ids))
	for len(ids) > 0 {
		n := min(r.opts.BatchSize, len(ids))
		if err := r.batch(ctx, ids[:n]); err != nil {
			return err
		}
		ids = ids[n:]
		if bar != nil {
			_ = bar.Add(n)
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	return nil
}

// ids lists the element ids of the label's nodes: the run's fixed work
// list, a few tens of bytes a node.
func (r *runner) ids(ctx context.Context) ([]string, error) {
	out, err := neo4jtx.Read(ctx, r.d, r.opts.Database, r.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, "MATCH (n:"+r.label+") RETURN elementId(n) AS id", nil)
		if err != nil {
			return nil, err
		}
		var ids []string
		for res.Next(ctx) {
			id, _ := res.Record().Values[0].(string)
			ids = append(ids, id)
		}
		return ids, res.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("listing the %s nodes: %w", r.t.Entity.Name, err)
	}
	ids, _ := out.([]string)
	return ids, nil
}

// batch reads the nodes of ids, embeds those whose vector is missing or
// stale and writes their vectors and hashes in one write transaction,
// which also clears the vectors of nodes whose text is gone.
func (r *runner) batch(ctx context.Context, ids []string) error {
	nodes, err := r.read(ctx, ids)
	if err != nil {
		return err
	}
	var todo []stored
	var texts, cleared []string
	for _, n := range nodes {
		switch {
		case strings.TrimSpace(n.text) == "":
			r.rep.Empty++
			if n.hasVector || n.hash != "" {
				cleared = append(cleared, n.id)
			}
		case n.hasVector && n.hash == embedder.TextHash(r.t.Index, n.text):
			r.rep.Current++
		default:
			todo = append(todo, n)
			texts = append(texts, n.text)
		}
	}
	if len(todo) == 0 && len(cleared) == 0 {
		return nil
	}
	var vecs [][]float32
	if len(texts) > 0 {
		if vecs, err = embedder.EmbedAll(ctx, r.opts.Embedder, texts, r.t.Index); err != nil {
			return err
		}
	}
	rows := make([]map[string]any, len(todo))
	for i, n := range todo {
		rows[i] = map[string]any{"id": n.id, "vector": vecs[i], "hash": embedder.TextHash(r.t.Index, n.text)}
	}
	if err := r.write(ctx, rows, cleared); err != nil {
		return err
	}
	r.rep.Embedded += len(rows)
	r.rep.Cleared += len(cleared)
	r.rep.Batches++
	return nil
}

// read returns the text, hash and vector presence of the nodes of ids that
// still exist.
func (r *runner) read(ctx context.Context, ids []string) ([]stored, error) {
	q := "UNWIND $ids AS id\nMATCH (n:" + r.label + ") WHERE elementId(n) = id\n" +
		"RETURN id, n." + r.text + " AS text, n." + r.hash + " AS hash, n." + r.vector + " IS NOT NULL AS has"
	out, err := neo4jtx.Read(ctx, r.d, r.opts.Database, r.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		res, err := tx.Run(ctx, q, map[string]any{"ids": ids})
		if err != nil {
			return nil, err
		}
		var nodes []stored
		for res.Next(ctx) {
			v := res.Record().Values
			n := stored{}
			n.id, _ = v[0].(string)
			// A text of another type is no text to embed.
			n.text, _ = v[1].(string)
			n.hash, _ = v[2].(string)
			n.hasVector, _ = v[3].(bool)
			nodes = append(nodes, n)
		}
		return nodes, res.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading a batch: %w", err)
	}
	nodes, _ := out.([]stored)
	return nodes, nil
}

// write stores the rows' vectors (as the float arrays vector indexes read,
// through db.create.setNodeVectorProperty) and hashes, and removes the
// vectors and hashes of the cleared nodes, in one transaction.
func (r *runner) write(ctx context.Context, rows []map[string]any, cleared []string) error {
	vector := r.t.Index.VectorProperty()
	set := "UNWIND $rows AS row\nMATCH (n:" + r.label + ") WHERE elementId(n) = row.id\n" +
		"CALL db.create.setNodeVectorProperty(n, $vector, row.vector)\nSET n." + r.hash + " = row.hash"
	clear := "UNWIND $cleared AS id\nMATCH (n:" + r.label + ") WHERE elementId(n) = id\n" +
		"REMOVE n." + r.vector + ", n." + r.hash
	_, err := neo4jtx.Write(ctx, r.d, r.opts.Database, r.opts.Timeout, func(tx neo4j.ManagedTransaction) (any, error) {
		for _, st := range []struct {
			q string
			p map[string]any
		}{{set, map[string]any{"rows": rows, "vector": vector}}, {clear, map[string]any{"cleared": cleared}}} {
			res, err := tx.Run(ctx, st.q, st.p)
			if err != nil {
				return nil, err
			}
			if _, err := res.Consume(ctx); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	if err != nil {
		return fmt.Errorf("writing a batch: %w", err)
	}
	return nil
}

// bar returns the index's progress bar, nil without opts.Progress.
func (r *runner) bar(total int) *progressbar.ProgressBar {
	if r.opts.Progress == nil {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(r.opts.Progress),
		progressbar.OptionSetDescription(r.t.String()),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("nodes"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(250*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(r.opts.Progress) }),
	)
}

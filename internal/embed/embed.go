package embed

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/model"
)

// Defaults of [Options].
const (
	// DefaultBatchSize is how many nodes one batch reads, embeds and
	// writes: one embeddings request and one write transaction.
	DefaultBatchSize = 100
	// DefaultTimeout bounds each transaction.
	DefaultTimeout = 60 * time.Second
)

// Options choose what Run embeds and how.
type Options struct {
	// Database is the Neo4j database ("" for the server's default).
	Database string
	// Embedder makes the vectors; it must be the one queries are embedded
	// with, or the vectors are not comparable.
	Embedder embedder.Embedder
	// Fields narrows the run to these "Entity.field" texts (every vector
	// index over them); none embeds every vector index of the model.
	Fields []string
	// BatchSize is how many nodes a batch holds (DefaultBatchSize if 0).
	BatchSize int
	// Timeout bounds each transaction (DefaultTimeout if 0).
	Timeout time.Duration
	// Progress receives a progress bar per index (nodes, rate, ETA); nil
	// shows none.
	Progress io.Writer
}

// Target is one vector index to fill: its entity and the index.
type Target struct {
	Entity *model.Entity
	Index  *model.VectorIndex
}

// String names the target as --field does, with its index.
func (t Target) String() string {
	return fmt.Sprintf("%s.%s (%s)", t.Entity.Name, t.Index.Field, t.Index.Name)
}

// IndexReport counts what a run did for one vector index.
type IndexReport struct {
	Entity string `json:"entity"`
	Field  string `json:"field"`
	Index  string `json:"index"`
	// Nodes is how many nodes of the label the run listed.
	Nodes int `json:"nodes"`
	// Embedded nodes got a new vector; Current ones had the vector of
	// their text already; Empty ones have no text to embed; Cleared ones
	// lost a vector whose text is gone.
	Embedded int `json:"embedded"`
	Current  int `json:"current"`
	Empty    int `json:"empty"`
	Cleared  int `json:"cleared"`
	// Batches is how many write transactions were committed.
	Batches int `json:"batches"`
	// Seconds is how long the index took.
	Seconds float64 `json:"seconds"`
}

// Report is what a run did, index by index, up to where it stopped.
type Report struct {
	Indexes []IndexReport `json:"indexes"`
}

// Targets returns the vector indexes the fields name ("Entity.field",
// every index over that field), or every vector index of m for none, in
// config order. An unknown entity or a field no index covers is an error
// naming the valid choices.
func Targets(m *model.Model, fields []string) ([]Target, error) {
	var all []Target
	var choices []string
	for _, e := range m.Entities {
		for _, vi := range e.VectorIndexes {
			all = append(all, Target{Entity: e, Index: vi})
			if c := e.Name + "." + vi.Field; len(choices) == 0 || choices[len(choices)-1] != c {
				choices = append(choices, c)
			}
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("embed: the config declares no vector index (vector_indexes on an entity), so there is nothing to embed")
	}
	if len(fields) == 0 {
		return all, nil
	}
	var out []Target
	for _, f := range fields {
		entity, field, ok := strings.Cut(f, ".")
		found := false
		for _, t := range all {
			if ok && t.Entity.Name == entity && t.Index.Field == field {
				out = appendNew(out, t)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("embed: --field %q is not a vector-indexed field (fields: %s)", f, strings.Join(choices, ", "))
		}
	}
	return out, nil
}

// appendNew appends t unless out holds it (a field named twice).
func appendNew(out []Target, t Target) []Target {
	for _, o := range out {
		if o.Index == t.Index {
			return out
		}
	}
	return append(out, t)
}

// Run embeds, for every target of opts.Fields, the nodes whose vector is
// missing or stale, batch by batch. It stops at the first error (the
// embedder's, a wrong dimension, the database's, ctx's) and returns the
// report of what was saved before it with the error.
func Run(ctx context.Context, d neo4j.DriverWithContext, m *model.Model, opts Options) (*Report, error) {
	if opts.Embedder == nil {
		return nil, fmt.Errorf("embed: no embedder: choose one (--embedder offline or openai)")
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	targets, err := Targets(m, opts.Fields)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	for _, t := range targets {
		r := &runner{d: d, opts: opts, t: t, rep: IndexReport{Entity: t.Entity.Name, Field: t.Index.Field, Index: t.Index.Name}}
		err := r.run(ctx)
		rep.Indexes = append(rep.Indexes, r.rep)
		if err != nil {
			return rep, fmt.Errorf("embed: %s: %w (%d nodes saved in %d batches before it; run again to resume)", t, err, r.rep.Embedded+r.rep.Cleared, r.rep.Batches)
		}
	}
	return rep, nil
}

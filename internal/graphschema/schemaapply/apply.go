package schemaapply

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/schollz/progressbar/v3"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/internal/graphschema/introspect"
)

// DefaultWait bounds the wait for new indexes to come online.
const DefaultWait = 30 * time.Minute

// Options says where Apply writes and how it reports.
type Options struct {
	// Database is the Neo4j database ("" for the server's default).
	Database string
	// Wait bounds the wait for indexes to come online (DefaultWait if zero).
	Wait time.Duration
	// Progress, when not nil, receives a line per created item and a
	// progress bar while indexes populate.
	Progress io.Writer
}

// Action is what Apply did with an item.
type Action string

// The actions of Apply.
const (
	// Created: the index or constraint did not exist and now does.
	Created Action = "created"
	// Exists: it, or an equivalent under the name Outcome.Existing, was
	// already there.
	Exists Action = "exists"
	// Conflict: something else holds the name or the definition; see
	// Outcome.Problem.
	Conflict Action = "conflict"
)

// Outcome is what Apply did for one item and the state the index ended in.
type Outcome struct {
	Item
	Action Action `json:"action"`
	// Existing names the index or constraint that provides the item (its
	// own name once created).
	Existing string `json:"existing,omitempty"`
	// State is the index's state when Apply returned (ONLINE once waited).
	State   string `json:"state,omitempty"`
	Problem string `json:"problem,omitempty"`
}

// Apply creates what the items declare and is missing, then waits until
// every index they use is online. Conflicts do not stop the others; the
// returned error says how many there were (and wraps a failure to talk to
// Neo4j, or an index that failed to populate).
func Apply(ctx context.Context, d neo4j.DriverWithContext, items []Item, opts Options) ([]Outcome, error) {
	if opts.Wait <= 0 {
		opts.Wait = DefaultWait
	}
	var out []Outcome
	conflicts := 0
	for _, it := range items {
		s, err := introspect.ReadIndexes(ctx, d, opts.Database)
		if err != nil {
			return out, err
		}
		o := Outcome{Item: it}
		name, err := existing(s, it)
		switch {
		case err != nil:
			o.Action, o.Problem = Conflict, err.Error()
			conflicts++
		case name != "":
			o.Action, o.Existing = Exists, name
		default:
			err := create(ctx, d, opts.Database, it)
			var nerr *neo4j.Neo4jError
			switch {
			case errors.As(err, &nerr) && strings.Contains(nerr.Code, ".Schema."):
				// The data refuses it (duplicate values under a uniqueness
				// constraint, …): the others can still be made.
				o.Action, o.Problem = Conflict, err.Error()
				conflicts++
			case err != nil:
				return out, err
			default:
				o.Action, o.Existing = Created, it.Name
				say(opts.Progress, "created %s\n", it)
			}
		}
		out = append(out, o)
	}
	if err := wait(ctx, d, opts, out); err != nil {
		return out, err
	}
	if conflicts > 0 {
		return out, fmt.Errorf("schemaapply: %d of %d item(s) conflict with the graph's schema", conflicts, len(items))
	}
	return out, nil
}

func say(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

func create(ctx context.Context, d neo4j.DriverWithContext, db string, it Item) error {
	stmt, params, err := statement(it)
	if err != nil {
		return err
	}
	_, err = neo4jtx.Query(ctx, d, db, neo4j.AccessModeWrite, stmt, params)
	if err != nil {
		return fmt.Errorf("schemaapply: creating %s: %w", it, err)
	}
	return nil
}

// wait polls the indexes of the outcomes (a constraint's is its owned
// index) until all are online, with a progress bar of their mean
// population; an index that fails is an error with Neo4j's reason.
func wait(ctx context.Context, d neo4j.DriverWithContext, opts Options, out []Outcome) error {
	var bar *progressbar.ProgressBar
	deadline := time.Now().Add(opts.Wait)
	for {
		s, err := introspect.ReadIndexes(ctx, d, opts.Database)
		if err != nil {
			return err
		}
		total, online, n := 0.0, 0, 0
		var failed []error
		for i := range out {
			o := &out[i]
			if o.Action == Conflict {
				continue
			}
			ix := index(s, o)
			if ix == nil {
				return fmt.Errorf("schemaapply: %s is not listed by SHOW INDEXES", o.Item)
			}
			o.State = ix.State
			n++
			total += ix.PopulationPercent
			switch ix.State {
			case "ONLINE":
				online++
			case "FAILED":
				failed = append(failed, fmt.Errorf("index %s failed: %s", ix.Name, ix.FailureMessage))
			}
		}
		if len(failed) > 0 {
			return fmt.Errorf("schemaapply: %w", errors.Join(failed...))
		}
		if online == n {
			if bar != nil {
				_ = bar.Finish()
			}
			return nil
		}
		if bar == nil && opts.Progress != nil {
			bar = progressbar.NewOptions(n*100,
				progressbar.OptionSetWriter(opts.Progress),
				progressbar.OptionSetDescription(fmt.Sprintf("populating %d index(es)", n-online)),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(250*time.Millisecond),
				progressbar.OptionSetWidth(30),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(opts.Progress) }))
		}
		if bar != nil {
			_ = bar.Set(int(total))
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("schemaapply: %d index(es) still populating after %v", n-online, opts.Wait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// index finds the outcome's index: by name, or, for a constraint, the
// index the constraint owns.
func index(s *introspect.Schema, o *Outcome) *introspect.Index {
	if ix := s.IndexNamed(o.Existing); ix != nil {
		return ix
	}
	for i := range s.Indexes {
		if s.Indexes[i].OwningConstraint == o.Existing {
			return &s.Indexes[i]
		}
	}
	return nil
}

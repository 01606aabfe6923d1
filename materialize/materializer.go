package materialize

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
)

// DefaultBatchSize is how many nodes one write transaction sets or clears
// (see MEASUREMENTS.md for how it was chosen).
const DefaultBatchSize = 10000

// DefaultIndexWait bounds the wait for a new index to come online.
const DefaultIndexWait = 30 * time.Minute

// WriteMethod is how apply writes values.
type WriteMethod string

// The write methods; materialize/MEASUREMENTS.md compares them
// (in-transactions wrote 2.3 times as many nodes per second).
const (
	// WriteInTransactions (the default) runs auto-commit statements of the
	// form MATCH (n:Label) … WHERE <stored value differs> CALL { SET … } IN
	// TRANSACTIONS OF N ROWS over chunks of the label (for progress), then
	// once over the whole label (so no node is missed whatever order the
	// chunks saw). Only nodes whose stored value differs from the runtime
	// value are written, so an interrupted apply resumes cheaply (written
	// nodes are compared, not rewritten) and a refresh writes only drift.
	WriteInTransactions WriteMethod = "in-transactions"
	// WriteUnwind reads the label's element ids once, then writes each batch
	// with UNWIND $ids … SET in its own transaction that also advances the
	// state's cursor: exact progress, and a resumed apply starts after the
	// last committed batch.
	WriteUnwind WriteMethod = "unwind"
)

// Options configure a [Materializer].
type Options struct {
	// Database is the Neo4j database ("" for the server's default).
	Database string
	// BatchSize is the nodes per write transaction (DefaultBatchSize).
	BatchSize int
	// Method is how values are written (WriteInTransactions if empty).
	Method WriteMethod
	// Progress receives a progress bar (rows, rate, ETA); nil shows none.
	Progress io.Writer
	// Owner names this process in the lock (DefaultOwner if empty).
	Owner string
	// LockStaleAfter is when another holder's lock may be taken over
	// (DefaultLockStaleAfter if zero).
	LockStaleAfter time.Duration
	// IndexWait bounds the wait for an index (DefaultIndexWait if zero).
	IndexWait time.Duration
	// Grace is how long apply and drop wait after taking a ready field out
	// of service (status building or dropping) before they change its
	// values, so every process's StateCache has re-read the state and
	// stopped reading the property. It must be at least the longest
	// StateCache Refresh in use. Zero means DefaultStateRefresh; negative
	// means no wait (a single process that invalidates its own cache).
	Grace time.Duration
	// Invalidate is called after every state change, so in-process
	// StateCaches see it at once (pass StateCache.Invalidate).
	Invalidate []func()
	// Now is the clock of the policy (time.Now if nil).
	Now func() time.Time
}

// Materializer applies materialization decisions for one model on one
// database. Every operation that writes takes the lock node first.
type Materializer struct {
	m      *model.Model
	cm     *computed.Model
	driver neo4j.DriverWithContext
	opts   Options
	// afterBatch, when set (tests), runs after each committed write batch;
	// an error stops the write as an interruption would.
	afterBatch func(rows int64) error
}

// New returns a materializer for the model cm was compiled from, on
// driver.
func New(cm *computed.Model, driver neo4j.DriverWithContext, opts Options) (*Materializer, error) {
	if driver == nil {
		return nil, errors.New("materialize: no Neo4j driver")
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.Method == "" {
		opts.Method = WriteInTransactions
	}
	if opts.Method != WriteUnwind && opts.Method != WriteInTransactions {
		return nil, fmt.Errorf("materialize: unknown write method %q (allowed: %s, %s)", opts.Method, WriteUnwind, WriteInTransactions)
	}
	if opts.Owner == "" {
		opts.Owner = DefaultOwner()
	}
	if opts.IndexWait <= 0 {
		opts.IndexWait = DefaultIndexWait
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Grace == 0 {
		opts.Grace = DefaultStateRefresh
	}
	return &Materializer{m: cm.Model(), cm: cm, driver: driver, opts: opts}, nil
}

// Plan reads the server's facts and decides every computed field.
func (x *Materializer) Plan(ctx context.Context, counts []Count) ([]*FieldPlan, error) {
	facts, err := ReadFacts(ctx, x.driver, x.opts.Database, x.m)
	if err != nil {
		return nil, err
	}
	return Plan(x.cm, counts, facts, x.opts.Now())
}

// Action is what an operation did to one field.
type Action struct {
	Entity string `json:"entity"`
	Name   string `json:"name"`
	// Did is materialized, refreshed, up-to-date, indexed (an up-to-date
	// field got its index), index dropped (index: false on an up-to-date
	// field), dropped, runtime or skipped.
	Did    string `json:"action"`
	Rows   int64  `json:"rows"`
	Reason string `json:"reason,omitempty"`
	// Seconds is the write's duration; NodesPerSecond its throughput.
	Seconds        float64 `json:"seconds,omitempty"`
	NodesPerSecond float64 `json:"nodes_per_second,omitempty"`
}

// selected reports whether ref is among only (all when only is empty).
func selected(only []model.FieldRef, ref model.FieldRef) bool {
	return len(only) == 0 || slices.Contains(only, ref)
}

// checkSelection rejects --field names that are neither in the config
// nor in a state node, with the valid choices.
func checkSelection(plans []*FieldPlan, states []FieldState, only []model.FieldRef) error {
	for _, ref := range only {
		ok := slices.ContainsFunc(plans, func(p *FieldPlan) bool { return p.Ref() == ref }) ||
			slices.ContainsFunc(states, func(s FieldState) bool { return s.Ref() == ref })
		if !ok {
			var valid []string
			for _, p := range plans {
				valid = append(valid, p.Entity+"."+p.Name)
			}
			return fmt.Errorf("materialize: %s.%s is not a computed field (computed fields: %v)", ref.Entity, ref.Field, valid)
		}
	}
	return nil
}

// locked runs fn holding the lock, with a context cancelled if the lock is
// lost; the lock is released whatever happens (a finally).
func (x *Materializer) locked(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	lock, err := AcquireLock(ctx, x.driver, x.opts.Database, "materialize", x.opts.Owner, x.opts.LockStaleAfter)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-lock.Lost():
			cancel()
		case <-ctx.Done():
		}
	}()
	defer func() {
		if rerr := lock.Release(); rerr != nil && err == nil {
			err = fmt.Errorf("materialize: releasing the lock: %w", rerr)
		}
		select {
		case <-lock.Lost():
			if err == nil {
				err = errors.New("materialize: the lock was taken over by another process")
			}
		default:
		}
	}()
	if err := x.ensureSchema(ctx); err != nil {
		return err
	}
	return fn(ctx)
}

func (x *Materializer) ensureSchema(ctx context.Context) error {
	_, err := neo4jtx.Query(ctx, x.driver, x.opts.Database, neo4j.AccessModeWrite, stateConstraint, nil)
	if err != nil {
		return fmt.Errorf("materialize: state constraint: %w", err)
	}
	return nil
}

func (x *Materializer) invalidate() {
	for _, f := range x.opts.Invalidate {
		f()
	}
}

// Apply carries out the plan under the lock: every field decided
// materialize is written (or resumed, or left alone when ready for the
// same hash), every field decided runtime that has a state is dropped.
// only, when not empty, restricts it to those fields.
func (x *Materializer) Apply(ctx context.Context, counts []Count, only []model.FieldRef) ([]Action, error) {
	var out []Action
	err := x.locked(ctx, func(ctx context.Context) error {
		facts, err := ReadFacts(ctx, x.driver, x.opts.Database, x.m)
		if err != nil {
			return err
		}
		plans, err := Plan(x.cm, counts, facts, x.opts.Now())
		if err != nil {
			return err
		}
		if err := checkSelection(plans, facts.States, only); err != nil {
			return err
		}
		var writes []*FieldPlan
		for _, p := range plans {
			if selected(only, p.Ref()) && p.Decision == Materialize {
				writes = append(writes, p)
			}
		}
		if err := x.checkReads(ctx, writes); err != nil {
			return err
		}
		for _, p := range plans {
			if !selected(only, p.Ref()) {
				continue
			}
			var a Action
			var err error
			switch {
			case p.Decision == Materialize:
				a, err = x.materialize(ctx, p, false)
			case p.State != nil:
				a, err = x.drop(ctx, *p.State)
			default:
				a = Action{Entity: p.Entity, Name: p.Name, Did: "runtime"}
			}
			a.Reason = p.Reason
			out = append(out, a)
			if err != nil {
				return err
			}
		}
		// States of fields no longer in the config: their values are
		// dropped when named with --field (never silently).
		for _, s := range facts.States {
			if len(only) > 0 && selected(only, s.Ref()) && !slices.ContainsFunc(plans, func(p *FieldPlan) bool { return p.Ref() == s.Ref() }) {
				a, err := x.drop(ctx, s)
				a.Reason = s.Entity + "." + s.Field + " is no longer in the config"
				out = append(out, a)
				if err != nil {
					return err
				}
			}
		}
		return nil
	})
	return out, err
}

// Refresh recomputes the stored values of fields that have a state
// (ready ones stay ready and readable meanwhile: values only get fresher).
// only, when not empty, restricts it to those fields.
func (x *Materializer) Refresh(ctx context.Context, only []model.FieldRef) ([]Action, error) {
	var out []Action
	err := x.locked(ctx, func(ctx context.Context) error {
		plans, err := x.Plan(ctx, nil)
		if err != nil {
			return err
		}
		if err := checkSelection(plans, nil, only); err != nil {
			return err
		}
		var writes []*FieldPlan
		for _, p := range plans {
			if selected(only, p.Ref()) && p.State != nil && p.State.Status != StatusDropping {
				writes = append(writes, p)
			}
		}
		if err := x.checkReads(ctx, writes); err != nil {
			return err
		}
		for _, p := range plans {
			if !selected(only, p.Ref()) {
				continue
			}
			if !slices.Contains(writes, p) {
				out = append(out, Action{Entity: p.Entity, Name: p.Name, Did: "skipped", Reason: "not materialized"})
				continue
			}
			a, err := x.materialize(ctx, p, true)
			out = append(out, a)
			if err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// Drop removes the stored values, the index and the state of every
// materialized field (or only the named ones, which may be fields no
// longer in the config). The planner stops reading a field before its
// first value is removed.
func (x *Materializer) Drop(ctx context.Context, only []model.FieldRef) ([]Action, error) {
	var out []Action
	err := x.locked(ctx, func(ctx context.Context) error {
		states, err := ReadStates(ctx, x.driver, x.opts.Database)
		if err != nil {
			return err
		}
		plans, err := Plan(x.cm, nil, nil, x.opts.Now())
		if err != nil {
			return err
		}
		if err := checkSelection(plans, states, only); err != nil {
			return err
		}
		for _, s := range states {
			if !selected(only, s.Ref()) {
				continue
			}
			a, err := x.drop(ctx, s)
			out = append(out, a)
			if err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

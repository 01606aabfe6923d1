package materialize

import (
	"context"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
)

// DefaultStateRefresh is how long a [StateCache] trusts what it read: one
// state query per interval instead of one per tool call. A drop or a new
// apply elsewhere is seen within this interval; in this process, Invalidate
// makes it immediate.
const DefaultStateRefresh = 30 * time.Second

// DefaultStateReadTimeout bounds one read of the state nodes, whatever the
// context of the tool call that needed it: a server that does not answer
// costs a call at most this long, after which the field is computed at
// runtime.
const DefaultStateReadTimeout = 5 * time.Second

// StateCacheOptions configure a [StateCache].
type StateCacheOptions struct {
	// Refresh is how long a read is trusted (DefaultStateRefresh if
	// zero). It must not exceed the Grace of the applies and drops that
	// change the states (Options.Grace).
	Refresh time.Duration
	// ReadTimeout bounds each read of the state nodes
	// (DefaultStateReadTimeout if zero).
	ReadTimeout time.Duration
	// OnError receives state read failures. The cache then keeps the last
	// good read while it is trusted, and after that answers that no field
	// is ready (everything at runtime, which is always correct) until a
	// read succeeds; a failed read is never taken for a valid state.
	OnError func(error)
	// Now is the clock (time.Now if nil).
	Now func() time.Time
}

// StateCache reads the state nodes on an interval and answers the
// engine's State hook (engine.Options.State) with the fields that are
// ready for this config: same expression hash, same property, status
// ready.
//
// No lock is held while the state nodes are read: one read runs at a time
// (later callers join it), with its own timeout. A read starts in the
// background when the trusted state is half its Refresh old, so callers
// holding a trusted state never wait for the network; only a caller with
// no trusted state (the first call, after Invalidate or after a read
// failed for longer than Refresh) waits for a read, at most ReadTimeout.
// A read's result counts from the moment it was sent, so a state is never
// trusted for longer than Refresh after the server said it.
type StateCache struct {
	hashes map[model.FieldRef]string
	props  map[model.FieldRef]string
	opts   StateCacheOptions
	// read reads the state nodes (ReadStates on the cache's database;
	// tests delay it).
	read func(ctx context.Context) ([]FieldState, error)

	mu    sync.Mutex
	state model.State
	// at is when the read that gave state was sent; trusted is false when
	// there is no such read for the current generation.
	at      time.Time
	trusted bool
	// gen counts Invalidate calls: a read sent before an invalidation is
	// not trusted after it.
	gen    uint64
	flight *stateRead
	// failedAt is when a read of generation failedGen last failed; the
	// next read waits retryAfter (so a down server is not asked once per
	// call).
	failedAt  time.Time
	failedGen uint64
}

// stateRead is one read of the state nodes under way; done closes when it
// has finished (and its result, if good, is in the cache).
type stateRead struct {
	gen  uint64
	done chan struct{}
}

// NewStateCache returns a cache for the computed fields cm compiled on
// driver's database db.
func NewStateCache(cm *computed.Model, driver neo4j.DriverWithContext, db string, opts StateCacheOptions) (*StateCache, error) {
	hashes, err := Hashes(cm)
	if err != nil {
		return nil, err
	}
	if opts.Refresh <= 0 {
		opts.Refresh = DefaultStateRefresh
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = DefaultStateReadTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &StateCache{hashes: hashes, props: properties(cm), opts: opts,
		read: func(ctx context.Context) ([]FieldState, error) { return ReadStates(ctx, driver, db) }}, nil
}

// properties maps every computed field to its cache property.
func properties(cm *computed.Model) map[model.FieldRef]string {
	out := map[model.FieldRef]string{}
	for _, e := range cm.Model().Entities {
		for _, f := range cm.Entity(e.Name).Fields {
			out[model.FieldRef{Entity: e.Name, Field: f.Config.Name}] = f.CacheProperty()
		}
	}
	return out
}

// State implements engine.Options.State. It never returns an error: when
// no read is trusted it answers that no field is ready (runtime
// everywhere), and read failures go to OnError.
func (c *StateCache) State(ctx context.Context) (model.State, error) {
	c.mu.Lock()
	if s, ok := c.trustedLocked(); ok {
		if c.opts.Now().Sub(c.at) >= c.opts.Refresh/2 {
			c.startLocked() // refresh ahead; this caller does not wait
		}
		c.mu.Unlock()
		return s, nil
	}
	r := c.startLocked()
	c.mu.Unlock()
	if r == nil {
		return model.State{}, nil
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		return model.State{}, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.trustedLocked(); ok {
		return s, nil
	}
	return model.State{}, nil
}

// trustedLocked returns the state when a read of the current generation
// gave it less than Refresh ago.
func (c *StateCache) trustedLocked() (model.State, bool) {
	if c.trusted && c.opts.Now().Sub(c.at) < c.opts.Refresh {
		return c.state, true
	}
	return nil, false
}

// retryAfter is how long after a failed read the next one is sent.
func (c *StateCache) retryAfter() time.Duration {
	return min(c.opts.ReadTimeout, c.opts.Refresh/2)
}

// startLocked returns the read of the current generation under way, or
// starts one; nil when the last read of this generation failed less than
// retryAfter ago.
func (c *StateCache) startLocked() *stateRead {
	if c.flight != nil && c.flight.gen == c.gen {
		return c.flight
	}
	if c.failedGen == c.gen && !c.failedAt.IsZero() && c.opts.Now().Sub(c.failedAt) < c.retryAfter() {
		return nil
	}
	r := &stateRead{gen: c.gen, done: make(chan struct{})}
	c.flight = r
	go c.run(r)
	return r
}

// run reads the state nodes with the cache's own timeout (not a caller's
// context: the read serves every caller) and keeps the result only when
// it succeeded and no Invalidate came after it was sent.
func (c *StateCache) run(r *stateRead) {
	defer close(r.done)
	sent := c.opts.Now()
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.ReadTimeout)
	states, err := c.read(ctx)
	cancel()
	c.mu.Lock()
	if c.flight == r {
		c.flight = nil
	}
	switch {
	case err != nil:
		c.failedAt, c.failedGen = c.opts.Now(), r.gen
	case r.gen == c.gen:
		c.state, c.at, c.trusted = ReadyState(states, c.hashes, c.props), sent, true
		c.failedAt = time.Time{}
	}
	c.mu.Unlock()
	if err != nil && c.opts.OnError != nil {
		c.opts.OnError(err)
	}
}

// Invalidate makes the cache distrust what it read: the next State call
// reads the state nodes again, and a read sent before this call is not
// trusted. Apply, refresh and drop call it for the caches they are given.
func (c *StateCache) Invalidate() {
	c.mu.Lock()
	c.gen++
	c.trusted = false
	c.mu.Unlock()
}

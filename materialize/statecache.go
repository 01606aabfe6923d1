package materialize

import (
	"context"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
)

// DefaultStateRefresh is how long a [StateCache] trusts what it read: one
// state query per interval instead of one per tool call. A drop or a new
// apply elsewhere is seen within this interval; in this process, Invalidate
// makes it immediate.
const DefaultStateRefresh = 30 * time.Second

// StateCacheOptions configure a [StateCache].
type StateCacheOptions struct {
	// Refresh is how long a read is reused (DefaultStateRefresh if zero).
	Refresh time.Duration
	// OnError receives state read failures. The cache then answers with
	// an empty state (everything at runtime, which is always correct)
	// instead of failing the tool call.
	OnError func(error)
	// Now is the clock (time.Now if nil).
	Now func() time.Time
}

// StateCache reads the state nodes on an interval and answers the
// engine's State hook (engine.Options.State) with the fields that are
// ready for this config: same expression hash, same property, status
// ready.
type StateCache struct {
	driver neo4j.DriverWithContext
	db     string
	hashes map[planner.FieldRef]string
	props  map[planner.FieldRef]string
	opts   StateCacheOptions

	mu    sync.Mutex
	state planner.State
	at    time.Time
	valid bool
}

// NewStateCache returns a cache for model m's computed fields on driver's
// database db.
func NewStateCache(m *model.Model, driver neo4j.DriverWithContext, db string, opts StateCacheOptions) (*StateCache, error) {
	compiled, err := computed.CompileModel(m)
	if err != nil {
		return nil, err
	}
	hashes, err := Hashes(compiled)
	if err != nil {
		return nil, err
	}
	if opts.Refresh <= 0 {
		opts.Refresh = DefaultStateRefresh
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &StateCache{driver: driver, db: db, hashes: hashes, props: properties(compiled), opts: opts}, nil
}

// properties maps every computed field to its cache property.
func properties(compiled map[string]*computed.Entity) map[planner.FieldRef]string {
	out := map[planner.FieldRef]string{}
	for name, ce := range compiled {
		for _, f := range ce.Fields {
			out[planner.FieldRef{Entity: name, Field: f.Config.Name}] = f.CacheProperty()
		}
	}
	return out
}

// State implements engine.Options.State. It never returns an error: a
// failed read yields an empty state (runtime everywhere) and goes to
// OnError.
func (c *StateCache) State(ctx context.Context) (planner.State, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.opts.Now()
	if c.valid && now.Sub(c.at) < c.opts.Refresh {
		return c.state, nil
	}
	states, err := ReadStates(ctx, c.driver, c.db)
	c.at, c.valid = now, true
	if err != nil {
		c.state = planner.State{}
		if c.opts.OnError != nil {
			c.opts.OnError(err)
		}
		return c.state, nil
	}
	c.state = ReadyState(states, c.hashes, c.props)
	return c.state, nil
}

// Invalidate makes the next State call read the state nodes again; apply,
// refresh and drop call it for the caches they are given.
func (c *StateCache) Invalidate() {
	c.mu.Lock()
	c.valid = false
	c.mu.Unlock()
}

package materialize

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// waitRead waits for the cache's read under way, if any.
func waitRead(c *StateCache) {
	c.mu.Lock()
	r := c.flight
	c.mu.Unlock()
	if r != nil {
		<-r.done
	}
}

func lineCountReady(s model.State) bool { return s.Ready("Scope", "line_count") }

// TestStateCacheReadsWithoutBlockingAndNeverTrustsAFailedRead proves the
// StateCache's contract on the real server: a failed read (the read's
// context times out) keeps the last ready state while it is trusted and is
// never taken for an empty valid state; past Refresh, or after Invalidate,
// a failing read leaves every field at runtime (never the old ready); a
// slow read does not make callers holding a trusted state wait; and a
// read gives up after its own timeout although the caller's context never
// ends.
func TestStateCacheReadsWithoutBlockingAndNeverTrustsAFailedRead(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	db := neo4jtest.Database()
	seedScopes(t, d, 40)
	m := scopeModel(model.Always)
	if _, err := newMaterializer(t, d, m).Apply(ctx, nil, []model.FieldRef{{Entity: "Scope", Field: "line_count"}}); err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: now}
	var failures atomic.Int64
	cache, err := NewStateCache(MustCompile(t, m), d, db, StateCacheOptions{Refresh: 30 * time.Second, ReadTimeout: 2 * time.Second, Now: clock.Now,
		OnError: func(error) { failures.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	real := cache.read
	var failing atomic.Bool
	// A failing read is a real read whose context has already timed out.
	cache.read = func(ctx context.Context) ([]FieldState, error) {
		if failing.Load() {
			ctx, cancel := context.WithTimeout(ctx, time.Nanosecond)
			defer cancel()
			time.Sleep(time.Millisecond)
			return real(ctx)
		}
		return real(ctx)
	}
	state := func() model.State {
		t.Helper()
		s, err := cache.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if !lineCountReady(state()) {
		t.Fatal("line_count is not ready after apply")
	}

	t.Run("a failed refresh keeps the trusted ready state, not an empty one", func(t *testing.T) {
		failing.Store(true)
		clock.Add(20 * time.Second) // past Refresh/2: a read starts in the background
		if !lineCountReady(state()) {
			t.Fatal("the trusted state was not served while the refresh ran")
		}
		waitRead(cache)
		if failures.Load() == 0 {
			t.Fatal("the read did not fail")
		}
		if !lineCountReady(state()) {
			t.Error("a failed refresh replaced the ready state with an empty one")
		}
	})

	t.Run("past Refresh a failing read leaves the field at runtime", func(t *testing.T) {
		clock.Add(11 * time.Second) // the last good read is 31 s old
		if lineCountReady(state()) {
			t.Error("a state older than Refresh was trusted while reads fail")
		}
		failing.Store(false)
		clock.Add(5 * time.Second) // past the retry wait
		if !lineCountReady(state()) {
			t.Error("the cache did not recover once reads succeeded")
		}
	})

	t.Run("a slow read does not block callers holding a trusted state", func(t *testing.T) {
		release := make(chan struct{})
		cache.read = func(ctx context.Context) ([]FieldState, error) {
			<-release
			return real(ctx)
		}
		clock.Add(20 * time.Second)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				s, _ := cache.State(context.Background())
				if took := time.Since(start); took > 200*time.Millisecond || !lineCountReady(s) {
					t.Errorf("a caller with a trusted state waited %v (ready %v)", took, lineCountReady(s))
				}
			}()
		}
		wg.Wait()
		cache.mu.Lock()
		underWay := cache.flight != nil
		cache.mu.Unlock()
		if !underWay {
			t.Error("no read was under way: the test proved nothing")
		}
		close(release)
		waitRead(cache)
	})

	t.Run("a read gives up after its own timeout under a context that never ends", func(t *testing.T) {
		cache.opts.ReadTimeout = 300 * time.Millisecond
		cache.read = func(ctx context.Context) ([]FieldState, error) {
			select { // a server that does not answer
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Minute):
			}
			return real(ctx)
		}
		cache.Invalidate()
		before := failures.Load()
		start := time.Now()
		s, _ := cache.State(context.Background())
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("the read ran %v, past its 300ms timeout", took)
		}
		if lineCountReady(s) {
			t.Error("an unanswered read after Invalidate gave a ready state")
		}
		if failures.Load() == before {
			t.Error("the timed-out read was not reported")
		}
		cache.opts.ReadTimeout = 2 * time.Second
		cache.read = func(ctx context.Context) ([]FieldState, error) { return real(ctx) }
	})

	t.Run("after Invalidate a failing read never serves the old ready state", func(t *testing.T) {
		clock.Add(time.Minute)
		if !lineCountReady(state()) {
			t.Fatal("not ready before the change")
		}
		// What apply does before it rewrites values: building, then
		// Invalidate. The next read fails.
		neo4jtest.Run(t, d, "MATCH (s:_RagforgeMaterialization {field: 'line_count'}) SET s.status = 'building'", nil)
		failing.Store(true)
		cache.Invalidate()
		if lineCountReady(state()) {
			t.Error("the planner would read line_count while it is building")
		}
		failing.Store(false)
		clock.Add(5 * time.Second)
		if lineCountReady(state()) {
			t.Error("a building state was read as ready")
		}
	})
}

package materialize

import (
	"context"
	"sync"
	"time"

	"github.com/ragforge/ragforge/model"
)

// RecorderOptions configure a [Recorder].
type RecorderOptions struct {
	// FlushEvery flushes buffered counts in the background at this
	// interval; zero flushes only on Flush and Close.
	FlushEvery time.Duration
	// Now is the clock that picks the day bucket (time.Now if nil).
	Now func() time.Time
	// OnError receives background flush errors (they are otherwise
	// dropped: losing a few counts must never fail a tool call).
	OnError func(error)
}

// Recorder buffers field uses in memory and adds them to a Store in bulk.
// Its RecordUses method is engine.Options.RecordUses: it only takes a mutex
// and bumps a map entry, so a tool call never waits on the store. Only
// computed fields are counted (the policy decides nothing for stored ones).
type Recorder struct {
	store Store
	opts  RecorderOptions

	mu      sync.Mutex
	pending map[key]int64
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// NewRecorder returns a recorder that adds to store.
func NewRecorder(store Store, opts RecorderOptions) *Recorder {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	r := &Recorder{store: store, opts: opts, pending: map[key]int64{}}
	if opts.FlushEvery > 0 {
		r.stop, r.done = make(chan struct{}), make(chan struct{})
		go r.loop()
	}
	return r
}

func (r *Recorder) loop() {
	defer close(r.done)
	t := time.NewTicker(r.opts.FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), r.opts.FlushEvery)
			if err := r.Flush(ctx); err != nil && r.opts.OnError != nil {
				r.opts.OnError(err)
			}
			cancel()
		}
	}
}

// RecordUses counts one planned call's uses of computed fields, in today's
// bucket; tool is not part of the count.
func (r *Recorder) RecordUses(tool string, uses []model.Use) {
	day := Day(r.opts.Now())
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, u := range uses {
		if !u.Computed {
			continue
		}
		r.pending[key{Day: day, Entity: u.Entity, Field: u.Field, Kind: u.Kind}]++
	}
}

// Flush adds the buffered counts to the store. On failure they are put
// back, so the next flush retries them.
func (r *Recorder) Flush(ctx context.Context) error {
	r.mu.Lock()
	if len(r.pending) == 0 {
		r.mu.Unlock()
		return nil
	}
	p := r.pending
	r.pending = map[key]int64{}
	r.mu.Unlock()
	counts := flatten(p)
	if err := r.store.Add(ctx, counts); err != nil {
		r.mu.Lock()
		merge(r.pending, counts)
		r.mu.Unlock()
		return err
	}
	return nil
}

// Close stops the background flush and flushes what is left.
func (r *Recorder) Close(ctx context.Context) error {
	r.once.Do(func() {
		if r.stop != nil {
			close(r.stop)
			<-r.done
		}
	})
	return r.Flush(ctx)
}

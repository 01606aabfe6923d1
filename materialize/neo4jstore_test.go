package materialize

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

func TestNeo4jStoreAddsConcurrentIncrementsWithoutLosingAny(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each goroutine has its own store, as separate processes would.
			s, err := NewNeo4jStore(ctx, d, neo4jtest.Database())
			if err != nil {
				t.Error(err)
				return
			}
			for i := range 10 {
				counts := one("2026-06-01")
				if i%2 == 0 {
					counts = append(counts, Count{Day: "2026-06-02", Entity: "Scope", Field: "change_count", Kind: model.UseFilter, N: int64(g + 1)})
				}
				if err := s.Add(ctx, counts); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	s, _ := NewNeo4jStore(ctx, d, neo4jtest.Database())
	counts, err := s.Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != 2 || counts[0].N != 60 || counts[1].N != 5*(1+2+3+4+5+6) {
		t.Errorf("counts: %+v", counts)
	}
	if err := s.Add(ctx, []Count{{Day: "yesterday", Entity: "Scope", Field: "f", Kind: model.UseOrder, N: 1}}); err == nil {
		t.Error("a malformed day was accepted")
	}
}

func TestRecorderBuffersComputedUsesAndFlushesThemByDay(t *testing.T) {
	ctx := context.Background()
	day := time.Date(2026, 6, 1, 23, 59, 0, 0, time.UTC)
	store := NewMemoryStore(nil)
	r := NewRecorder(store, RecorderOptions{Now: func() time.Time { return day }})
	uses := []model.Use{
		{Entity: "Scope", Field: "line_count", Kind: model.UseOrder, Computed: true},
		{Entity: "Scope", Field: "name", Kind: model.UseFilter},
		{Entity: "Scope", Field: "line_count", Kind: model.UseProject, Computed: true},
	}
	r.RecordUses("query_entities", uses)
	r.RecordUses("query_entities", uses)
	day = day.Add(2 * time.Minute) // the next UTC day
	r.RecordUses("number_range_search", uses[:1])
	if n := total(t, store); n != 0 {
		t.Fatalf("counted %d before the flush", n)
	}
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	counts, _ := store.Counts(ctx)
	want := []Count{
		{Day: "2026-06-01", Entity: "Scope", Field: "line_count", Kind: model.UseOrder, N: 2},
		{Day: "2026-06-01", Entity: "Scope", Field: "line_count", Kind: model.UseProject, N: 2},
		{Day: "2026-06-02", Entity: "Scope", Field: "line_count", Kind: model.UseOrder, N: 1},
	}
	if len(counts) != len(want) {
		t.Fatalf("counts %+v", counts)
	}
	for i := range want {
		if counts[i] != want[i] {
			t.Errorf("count %d = %+v, want %+v", i, counts[i], want[i])
		}
	}
}

// failingStore fails its first Add.
type failingStore struct {
	*MemoryStore
	fails int
}

func (s *failingStore) Add(ctx context.Context, c []Count) error {
	if s.fails > 0 {
		s.fails--
		return context.DeadlineExceeded
	}
	return s.MemoryStore.Add(ctx, c)
}

func TestRecorderKeepsCountsWhenAFlushFails(t *testing.T) {
	s := &failingStore{MemoryStore: NewMemoryStore(nil), fails: 1}
	r := NewRecorder(s, RecorderOptions{})
	r.RecordUses("t", []model.Use{{Entity: "Scope", Field: "line_count", Kind: model.UseFilter, Computed: true}})
	if err := r.Flush(context.Background()); err == nil {
		t.Fatal("first flush should fail")
	}
	if err := r.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := total(t, s); n != 1 {
		t.Errorf("total %d, want 1", n)
	}
}

package materialize

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// Store keeps usage counts. Implementations add atomically: two processes
// adding to the same bucket at once both count. The engine never waits on
// a store (a [Recorder] buffers in between), so a slow store slows only the
// flush.
type Store interface {
	// Add adds each count's N to its bucket.
	Add(ctx context.Context, counts []Count) error
	// Counts returns every bucket.
	Counts(ctx context.Context) ([]Count, error)
}

// StatsVersion is the version of the JSON usage format; a file of another
// version is refused rather than misread.
const StatsVersion = 1

// Stats is the JSON form of usage counts: the file store's content, and
// what `ragforge-plan stats export` writes and `--stats FILE` reads.
type Stats struct {
	Version int     `json:"version"`
	Counts  []Count `json:"counts"`
}

// ReadStats decodes a JSON usage document and checks every count.
func ReadStats(r io.Reader) ([]Count, error) {
	var s Stats
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("materialize: reading usage JSON: %w", err)
	}
	if s.Version != StatsVersion {
		return nil, fmt.Errorf("materialize: usage JSON has version %d (this ragforge reads version %d)", s.Version, StatsVersion)
	}
	if err := validate(s.Counts); err != nil {
		return nil, err
	}
	m := map[key]int64{}
	merge(m, s.Counts)
	return flatten(m), nil
}

// WriteStats encodes counts as a JSON usage document, sorted by day,
// entity, field and kind.
func WriteStats(w io.Writer, counts []Count) error {
	m := map[key]int64{}
	merge(m, counts)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(Stats{Version: StatsVersion, Counts: flatten(m)})
}

// Import adds every count of a JSON usage document to a store (counts add
// up: importing the same export twice counts it twice).
func Import(ctx context.Context, s Store, r io.Reader) (int, error) {
	counts, err := ReadStats(r)
	if err != nil {
		return 0, err
	}
	return len(counts), s.Add(ctx, counts)
}

// Export writes a store's counts as a JSON usage document.
func Export(ctx context.Context, s Store, w io.Writer) error {
	counts, err := s.Counts(ctx)
	if err != nil {
		return err
	}
	return WriteStats(w, counts)
}

// MemoryStore is a Store held in memory: what `--stats FILE` reads into,
// and what tests use where durability does not matter.
type MemoryStore struct {
	m map[key]int64
}

// NewMemoryStore returns a store holding counts.
func NewMemoryStore(counts []Count) *MemoryStore {
	s := &MemoryStore{m: map[key]int64{}}
	merge(s.m, counts)
	return s
}

// Add implements Store. A MemoryStore is not safe for concurrent use.
func (s *MemoryStore) Add(_ context.Context, counts []Count) error {
	if err := validate(counts); err != nil {
		return err
	}
	merge(s.m, counts)
	return nil
}

// Counts implements Store.
func (s *MemoryStore) Counts(context.Context) ([]Count, error) { return flatten(s.m), nil }

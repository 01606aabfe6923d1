package materialize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// DefaultStorePath is where the CLI keeps usage counts when neither
// --stats-store nor RAGFORGE_STATS_STORE says otherwise: a file in the
// working directory's .ragforge/ (git-ignored), so counts stay with the
// project that produced them.
const DefaultStorePath = ".ragforge/usage.json"

// lockWait bounds how long an Add waits for another process's write; a
// write holds the lock for milliseconds, so a longer wait means a stuck
// process, reported rather than waited on forever.
const lockWait = 30 * time.Second

// FileStore keeps counts in one JSON file ([Stats]). Adds are safe for
// concurrent goroutines (a mutex) and processes (an flock on PATH.lock,
// via github.com/gofrs/flock), and survive a crash mid-write: the new
// content goes to a temporary file in the same directory, is fsynced and
// renamed over the old one (then the directory is fsynced), so a reader
// sees the old file or the new one, never a torn one.
type FileStore struct {
	path string
	mu   sync.Mutex
}

// NewFileStore returns the store at path; the file and its directory are
// created on the first Add.
func NewFileStore(path string) *FileStore { return &FileStore{path: path} }

// Path is the file the store writes.
func (s *FileStore) Path() string { return s.path }

// Add implements Store: read, add, write back, under both locks.
func (s *FileStore) Add(ctx context.Context, counts []Count) error {
	if err := validate(counts); err != nil {
		return err
	}
	if len(counts) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return fmt.Errorf("materialize: usage store directory: %w", err)
	}
	lk := flock.New(s.path + ".lock")
	lctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	ok, err := lk.TryLockContext(lctx, 5*time.Millisecond)
	if err != nil || !ok {
		return fmt.Errorf("materialize: locking usage store %s.lock: %v", s.path, errOr(err, "timed out"))
	}
	defer lk.Unlock()
	m := map[key]int64{}
	old, err := s.read()
	if err != nil {
		return err
	}
	merge(m, old)
	merge(m, counts)
	var buf bytes.Buffer
	if err := WriteStats(&buf, flatten(m)); err != nil {
		return err
	}
	return writeAtomic(s.path, buf.Bytes())
}

func errOr(err error, msg string) any {
	if err != nil {
		return err
	}
	return msg
}

// Counts implements Store. It needs no lock: the file is only ever
// replaced whole by rename.
func (s *FileStore) Counts(context.Context) ([]Count, error) { return s.read() }

func (s *FileStore) read() ([]Count, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("materialize: usage store: %w", err)
	}
	defer f.Close()
	counts, err := ReadStats(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.path, err)
	}
	return counts, nil
}

// writeAtomic replaces path with data: temp file, fsync, rename, fsync of
// the directory (so the rename itself survives a power cut).
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("materialize: usage store: %w", err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("materialize: writing usage store %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("materialize: writing usage store %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

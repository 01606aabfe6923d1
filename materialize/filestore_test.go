package materialize

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ragforge/ragforge/model"
)

func one(day string) []Count {
	return []Count{{Day: day, Entity: "Scope", Field: "line_count", Kind: model.UseOrder, N: 1}}
}

func total(t *testing.T, s Store) int64 {
	t.Helper()
	counts, err := s.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, c := range counts {
		n += c.N
	}
	return n
}

func TestFileStoreCountsEveryAddFromConcurrentGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "usage.json")
	s := NewFileStore(path)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				// Two stores on one file within one process conflict too.
				st := s
				if g%2 == 1 {
					st = NewFileStore(path)
				}
				if err := st.Add(context.Background(), one("2026-06-01")); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := total(t, s); n != 200 {
		t.Errorf("total %d, want 200", n)
	}
}

// TestHelperFileStoreProcess is not a test: the tests below run the test
// binary again as a child process that adds to a file store.
func TestHelperFileStoreProcess(t *testing.T) {
	path := os.Getenv("RAGFORGE_TEST_FILESTORE")
	if path == "" {
		t.Skip("helper process only")
	}
	n, _ := strconv.Atoi(os.Getenv("RAGFORGE_TEST_ADDS"))
	s := NewFileStore(path)
	for i := 0; n == 0 || i < n; i++ {
		if err := s.Add(context.Background(), one("2026-06-01")); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("added", i+1)
	}
}

func helper(t *testing.T, path string, adds int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperFileStoreProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RAGFORGE_TEST_FILESTORE="+path, "RAGFORGE_TEST_ADDS="+strconv.Itoa(adds))
	return cmd
}

func TestFileStoreCountsEveryAddFromConcurrentProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "usage.json")
	var cmds []*exec.Cmd
	for range 4 {
		c := helper(t, path, 30)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if n := total(t, NewFileStore(path)); n != 120 {
		t.Errorf("total %d, want 120", n)
	}
}

func TestFileStoreSurvivesAProcessKilledMidWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "usage.json")
	for round := range 3 {
		c := helper(t, path, 0) // adds until killed
		out, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		added := 0
		// Kill at a different point in each round, while it is writing.
		// The limit is checked before a line is read: a line read and
		// then not counted is an acknowledged add the check below would
		// miss (the store then holds two adds more, not at most one).
		for added < 20+round*7 && sc.Scan() {
			added++
		}
		_ = c.Process.Signal(syscall.SIGKILL)
		for sc.Scan() {
			added++
		}
		_ = c.Wait()
		// The file parses, and holds every acknowledged add (at most one
		// more: the add in flight may have been renamed into place before
		// the kill but not acknowledged).
		n := total(t, NewFileStore(path))
		data, _ := os.ReadFile(path)
		if !json.Valid(data) {
			t.Fatalf("round %d: file is not valid JSON after kill", round)
		}
		if n < int64(added) || n > int64(added)+1 {
			t.Errorf("round %d: total %d after %d acknowledged adds", round, n, added)
		}
		os.Remove(path)
	}
	// The lock file is reusable after a kill: another process adds at once.
	start := time.Now()
	if err := NewFileStore(path).Add(context.Background(), one("2026-06-02")); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("add after a killed writer took %v (lock not released by the kernel?)", d)
	}
}

func TestStatsJSONRoundTripsAndRejectsBadCounts(t *testing.T) {
	ctx := context.Background()
	src := NewMemoryStore([]Count{
		{Day: "2026-06-02", Entity: "Scope", Field: "line_count", Kind: model.UseOrder, N: 5},
		{Day: "2026-06-01", Entity: "Scope", Field: "line_count", Kind: model.UseFilter, N: 2},
	})
	path := filepath.Join(t.TempDir(), "export.json")
	f, _ := os.Create(path)
	if err := Export(ctx, src, f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	dst := NewFileStore(filepath.Join(t.TempDir(), "usage.json"))
	for range 2 {
		f, _ := os.Open(path)
		if _, err := Import(ctx, dst, f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	counts, _ := dst.Counts(ctx)
	if len(counts) != 2 || counts[0].Day != "2026-06-01" || counts[0].N != 4 || counts[1].N != 10 {
		t.Errorf("after importing twice: %+v", counts)
	}
	for _, bad := range []string{
		`{"version": 2, "counts": []}`,
		`{"version": 1, "counts": [{"day": "June 1", "entity": "Scope", "field": "f", "kind": "order", "n": 1}]}`,
		`{"version": 1, "counts": [{"day": "2026-06-01", "entity": "Scope", "field": "f", "kind": "sort", "n": 1}]}`,
		`{"version": 1, "counts": [], "extra": true}`,
		`{"version": 1, "counts": [{"day": "2026-06-01", "entity": "Scope", "field": "f", "kind": "order", "n": -3}]}`,
	} {
		if _, err := ReadStats(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestSummarizeCountsTheWindowAndTheLastSelectiveUse(t *testing.T) {
	now := time.Date(2026, 6, 10, 15, 0, 0, 0, time.UTC)
	counts := []Count{
		{Day: "2026-06-10", Entity: "Scope", Field: "line_count", Kind: model.UseOrder, N: 3},
		{Day: "2026-06-04", Entity: "Scope", Field: "line_count", Kind: model.UseFilter, N: 4},  // 7th day back: in
		{Day: "2026-06-03", Entity: "Scope", Field: "line_count", Kind: model.UseOrder, N: 100}, // 8th: out
		{Day: "2026-06-10", Entity: "Scope", Field: "line_count", Kind: model.UseProject, N: 9},
		{Day: "2026-05-01", Entity: "Scope", Field: "is_large", Kind: model.UseFilter, N: 1},
		{Day: "2026-06-09", Entity: "Scope", Field: "is_large", Kind: model.UseProject, N: 1},
	}
	u := Summarize(counts, 7*24*time.Hour, now)
	lc := u[model.FieldRef{Entity: "Scope", Field: "line_count"}]
	if lc.Order != 3 || lc.Filter != 4 || lc.Project != 9 || lc.Selective() != 7 || lc.LastUsed != "2026-06-10" || lc.WindowDays != 7 {
		t.Errorf("line_count: %+v", lc)
	}
	il := u[model.FieldRef{Entity: "Scope", Field: "is_large"}]
	if il.Selective() != 0 || il.LastUsed != "2026-05-01" {
		t.Errorf("is_large: %+v (a projection is not a selective use)", il)
	}
	if d := Summarize(counts, 12*time.Hour, now)[model.FieldRef{Entity: "Scope", Field: "line_count"}]; d.WindowDays != 1 || d.Order != 3 || d.Filter != 0 {
		t.Errorf("12h window: %+v", d)
	}
}

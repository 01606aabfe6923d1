package engine

import (
	"testing"
	"time"
)

// TestNextChunk: chunks double up to maxScanChunk, hold about maxScanBytes
// of text, fit the time left at the last chunk's rate, and never go below
// minScanChunk nor overflow.
func TestNextChunk(t *testing.T) {
	for _, c := range []struct {
		n, bytes   int
		took, left time.Duration
		want       int
	}{
		{1000, 10_000, 10 * time.Millisecond, 10 * time.Second, 2000},
		{40000, 400_000, 10 * time.Millisecond, 10 * time.Second, maxScanChunk},
		{1000, 2 << 20, 10 * time.Millisecond, 10 * time.Second, 2000},
		{2000, 8 << 20, 10 * time.Millisecond, 10 * time.Second, 1000},
		{4000, 40_000, 100 * time.Millisecond, 150 * time.Millisecond, 6000},
		{4000, 40_000, 100 * time.Millisecond, 0, minScanChunk},
		{4000, 40_000, time.Nanosecond, time.Hour, 8000},
		{100, 1 << 30, time.Millisecond, time.Second, minScanChunk},
	} {
		if got := nextChunk(c.n, c.bytes, c.took, c.left); got != c.want {
			t.Errorf("nextChunk(%d, %d, %v, %v) = %d, want %d", c.n, c.bytes, c.took, c.left, got, c.want)
		}
	}
}

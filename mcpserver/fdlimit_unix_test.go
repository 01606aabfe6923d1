//go:build unix

package mcpserver

import (
	"syscall"
	"testing"
)

// needOpenFiles raises the process's open-file soft limit to n if it is
// lower (Go raises it to the hard limit at start-up, so this matters only
// where that is not done), and skips when the hard limit is below n.
func needOpenFiles(t *testing.T, n uint64) {
	t.Helper()
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		t.Fatal(err)
	}
	if l.Cur >= n {
		return
	}
	if l.Max < n {
		t.Skipf("the open-file hard limit is %d; this test needs %d (raise it with ulimit -Hn)", l.Max, n)
	}
	old := l.Cur
	l.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		t.Fatal(err)
	}
	t.Logf("raised the open-file soft limit from %d to %d", old, n)
	t.Cleanup(func() {
		l.Cur = old
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
	})
}

//go:build unix

package mcpserver

import "syscall"

// openFileLimit returns the process's open-file limit (the soft one, which
// Go raises to the hard one at start-up), or 0 when unknown or unlimited.
func openFileLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil || l.Cur > 1<<31 {
		return 0
	}
	return l.Cur
}

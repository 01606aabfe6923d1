//go:build !unix

package mcpserver

// openFileLimit returns 0: this system has no open-file limit to read.
func openFileLimit() uint64 { return 0 }

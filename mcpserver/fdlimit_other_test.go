//go:build !unix

package mcpserver

import "testing"

// needOpenFiles does nothing: this system has no open-file limit to raise.
func needOpenFiles(*testing.T, uint64) {}

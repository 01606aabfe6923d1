package mcpserver

import (
	"os"
	"runtime/debug"
)

// DefaultGCPercent is the garbage collector's target serve runs with when
// the environment sets no GOGC: the heap may grow to five times the live
// heap between collections (Go's default is 100, twice). A call's garbage
// is short-lived and serve's live heap is small (the catalog, the search
// index, the driver's pool), so fewer collections cost little memory and
// a third of serve's CPU per call (bench/servecpu, docs/deploy.md).
// GOMEMLIMIT, when set, still bounds the heap: the collector runs sooner
// as the heap nears it.
const DefaultGCPercent = 400

// SetGCDefault sets the garbage collector's target to DefaultGCPercent
// unless GOGC is set: an operator's GOGC, off included, wins.
func SetGCDefault() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(DefaultGCPercent)
	}
}

package engine

// CallError exposes callError, so tests give it the errors a driver
// returns for what the shared test server cannot be made to do (run out
// of memory).
var CallError = (*Engine).callError

// LowerPinScan lowers the bound on the entities read for a pin's closest
// values until the test ends, so a test graph of a few nodes crosses it.
func LowerPinScan(t interface{ Cleanup(func()) }, n int64) {
	old := pinScan
	pinScan = n
	t.Cleanup(func() { pinScan = old })
}

package engine

// CallError exposes callError, so tests give it the errors a driver
// returns for what the shared test server cannot be made to do (run out
// of memory).
var CallError = (*Engine).callError

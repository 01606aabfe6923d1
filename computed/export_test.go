package computed

// Compiles is how many times Compile has run in this test binary.
func Compiles() int64 { return compiles.Load() }

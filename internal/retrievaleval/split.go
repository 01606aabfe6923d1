package retrievaleval

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// The splits of the evaluation data, fixed by the message text alone so
// that nobody can move a message from test to dev.
const (
	SplitExamples = "examples" // h ∈ {0,1}: may be indexed as tool examples (MetaTool only)
	SplitDev      = "dev"      // h = 2: tune on these
	SplitTest     = "test"     // h ∈ {3..9}: report, never tune
)

// SplitOf returns the split of a message: h = int(first 8 hex digits of
// sha256(UTF-8 message)) % 10, as the data's README defines it.
func SplitOf(message string) string {
	h := hashOf(message)
	n, _ := strconv.ParseUint(h[:8], 16, 64)
	switch n % 10 {
	case 0, 1:
		return SplitExamples
	case 2:
		return SplitDev
	default:
		return SplitTest
	}
}

// hashOf is the hex sha256 of the message; it also orders candidate
// examples ("the 5 with the smallest sha256").
func hashOf(message string) string {
	sum := sha256.Sum256([]byte(message))
	return hex.EncodeToString(sum[:])
}

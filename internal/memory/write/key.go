package write

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// keyLength is how many hex digits of the SHA-256 a key keeps: 96 bits, so
// two different inputs of one tenant and entity collide with negligible
// probability.
const keyLength = 24

// Key derives an entity key from the values of its key fields in order:
// prefix + the first keyLength hex digits of the SHA-256 of the normalized
// values. Strings are normalized (case folded, runs of white space made
// one space, trimmed), so "Ada  Lovelace" and "ada lovelace" are one
// person; the derivation is stable across versions, as stored keys rely on
// it.
func Key(prefix string, values []any) (string, error) {
	h := sha256.New()
	for i, v := range values {
		if i > 0 {
			h.Write([]byte{0x1f})
		}
		s, err := keyPart(v)
		if err != nil {
			return "", err
		}
		h.Write([]byte(s))
	}
	return prefix + hex.EncodeToString(h.Sum(nil))[:keyLength], nil
}

// keyPart renders one key value in its normalized form.
func keyPart(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return strings.ToLower(strings.Join(strings.Fields(x), " ")), nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10), nil
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano), nil
	}
	return "", fmt.Errorf("a %T cannot be part of a key", v)
}

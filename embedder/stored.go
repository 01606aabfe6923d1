package embedder

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/ragforge/ragforge/model"
)

// TextHash is the hex SHA-256 of the index's model, its dimensions and the
// text, so a vector made with another model or size counts as stale too.
func TextHash(index *model.VectorIndex, text string) string {
	h := sha256.New()
	h.Write([]byte(index.Model))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(index.Dimensions)))
	h.Write([]byte{0})
	h.Write([]byte(text))
	return hex.EncodeToString(h.Sum(nil))
}

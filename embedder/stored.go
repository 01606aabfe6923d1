package embedder

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/ragforge/ragforge/model"
)

// DefaultVectorProperty holds the vector of an index whose config names no
// property (the schema's default).
const DefaultVectorProperty = "embedding"

// hashSuffix ends the name of the property holding a vector's text hash.
const hashSuffix = "_text_hash"

// VectorProperty names the node property holding index's vectors.
func VectorProperty(index *model.VectorIndex) string {
	return cmp.Or(index.Property, DefaultVectorProperty)
}

// HashProperty names the node property beside index's vector that holds
// [TextHash] of the text the vector was made from ("<property>_text_hash",
// e.g. source_embedding_text_hash). `ragforge-plan embed` skips a node
// whose text still has that hash, and the write tools set it with the
// vector, so a vector is recomputed exactly when its text (or the index's
// model or dimensions) changed since.
func HashProperty(index *model.VectorIndex) string {
	return VectorProperty(index) + hashSuffix
}

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

package model

import "cmp"

// DefaultVectorProperty holds the vector of an index whose config names no
// property (the schema's default).
const DefaultVectorProperty = "embedding"

// hashSuffix ends the name of the property holding a vector's text hash.
const hashSuffix = "_text_hash"

// VectorProperty names the node property holding the index's vectors.
// These names live in model, not in embedder, because the lowest layers
// read them too: neo4jvalue leaves the properties out of every result.
func (vi *VectorIndex) VectorProperty() string {
	return cmp.Or(vi.Property, DefaultVectorProperty)
}

// HashProperty names the node property beside the index's vector that
// holds embedder.TextHash of the text the vector was made from
// ("<property>_text_hash", e.g. source_embedding_text_hash).
// `ragforge-plan embed` skips a node whose text still has that hash, and
// the write tools set it with the vector, so a vector is recomputed exactly
// when its text (or the index's model or dimensions) changed since.
func (vi *VectorIndex) HashProperty() string {
	return vi.VectorProperty() + hashSuffix
}

package model

import "testing"

// TestVectorIndexProperties: an index without a property stores its
// vectors in the schema's default, and the hash sits beside the vector.
func TestVectorIndexProperties(t *testing.T) {
	for _, c := range []struct {
		vi           VectorIndex
		vector, hash string
	}{
		{VectorIndex{}, "embedding", "embedding_text_hash"},
		{VectorIndex{Property: "source_embedding"}, "source_embedding", "source_embedding_text_hash"},
	} {
		if got := c.vi.VectorProperty(); got != c.vector {
			t.Errorf("%+v: VectorProperty = %q, want %q", c.vi, got, c.vector)
		}
		if got := c.vi.HashProperty(); got != c.hash {
			t.Errorf("%+v: HashProperty = %q, want %q", c.vi, got, c.hash)
		}
	}
}

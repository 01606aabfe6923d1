package embedder_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/model"
)

func index(dims int) *model.VectorIndex {
	return &model.VectorIndex{Name: "notes_embeddings", Field: "text", Property: "embedding", Dimensions: dims, Similarity: "cosine"}
}

func offline(t *testing.T, text string, dims int) []float32 {
	t.Helper()
	v, err := embedder.Offline{}.Embed(context.Background(), text, index(dims))
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return v
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func length(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// TestOfflineIsDeterministicWithTheIndexDimensionsAndUnitLength embeds the
// same texts twice at several dimensions.
func TestOfflineIsDeterministicWithTheIndexDimensionsAndUnitLength(t *testing.T) {
	for _, dims := range []int{8, 384, 1536} {
		for _, text := range []string{"board games like chess", "a", "Ünïcödé, Ｆｕｌｌｗｉｄｔｈ & 123 numbers"} {
			a, b := offline(t, text, dims), offline(t, text, dims)
			if !slices.Equal(a, b) {
				t.Errorf("%d dims, %q: two embeddings differ", dims, text)
			}
			if len(a) != dims {
				t.Errorf("%d dims, %q: got %d coordinates", dims, text, len(a))
			}
			if l := length(a); math.Abs(l-1) > 1e-5 {
				t.Errorf("%d dims, %q: length %v, want 1", dims, text, l)
			}
		}
	}
}

// TestOfflineFoldsCaseAccentsAndPunctuation checks that texts differing
// only in case, accents, width and punctuation get the same vector.
func TestOfflineFoldsCaseAccentsAndPunctuation(t *testing.T) {
	a := offline(t, "Café CHESS club!", 64)
	b := offline(t, "cafe chess, club", 64)
	c := offline(t, "ｃａｆｅ　chess   club", 64)
	if !slices.Equal(a, b) || !slices.Equal(a, c) {
		t.Errorf("folded texts differ: %v %v %v", a[:4], b[:4], c[:4])
	}
}

// TestOfflineScoresSharedWordsAboveUnrelatedText checks, for each query,
// that a text sharing its words scores higher under cosine than texts
// sharing none.
func TestOfflineScoresSharedWordsAboveUnrelatedText(t *testing.T) {
	cases := []struct{ query, related string }{
		{"board games like chess", "the chess club plays board games on tuesdays"},
		{"sailing lessons", "where to take sailing lessons near the lake"},
		{"tomato gardening", "growing tomato plants: a gardening diary"},
		{"Neo4j vector index", "creating a vector index in Neo4j 5"},
	}
	for _, dims := range []int{64, 1536} {
		for _, c := range cases {
			q := offline(t, c.query, dims)
			related := cosine(q, offline(t, c.related, dims))
			for _, other := range cases {
				if other == c {
					continue
				}
				if unrelated := cosine(q, offline(t, other.related, dims)); unrelated >= related {
					t.Errorf("%d dims, %q: unrelated %q scores %.3f, related %q %.3f", dims, c.query, other.related, unrelated, c.related, related)
				}
			}
		}
	}
}

// TestOfflineLandsNearSpellingsClose checks that character trigrams make a
// variant spelling closer than an unrelated word.
func TestOfflineLandsNearSpellingsClose(t *testing.T) {
	colour := offline(t, "colour", 1536)
	if near, far := cosine(colour, offline(t, "color", 1536)), cosine(colour, offline(t, "banana", 1536)); near <= far+0.2 {
		t.Errorf("colour~color %.3f, colour~banana %.3f", near, far)
	}
}

// TestOfflineNeverReturnsAZeroVector embeds many short texts at tiny
// dimensions, where word and trigram features collide and may cancel
// out: a cosine index cannot hold a zero vector, so each has length 1.
func TestOfflineNeverReturnsAZeroVector(t *testing.T) {
	for dims := 1; dims <= 3; dims++ {
		for i := range 300 {
			text := fmt.Sprint(i)
			if i%2 == 0 {
				text = string(rune('a' + i%26))
			}
			if l := length(offline(t, text, dims)); math.Abs(l-1) > 1e-5 {
				t.Fatalf("%d dims, %q: length %v", dims, text, l)
			}
		}
	}
}

// TestOfflineEmbedsPunctuationOnlyText checks that a text without letters
// or digits still gets a vector of its own.
func TestOfflineEmbedsPunctuationOnlyText(t *testing.T) {
	a, b := offline(t, "?!", 32), offline(t, "...", 32)
	if slices.Equal(a, b) {
		t.Errorf("different punctuation gave the same vector")
	}
}

// TestOfflineRefusesEmptyTextAndAnIndexWithoutDimensions checks the
// errors say what is missing.
func TestOfflineRefusesEmptyTextAndAnIndexWithoutDimensions(t *testing.T) {
	for _, c := range []struct {
		text  string
		index *model.VectorIndex
		want  string
	}{
		{"  \n", index(8), "nothing to embed"},
		{"chess", index(0), "declares no dimensions"},
		{"chess", nil, "no vector index given"},
	} {
		_, err := embedder.Offline{}.Embed(context.Background(), c.text, c.index)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// BenchmarkOfflineEmbed embeds a 60-word paragraph into 1536 dimensions
// (OpenAI text-embedding-3-small's size).
func BenchmarkOfflineEmbed(b *testing.B) {
	text := strings.Repeat("The chess club meets on Tuesdays at the library; bring a board. ", 5)
	vi := index(1536)
	for b.Loop() {
		if _, err := (embedder.Offline{}).Embed(context.Background(), text, vi); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOnlyTheOfflineEmbedderSaysItsVectorsAreLexical: Offline's caveat
// says its vectors are lexical, not semantic, and names the flag of a
// real model; OpenAI and an application's Func say nothing.
func TestOnlyTheOfflineEmbedderSaysItsVectorsAreLexical(t *testing.T) {
	c := embedder.Caveat(embedder.Offline{})
	for _, want := range []string{"lexical", "not semantic", "--embedder openai"} {
		if !strings.Contains(c, want) {
			t.Errorf("Offline's caveat %q does not say %q", c, want)
		}
	}
	for name, e := range map[string]embedder.Embedder{"OpenAI": &embedder.OpenAI{}, "Func": embedder.Func(nil), "none": nil} {
		if c := embedder.Caveat(e); c != "" {
			t.Errorf("%s: caveat %q, want none", name, c)
		}
	}
}

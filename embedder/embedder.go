// Package embedder turns text into the vectors that Neo4j vector indexes
// compare: the query of a semantic_search call, and the vector-indexed
// fields the write tools store.
//
// An [Embedder] embeds one text for one vector index of the config
// (model.VectorIndex), so it can use the index's model and must return
// exactly the index's dimensions. The engine (engine.Options.Embedder)
// offers semantic_search only when it has one.
//
// Two implementations come with the package:
//
//   - [OpenAI] calls an OpenAI-compatible embeddings endpoint
//     (POST {BaseURL}/embeddings): OpenAI itself, or Ollama's /v1
//     compatibility (BaseURL http://localhost:11434/v1, no key), or any
//     server that speaks the same API. The model is the one the vector
//     index names (`model:` in the config), else [OpenAI.Model].
//   - [Offline] needs no network and no model: it hashes words and
//     character trigrams into a vector, so identical texts get identical
//     vectors and texts that share words (or near-spellings of them) score
//     higher. It is NOT semantic ("car" and "automobile" are unrelated to
//     it); it exists for tests, demos and trying a config out without an
//     embedding service, and says so in the tools it serves ([Caveat]).
//
// The vectors stored in an index and the queries compared with it must
// come from the same embedder and model: vectors of different models are
// not comparable. The write tools (create_/update_<entity>) embed the
// fields they write with the engine's embedder; nodes written otherwise
// need their vectors computed with the same embedder.
//
// On the command line (ragforge-plan call and serve), --embedder
// none|offline|openai chooses one; --embedder-url (or
// RAGFORGE_EMBEDDER_URL) and --embedder-model (or RAGFORGE_EMBEDDER_MODEL)
// configure openai, whose key comes only from OPENAI_API_KEY or
// --embedder-key-file.
package embedder

import (
	"context"
	"fmt"

	"github.com/ragforge/ragforge/model"
)

// Embedder embeds a text with the model of the vector index it will be
// compared with, returning index.Dimensions numbers. Implementations are
// safe for concurrent use.
type Embedder interface {
	Embed(ctx context.Context, text string, index *model.VectorIndex) ([]float32, error)
}

// Caveat says what e's vectors capture when it is not meaning, and how to
// get a model that captures it: semantic_search's and find_similar's
// descriptions and results repeat it, so neither an agent nor its user
// takes a shared word for a shared meaning. It is "" for an embedder that
// says nothing ([OpenAI], an application's own); [Offline] says its
// vectors are lexical.
func Caveat(e Embedder) string {
	if c, ok := e.(interface{ Caveat() string }); ok {
		return c.Caveat()
	}
	return ""
}

// Func adapts a function to [Embedder], for applications whose embedding
// call is already a function.
type Func func(ctx context.Context, text string, index *model.VectorIndex) ([]float32, error)

// Embed calls f.
func (f Func) Embed(ctx context.Context, text string, index *model.VectorIndex) ([]float32, error) {
	return f(ctx, text, index)
}

// Batcher is an [Embedder] that embeds several texts at once (one request
// to a service), as `ragforge-plan embed` does a batch of nodes. [OpenAI]
// is one.
type Batcher interface {
	Embedder
	// EmbedBatch returns the vectors of texts, in their order.
	EmbedBatch(ctx context.Context, texts []string, index *model.VectorIndex) ([][]float32, error)
}

// EmbedAll embeds texts with e: in one call when e is a [Batcher], else
// one text after the other. Either way every vector is checked to have the
// index's dimensions, so a wrong model stops the caller before it stores
// anything.
func EmbedAll(ctx context.Context, e Embedder, texts []string, index *model.VectorIndex) ([][]float32, error) {
	var vecs [][]float32
	if b, ok := e.(Batcher); ok {
		out, err := b.EmbedBatch(ctx, texts, index)
		if err != nil {
			return nil, err
		}
		if len(out) != len(texts) {
			return nil, fmt.Errorf("embedder: %d vectors returned for %d texts", len(out), len(texts))
		}
		vecs = out
	} else {
		for _, text := range texts {
			vec, err := e.Embed(ctx, text, index)
			if err != nil {
				return nil, err
			}
			vecs = append(vecs, vec)
		}
	}
	for _, vec := range vecs {
		if len(vec) != index.Dimensions {
			return nil, fmt.Errorf("embedder: a vector of %d dimensions was returned for vector index %s, which has %d (use a model with %d dimensions, or change the index's dimensions and rebuild it)", len(vec), index.Name, index.Dimensions, index.Dimensions)
		}
	}
	return vecs, nil
}

package embedder

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/ragforge/ragforge/model"
)

// Offline embeds text without a network or a model, by feature hashing:
// every normalized word of the text, and every character trigram of each
// word, adds ±weight to one of index.Dimensions coordinates chosen by its
// FNV-1a hash, and the vector is scaled to length 1.
//
// So identical texts get identical vectors on every machine, texts that
// share words score higher under cosine than texts that share none, and
// near-spellings ("colour", "color") share trigrams and land close. It is
// NOT semantic: synonyms and translations are as unrelated as any other
// words. Use it for tests, demos and trying a config out; use [OpenAI] (or
// another real model) for retrieval that understands meaning. Vectors it
// stores are comparable only with queries it embeds.
//
// The zero value is ready to use and safe for concurrent use.
type Offline struct{}

// Feature weights: a word counts 1, and its trigrams together about as
// much (each 1/√n of n), so a long word does not outweigh a short one.
const (
	wordWeight     = 1.0
	trigramsWeight = 1.0
	// Namespaces keep a word and a trigram with the same letters apart.
	wordSpace    = 'w'
	trigramSpace = 't'
)

// normalizer folds case, compatibility forms and accents ("Ｃafé" → "cafe").
var normalizer = transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)), cases.Fold(), norm.NFC)

// lexical is [Offline]'s [Caveat]: short, as every catalog with it carries
// it in semantic_search's description.
const lexical = "Vectors are lexical (offline embedder: shared words), not semantic: synonyms do not match; " +
	"for meaning, serve with --embedder openai (an OpenAI-compatible /embeddings model)."

// Caveat says that Offline's vectors are lexical, not semantic, and how
// to configure a real model ([Caveat]).
func (Offline) Caveat() string { return lexical }

// errNothingToEmbed is Offline's answer to a text of only white space.
var errNothingToEmbed = errors.New("embedder: nothing to embed: the text is empty")

// Embed returns the hashed vector of text with index.Dimensions
// coordinates and length 1.
func (Offline) Embed(ctx context.Context, text string, index *model.VectorIndex) ([]float32, error) {
	dims, err := dimensions(index)
	if err != nil {
		return nil, err
	}
	words := tokens(text)
	if len(words) == 0 {
		// Punctuation or symbols only: the text itself is the one feature.
		if t := strings.TrimSpace(text); t != "" {
			words = []string{t}
		} else {
			return nil, errNothingToEmbed
		}
	}
	vec := make([]float64, dims)
	for _, w := range words {
		add(vec, wordSpace, w, wordWeight)
		grams := trigrams(w)
		for _, g := range grams {
			add(vec, trigramSpace, g, trigramsWeight/math.Sqrt(float64(len(grams))))
		}
	}
	var sum float64
	for _, x := range vec {
		sum += x * x
	}
	norm := math.Sqrt(sum)
	out := make([]float32, dims)
	if norm == 0 {
		// Every feature cancelled out (a hash collision with opposite
		// signs): the text's first coordinate keeps the vector usable.
		h := hash(wordSpace, strings.Join(words, " "))
		out[h%uint64(dims)] = 1
		return out, nil
	}
	for i, x := range vec {
		out[i] = float32(x / norm)
	}
	return out, nil
}

// tokens returns the normalized words of text as Offline sees them: case,
// accents and compatibility forms folded, split at every character that
// is neither a letter nor a digit.
func tokens(text string) []string {
	folded, _, err := transform.String(normalizer, text)
	if err != nil {
		folded = strings.ToLower(text)
	}
	return strings.FieldsFunc(folded, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// trigrams returns the character trigrams of a word marked at both ends
// ("^cat$" → "^ca", "cat", "at$"), so a one-letter word has one too.
func trigrams(word string) []string {
	r := []rune("^" + word + "$")
	out := make([]string, 0, len(r)-2)
	for i := 0; i+3 <= len(r); i++ {
		out = append(out, string(r[i:i+3]))
	}
	return out
}

// add adds ±weight to the coordinate of a feature, the sign also taken
// from its hash so that collisions cancel out on average instead of
// piling up.
func add(vec []float64, space byte, feature string, weight float64) {
	h := hash(space, feature)
	i := (h >> 1) % uint64(len(vec))
	if h&1 == 1 {
		weight = -weight
	}
	vec[i] += weight
}

// hash is the 64-bit FNV-1a hash of a feature in its namespace.
func hash(space byte, feature string) uint64 {
	f := fnv.New64a()
	f.Write([]byte{space})
	f.Write([]byte(feature))
	return f.Sum64()
}

// dimensions returns the index's dimensions, or an error saying why an
// embedding for it cannot be made.
func dimensions(index *model.VectorIndex) (int, error) {
	if index == nil {
		return 0, errors.New("embedder: no vector index given: the dimensions and model come from it")
	}
	if index.Dimensions <= 0 {
		return 0, fmt.Errorf("embedder: vector index %s declares no dimensions (give it dimensions: N in the config)", index.Name)
	}
	return index.Dimensions, nil
}

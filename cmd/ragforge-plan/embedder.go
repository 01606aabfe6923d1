package main

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/ragforge/ragforge/embedder"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/model"
)

// Environment variables of the embedder flags. The key has no flag: like
// the Neo4j password, it would show in ps and shell history.
const (
	envEmbedderURL   = "RAGFORGE_EMBEDDER_URL"
	envEmbedderModel = "RAGFORGE_EMBEDDER_MODEL"
	envEmbedderKey   = "OPENAI_API_KEY"
)

// embedderKinds are the values of --embedder.
var embedderKinds = []string{"none", "offline", "openai"}

// embedderFlags holds the flags that choose the embedder of semantic_search
// (and of the write tools' vector-indexed fields) for the commands that
// run calls.
type embedderFlags struct {
	fs                        *flag.FlagSet
	kind, url, model, keyFile string
}

// errEmbedderKeyFlag is what --embedder-key answers: the flag exists only
// to say where the key goes instead.
var errEmbedderKeyFlag = errors.New("an API key in the arguments shows in ps and shell history: " +
	"set " + envEmbedderKey + " or give --embedder-key-file FILE")

// embedderKeyFlag is the refused --embedder-key flag.
type embedderKeyFlag struct{}

func (embedderKeyFlag) String() string   { return "" }
func (embedderKeyFlag) Set(string) error { return errEmbedderKeyFlag }

// addEmbedderFlags registers --embedder, --embedder-url, --embedder-model,
// --embedder-key-file, and a --embedder-key that is refused with a pointer
// to them.
func addEmbedderFlags(fs *flag.FlagSet) *embedderFlags {
	f := &embedderFlags{fs: fs}
	fs.StringVar(&f.kind, "embedder", "none", "embeds semantic_search queries and written vector-indexed fields: "+
		"none (semantic_search is not offered), offline (word hashing: deterministic, no network, NOT semantic; for tests and demos) "+
		"or openai (an OpenAI-compatible /embeddings API: OpenAI, Ollama's /v1, …)")
	base := os.Getenv(envEmbedderURL)
	if base == "" {
		base = embedder.DefaultBaseURL
	}
	fs.StringVar(&f.url, "embedder-url", base, "openai: the API root /embeddings is appended to, e.g. http://localhost:11434/v1 for Ollama (default $"+envEmbedderURL+", else OpenAI's)")
	fs.StringVar(&f.model, "embedder-model", os.Getenv(envEmbedderModel), "openai: the model for vector indexes whose config names none (default $"+envEmbedderModel+")")
	fs.StringVar(&f.keyFile, "embedder-key-file", "", "openai: read the API key from the first line of `FILE` (default: the "+envEmbedderKey+" variable)")
	fs.Var(embedderKeyFlag{}, "embedder-key", "refused: "+errEmbedderKeyFlag.Error())
	return f
}

// build returns the chosen embedder for m, nil for none. It refuses an
// unknown kind, openai settings given to another kind, an unusable URL,
// OpenAI without a key, and vector indexes left without a model, so a
// wrong setting stops the command before it serves.
func (f *embedderFlags) build(m *model.Model) (engine.Embedder, error) {
	var stray []string
	f.fs.Visit(func(fl *flag.Flag) {
		if strings.HasPrefix(fl.Name, "embedder-") {
			stray = append(stray, "--"+fl.Name)
		}
	})
	switch f.kind {
	case "none", "offline":
		if len(stray) > 0 {
			return nil, fmt.Errorf("%s only apply to --embedder openai (it is %s)", strings.Join(stray, ", "), f.kind)
		}
		if f.kind == "offline" {
			return embedder.Offline{}, nil
		}
		return nil, nil
	case "openai":
	default:
		return nil, fmt.Errorf("unknown --embedder %q (allowed: %s)", f.kind, strings.Join(embedderKinds, ", "))
	}
	o := &embedder.OpenAI{BaseURL: f.url, Model: f.model}
	if _, err := o.Endpoint(); err != nil {
		return nil, fmt.Errorf("--embedder-url: %w", err)
	}
	key, err := f.key()
	if err != nil {
		return nil, err
	}
	if u, _ := url.Parse(o.BaseURL); key == "" && u.Hostname() == "api.openai.com" {
		return nil, fmt.Errorf("OpenAI needs an API key: set %s or give --embedder-key-file FILE", envEmbedderKey)
	}
	o.APIKey = key
	if o.Model == "" {
		for _, e := range m.Entities {
			for _, vi := range e.VectorIndexes {
				if vi.Model == "" {
					return nil, fmt.Errorf("vector index %s of %s names no model: give --embedder-model (or set %s), or model: NAME on the index", vi.Name, e.Name, envEmbedderModel)
				}
			}
		}
	}
	return o, nil
}

// key returns the first line of --embedder-key-file when given, else
// OPENAI_API_KEY.
func (f *embedderFlags) key() (string, error) {
	if f.keyFile == "" {
		return os.Getenv(envEmbedderKey), nil
	}
	key, err := firstLine(f.keyFile)
	if err != nil {
		return "", fmt.Errorf("--embedder-key-file: %w", err)
	}
	if key == "" {
		return "", fmt.Errorf("--embedder-key-file: %s has no key on its first line", f.keyFile)
	}
	return key, nil
}

// Package tokens counts LLM tokens with a real BPE tokenizer whose
// vocabulary is compiled into the binary, so measuring the size of a tool
// catalog works offline and gives the same figure on every machine.
//
// It uses tiktoken's o200k_base encoding (the GPT-4o family's); other
// providers' tokenizers differ by some percent, so the counts compare
// catalogs and formats rather than predict a bill. It is a separate package
// because the vocabulary adds megabytes to any binary that imports it.
package tokens

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding is the name of the encoding Count uses.
const Encoding = "o200k_base"

var (
	once sync.Once
	enc  *tiktoken.Tiktoken
	err  error
)

// Count returns the number of o200k_base tokens in text. Loading the
// embedded vocabulary takes a fraction of a second the first time.
func Count(text string) (int, error) {
	once.Do(func() {
		tiktoken.SetBpeLoader(loader.NewOfflineLoader())
		enc, err = tiktoken.GetEncoding(Encoding)
	})
	if err != nil {
		return 0, fmt.Errorf("tokens: loading %s: %w", Encoding, err)
	}
	return len(enc.Encode(text, nil, nil)), nil
}

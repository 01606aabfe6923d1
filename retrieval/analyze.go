package retrieval

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/ar"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	unitok "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// gramPrefix marks character n-gram terms so they never collide with word
// terms in the shared vocabulary.
const gramPrefix = "\x00"

// arabicGramSize is the length of the character n-grams taken from Arabic
// words. Trigrams of the normalized word match sub-words that the light
// stemmer misses (broken plurals, attached pronouns and prepositions).
const arabicGramSize = 3

// term is one unit of matching: a stemmed word, or a character n-gram of an
// Arabic word (gram), which counts for less.
type term struct {
	text string
	gram bool
}

// analyzer turns text (a message or a document field) into terms. The same
// analyzer is used at index and query time, which is what makes a diacritic,
// alef or ya variant in a message match the plain form in a document.
type analyzer struct {
	tokenizer  analysis.Tokenizer
	arNorm     analysis.TokenFilter
	arStem     analysis.TokenFilter
	enPossess  analysis.TokenFilter
	enStem     analysis.TokenFilter
	enStop     analysis.TokenMap
	arStop     analysis.TokenMap
	arabicGram bool
	latinGram  int
}

func newAnalyzer(arabicGrams bool, latinGram int) *analyzer {
	a := &analyzer{
		tokenizer:  unitok.NewUnicodeTokenizer(),
		arNorm:     ar.NewArabicNormalizeFilter(),
		arStem:     ar.NewArabicStemmerFilter(),
		enPossess:  en.NewPossessiveFilter(),
		enStem:     en.NewEnglishStemmerFilter(),
		enStop:     analysis.NewTokenMap(),
		arStop:     analysis.NewTokenMap(),
		arabicGram: arabicGrams,
		latinGram:  latinGram,
	}
	_ = a.enStop.LoadBytes(en.EnglishStopWords)
	raw := analysis.NewTokenMap()
	_ = raw.LoadBytes(ar.ArabicStopWords)
	// The stop list is written with hamzas and ta marbuta; normalize it the
	// way message words are normalized, or "إلى" would survive as "الى".
	for w := range raw {
		a.arStop.AddToken(string(a.arNorm.Filter(analysis.TokenStream{{Term: []byte(w)}})[0].Term))
	}
	return a
}

// analyze returns the terms of text in order, duplicates kept (they are term
// frequencies).
func (a *analyzer) analyze(text string) []term {
	text = foldDigits(text)
	var out []term
	for _, tok := range a.tokenizer.Tokenize([]byte(text)) {
		for _, part := range splitIdentifier(string(tok.Term)) {
			out = a.word(out, part)
		}
	}
	return out
}

// word analyzes one identifier part and appends its terms.
func (a *analyzer) word(out []term, w string) []term {
	w = strings.ToLower(w)
	if isArabic(w) {
		stream := a.arNorm.Filter(analysis.TokenStream{{Term: []byte(w)}})
		norm := string(stream[0].Term)
		if norm == "" || a.arStop[norm] {
			return out
		}
		stemmed := string(a.arStem.Filter(stream)[0].Term)
		if stemmed == "" {
			stemmed = norm
		}
		out = append(out, term{text: stemmed})
		if a.arabicGram {
			out = appendGrams(out, norm, arabicGramSize)
		}
		return out
	}
	if a.enStop[w] {
		return out
	}
	stream := a.enPossess.Filter(analysis.TokenStream{{Term: []byte(w)}})
	stream = a.enStem.Filter(stream)
	s := string(stream[0].Term)
	if s == "" {
		return out
	}
	out = append(out, term{text: s})
	if a.latinGram > 0 && utf8.RuneCountInString(w) > a.latinGram {
		out = appendGrams(out, w, a.latinGram)
	}
	return out
}

// appendGrams adds the character n-grams of w, with word-boundary markers so
// that a prefix or suffix gram is told apart from a gram inside a word.
// Words no longer than n are themselves a single gram.
func appendGrams(out []term, w string, n int) []term {
	runes := []rune("<" + w + ">")
	if len(runes) <= n {
		return append(out, term{text: gramPrefix + string(runes), gram: true})
	}
	for i := 0; i+n <= len(runes); i++ {
		out = append(out, term{text: gramPrefix + string(runes[i:i+n]), gram: true})
	}
	return out
}

// isArabic reports whether w contains an Arabic letter.
func isArabic(w string) bool {
	for _, r := range w {
		if r >= 0x0600 && unicode.Is(unicode.Arabic, r) && unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// foldDigits maps Arabic-Indic (U+0660–0669) and Extended Arabic-Indic
// (U+06F0–06F9) digits to ASCII digits, so "٧" and "7" are the same term.
func foldDigits(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return (r >= 0x0660 && r <= 0x0669) || (r >= 0x06F0 && r <= 0x06F9) }) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0x0660 && r <= 0x0669:
			return '0' + (r - 0x0660)
		case r >= 0x06F0 && r <= 0x06F9:
			return '0' + (r - 0x06F0)
		}
		return r
	}, s)
}

// splitIdentifier splits a token such as "get_weather", "ChaDri.change_drink",
// "findUserByID" or "HTTPServer2" into its words ("get", "weather", ...).
// Tool names are written this way and users never type them so, hence the
// split; a plain word comes back unchanged.
func splitIdentifier(tok string) []string {
	var parts []string
	runes := []rune(tok)
	start := 0
	flush := func(end int) {
		if end > start {
			parts = append(parts, string(runes[start:end]))
		}
	}
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		if r == '_' || r == '.' || r == '-' || r == '/' || r == ':' || r == '\'' || r == '’' {
			flush(i)
			start = i + 1
			continue
		}
		if i == start {
			continue
		}
		prev := runes[i-1]
		switch {
		case unicode.IsLower(prev) && unicode.IsUpper(r):
			flush(i) // fooBar
			start = i
		case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			flush(i) // HTTPServer
			start = i
		case isASCIIAlnum(prev) && isASCIIAlnum(r) && unicode.IsDigit(prev) != unicode.IsDigit(r):
			flush(i) // v2api -> v 2 api
			start = i
		}
	}
	flush(len(runes))
	return parts
}

func isASCIIAlnum(r rune) bool {
	return r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

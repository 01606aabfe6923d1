package tokens

import "testing"

// The vocabulary is embedded: counting works with no network, and gives the
// tokenizer's known answers.
func TestCountUsesTheEmbeddedVocabulary(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{`{"type":"object"}`, 5},
	} {
		got, err := Count(tc.text)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("Count(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

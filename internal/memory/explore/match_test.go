package explore

import (
	"strings"
	"testing"
)

// TestMatchScoreRanksExactThenPrefixThenSubstringThenEdits holds the
// bands of a name match: each kind of match scores above the next, and a
// word is close when it is within maxEdits (a swap is one edit).
func TestMatchScoreRanksExactThenPrefixThenSubstringThenEdits(t *testing.T) {
	terms := matchTerms([]string{"Marie"})
	exact := matchScore(terms, []string{"marie"})
	prefix := matchScore(terms, []string{"marie curie"})
	substring := matchScore(terms, []string{"anne-marie"})
	swapped := matchScore(terms, []string{"mraie"})
	if !(exact == 1 && exact > prefix && prefix > substring && substring > swapped && swapped > 0) {
		t.Errorf("exact %v, prefix %v, substring %v, swapped %v; want 1 > … > 0 in that order", exact, prefix, substring, swapped)
	}
	for _, c := range []struct {
		text, value string
		match       bool
	}{
		{"Mraie Cuire", "marie curie", true}, // a swap in each word
		{"Alce", "alice", true},              // a missing letter
		{"Lovelcae", "ada lovelace", true},   // a word of the value
		{"Alcie", "alice", true},             // a swap is one edit, not two
		{"Bo", "bob", true},                  // a substring
		{"Bob", "rob", true},                 // one edit in three letters
		{"Al", "bo", false},                  // two letters: exact only
		{"Cuire Zorglub", "marie dupont", false},
		{"Ailce", "alive", false}, // two edits in five letters
		{"Zorglub", "marie curie", false},
	} {
		if got := matchScore(matchTerms([]string{c.text}), []string{c.value}) > 0; got != c.match {
			t.Errorf("%q against %q: match %v, want %v", c.text, c.value, got, c.match)
		}
	}
}

// TestLetterPairsKeepAMisspeltNameACandidate: the prefilter's letter
// pairs of a misspelt name still meet the stored name.
func TestLetterPairsKeepAMisspeltNameACandidate(t *testing.T) {
	pairs := letterPairs([]string{"Mraie", "X"})
	shared := 0
	for _, p := range pairs {
		if p == "x" {
			continue
		}
		if strings.Contains("marie curie", p) {
			shared++
		}
	}
	if shared == 0 || len(pairs) != 5 {
		t.Errorf("pairs %v share %d with marie curie; want 4 pairs and a one-letter word", pairs, shared)
	}
}

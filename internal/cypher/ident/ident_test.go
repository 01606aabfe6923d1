package ident_test

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/ident"
)

func TestQuoteWrapsValidNamesInBackticks(t *testing.T) {
	for name, want := range map[string]string{
		"Scope":                    "`Scope`",
		"_RagforgeMaterialization": "`_RagforgeMaterialization`",
		"line_count2":              "`line_count2`",
		strings.Repeat("a", 100):   "`" + strings.Repeat("a", 100) + "`",
	} {
		got, err := ident.Quote(name)
		if err != nil || got != want {
			t.Errorf("Quote(%q) = %q, %v; want %q, nil", name, got, err, want)
		}
	}
}

func TestQuoteRefusesNamesOutsideTheRules(t *testing.T) {
	for _, name := range []string{
		"", "1abc", "a b", "a`b", "a\\u0060b", "a\x00", "first-name", "n.name",
		"a}) DETACH DELETE n //", "ſ", "é", strings.Repeat("a", 101),
	} {
		got, err := ident.Quote(name)
		var e *ident.Error
		if !errors.As(err, &e) || e.Name != name || got != "" {
			t.Errorf("Quote(%q) = %q, %v; want an *ident.Error", name, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), "allowed: letters, digits and _") {
			t.Errorf("Quote(%q) error %q does not say what is allowed", name, err)
		}
	}
}

func TestQuoterKeepsTheFirstRefusal(t *testing.T) {
	var q ident.Quoter
	got := []string{q.Quote("Scope"), q.Quote("a b"), q.Quote("1x"), q.Quote("uuid")}
	var e *ident.Error
	if !errors.As(q.Err, &e) || e.Name != "a b" || got[0] != "`Scope`" || got[1] != "``" || got[3] != "`uuid`" {
		t.Errorf("Quoter wrote %q and kept %v; want the valid names quoted and the first refusal, of \"a b\"", got, q.Err)
	}
}

// The schema is the single source of truth for the identifier rules; this
// package repeats the pattern only because it must not import the schema.
func TestPatternIsTheSchemasIdentifierPattern(t *testing.T) {
	src, err := os.ReadFile("../../../schema/ragforge.cue")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^#identifierPattern:\s*"([^"]*)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("schema/ragforge.cue has no #identifierPattern")
	}
	if string(m[1]) != ident.Pattern {
		t.Fatalf("ident.Pattern = %q, schema's #identifierPattern = %q", ident.Pattern, m[1])
	}
}

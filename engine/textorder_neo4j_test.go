package engine_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// TestOrderingTextThatLooksLikeNumbersSaysSo: a <, > or sort on a text
// field whose values are all numbers (or dates) notes that it compared
// text and how to declare the type; on words, or on a number field, it
// notes nothing.
func TestOrderingTextThatLooksLikeNumbersSaysSo(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `CREATE (a:Person {name: 'Ann', born: 1970}), (b:Person {name: 'Bob', born: 1980}),
		(m1:Movie {title: '1917', released: 2019, tagline: '2019-12-25'}), (m2:Movie {title: '300', released: 2006, tagline: 'NULL'}), (m3:Movie {title: '2012', released: 2009, tagline: '2009-11-13 00:00:00.000'}),
		(a)-[:REVIEWED {rating: 80, summary: '10'}]->(m1), (b)-[:REVIEWED {rating: 70, summary: '9'}]->(m2)`, nil)
	e := newEngine(t, d, "../testdata/configs/valid/movies.yaml", engine.Options{})
	ctx := context.Background()
	textNote := func(notes []string, field string) string {
		for _, n := range notes {
			if strings.HasPrefix(n, field+" is text") {
				return n
			}
		}
		return ""
	}
	_, notes := notesOf(t, ctx, e, "query_entities", `{"entity_type":"Movie","order_by":{"field":"title"}}`)
	if n := textNote(notes, "Movie.title"); !strings.Contains(n, `look like numbers, and <, >, between and order_by compare it character by character ("10" before "9")`) ||
		!strings.HasSuffix(n, "declare it as type: number (or integer) with stored_as: text, and its null markers as null_values") {
		t.Errorf("sort by title: notes %q", notes)
	}
	_, notes = notesOf(t, ctx, e, "query_entities", `{"entity_type":"Movie","conditions":[{"field":"tagline","operator":">=","value":"2010-01-01"}]}`)
	if n := textNote(notes, "Movie.tagline"); !strings.Contains(n, "look like datetimes") || !strings.HasSuffix(n, "declare it as type: datetime with stored_as: text, and its null markers as null_values") {
		t.Errorf("tagline >=: notes %q", notes)
	}
	_, notes = notesOf(t, ctx, e, "query_entities", `{"entity_type":"Person","conditions":[{"via":"REVIEWED","relationship_conditions":[{"field":"summary","operator":">","value":"5"}]}]}`)
	if textNote(notes, "REVIEWED.summary") == "" {
		t.Errorf("relationship summary >: notes %q", notes)
	}
	for _, args := range []string{
		`{"entity_type":"Person","order_by":{"field":"name"}}`,                                    // words
		`{"entity_type":"Movie","conditions":[{"field":"released","operator":">","value":2000}]}`, // a number field
		`{"entity_type":"Movie","conditions":[{"field":"title","operator":"=","value":"300"}]}`,   // no order
	} {
		if _, notes := notesOf(t, ctx, e, "query_entities", args); slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, " is text") }) {
			t.Errorf("%s: notes %q, want no text note", args, notes)
		}
	}
}

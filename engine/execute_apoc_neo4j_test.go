package engine_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// levenshtein is the edit distance between two strings, by runes.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
}

// TestFuzzyThroughAPOCOnUnindexedFields runs the fuzzy mode on a field no
// full-text index covers, which the engine offers only when the server has
// APOC: every word of the pattern must be within two edits of a word of the
// value, as computed here in Go.
func TestFuzzyThroughAPOCOnUnindexedFields(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.RequireAPOC(t, d)
	names := []string{"server.go", "client.go", "transport.go", "serve_test.go", "servers.go", "sever.txt", "fs.go", "h2_bundle.go", "Server.GO"}
	for _, n := range names {
		neo4jtest.Run(t, d, "CREATE (:File {path: 'p/' + $n, name: $n})", map[string]any{"n": n})
	}
	e := newEngine(t, d, "../testdata/configs/valid/code-rag.yaml", engine.Options{})
	if !e.Capabilities().APOC {
		t.Fatalf("APOC not detected: %+v", e.Capabilities())
	}
	for _, pattern := range []string{"sever.go", "clinet", "trasnport go", "bundle"} {
		r := execJSON(t, e, planner.TextPatternSearch, `{"entity_type":"File","field":"name","mode":"fuzzy","limit":50,"pattern":"`+pattern+`"}`)
		var want []string
		for _, n := range names {
			ok := true
			for _, q := range words(pattern) {
				if !slices.ContainsFunc(words(n), func(w string) bool { return levenshtein(w, q) <= 2 }) {
					ok = false
				}
			}
			if ok {
				want = append(want, "p/"+n)
			}
		}
		got := r.ids()
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("fuzzy %q: got %v want %v", pattern, got, want)
		}
	}
}

// TestRunCypherRefusesAPOCLoadersButAllowsValueFunctions checks the
// allowlist where APOC is installed: its loaders (files, network) and
// other procedures are refused; its pure text functions are allowed.
func TestRunCypherRefusesAPOCLoadersButAllowsValueFunctions(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.RequireAPOC(t, d)
	e := newEngine(t, d, "../testdata/configs/valid/code-rag.yaml", engine.Options{Tools: tools.Options{RawCypher: true}})
	for _, q := range []string{
		`CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value`,
		`CALL apoc.help('load') YIELD name RETURN name`,
		`RETURN apoc.util.sha1(['x']) AS h`,
	} {
		_, err := e.Execute(t.Context(), engine.Call{Name: planner.RunCypher, Arguments: []byte(`{"query":` + quote(q) + `}`)})
		var ce *tools.CallError
		if !errorsAs(err, &ce) {
			t.Errorf("%s: got %v, want a CallError", q, err)
		}
	}
	r := execJSON(t, e, planner.RunCypher, `{"query":"RETURN apoc.text.join(['a', 'b'], '-') AS j"}`)
	if len(r.Rows) != 1 || r.Rows[0]["j"] != "a-b" {
		t.Errorf("apoc.text.join: %v", r.Rows)
	}
}

func quote(s string) string {
	b := strings.Builder{}
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

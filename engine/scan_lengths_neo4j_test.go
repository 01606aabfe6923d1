package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestScanNarrowingDropsNoMatch proves on Neo4j that the conditions a
// scan adds to narrow its candidates (literals, and size() bounds from
// the pattern's length) never drop a match: for fixed and random regexes
// and globs, case-sensitive or not, on an indexed field (value order) and
// a plain one (unique-field order), the answer is exactly the Items whose
// stored value, as Neo4j returns it, Go's matcher accepts. The values are
// the edge cases of counting characters: empty, multi-byte, surrogate
// pairs (size 1 in Cypher, 4 bytes in Go), newlines, letters whose case
// folds change length in Cypher's toLower (İ), and a lone surrogate
// written by Cypher itself.
func TestScanNarrowingDropsNoMatch(t *testing.T) {
	d, m := openScanGraph(t)
	ctx := context.Background()
	values := []string{"", "a", "ab", "abc", "é", "éé", "aé", "😀", "a😀", "😀😀", "😀a😀", "a\nb", "\n", "a\n", "İ", "İa", "ia",
		"ſ", "s", "S", "K", "k", "Ka", "ka", "x/y", "x/y/z", "a.go", "é.go", "😀.go", "UA123", "UA1234", "UA12", "UA1😀2", "ua123"}
	rows := make([]any, len(values))
	for i, v := range values {
		rows[i] = map[string]any{"uuid": fmt.Sprintf("u%03d", i), "v": v}
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS r CREATE (:Item {uuid: r.uuid, name: r.v, code: r.v})", map[string]any{"rows": rows})
	neo4jtest.Run(t, d, `CREATE (:Item {uuid: 'u999', name: 'x\uD800y', code: 'x\uD800y'})`, nil)

	// What Neo4j stores and returns, in uuid order: the texts Go matches.
	stored := map[string]string{}
	var uuids []string
	res, err := neo4j.ExecuteQuery(ctx, d, "MATCH (n:Item) RETURN n.uuid AS uuid, n.name AS name ORDER BY uuid", nil,
		neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Records {
		u, _ := r.Get("uuid")
		v, _ := r.Get("name")
		uuids = append(uuids, u.(string))
		stored[u.(string)] = v.(string)
	}
	e, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}

	patterns := []struct {
		mode, pattern string
	}{
		{"regex", "UA1[0-9]{2}"}, {"regex", "UA1.{2}"}, {"regex", ".{1}"}, {"regex", ".{2}"}, {"regex", "(?s).{2}"},
		{"regex", ".?"}, {"regex", "a?"}, {"regex", "[^a]{2,3}"}, {"regex", "(?s:.)\\n?."}, {"regex", "x.y"},
		{"regex", "(a|😀)+"}, {"regex", "(?i)ka"}, {"regex", "k."}, {"regex", "i."}, {"regex", "s"}, {"regex", ".*\\.go"},
		{"regex", "..\\.go"}, {"regex", "(?m)a$\\n?.?"}, {"regex", "\\b.\\b"}, {"regex", "()"},
		{"glob", "?"}, {"glob", "??"}, {"glob", "*.go"}, {"glob", "?.go"}, {"glob", "x/?"}, {"glob", "x/**"}, {"glob", "UA1??"},
		{"glob", "[a-z]?"}, {"glob", "{a,ab}"}, {"glob", "k?"},
	}
	r := rand.New(rand.NewPCG(5, 6))
	atoms := []string{"a", "é", "😀", ".", "[^a]", "(a|😀😀)", "\\n", "k", "s", "İ", "(?s:.)"}
	quants := []string{"", "", "?", "*", "+", "{2}", "{0,2}", "{1,}"}
	for range 40 {
		var p strings.Builder
		for range 1 + r.IntN(3) {
			p.WriteString(atoms[r.IntN(len(atoms))] + quants[r.IntN(len(quants))])
		}
		patterns = append(patterns, struct{ mode, pattern string }{"regex", p.String()})
	}
	checked := 0
	for _, p := range patterns {
		for _, field := range []string{"code", "name"} {
			for _, cs := range []bool{true, false} {
				match, err := tools.Matcher(p.mode, p.pattern, cs)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, u := range uuids {
					if match(stored[u]) {
						want = append(want, u)
					}
				}
				args, _ := json.Marshal(map[string]any{"entity_type": "Item", "field": field, "pattern": p.pattern, "mode": p.mode, "case_sensitive": cs, "limit": 50})
				res, err := e.Execute(ctx, engine.Call{Name: planner.TextPatternSearch, Arguments: args})
				if err != nil {
					t.Fatalf("%s: %v", args, err)
				}
				var got []string
				for _, ent := range res.Entities {
					got = append(got, fmt.Sprint(ent.ID))
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: ids %v\nwant %v", args, got, want)
				}
				if res.Stats[engine.StatCandidatesMatched] != len(want) || res.Stats[engine.StatScanComplete] != true {
					t.Errorf("%s: stats %v, want %d matched, complete", args, res.Stats, len(want))
				}
				checked += len(want)
			}
		}
	}
	t.Logf("%d patterns, %d matches checked", len(patterns), checked)
}

package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
)

// scanItems is how many Items TestScansReadEveryCandidate creates: more
// than the 20,000 candidates scans used to stop at, and more than one
// chunk's worth many times over.
const scanItems = 50000

// scanConfig is the config of the scan tests: Items whose uuid order is
// not their creation order, a name and a path to match, and slow_name, the
// name computed by a subquery that costs the server about a tenth of a
// millisecond per node, so a scan of it runs into a short deadline.
const scanConfig = `name: scan-test
version: 1.0.0
description: Regex and glob scans over a label larger than one chunk
entities:
  - name: Item
    description: A generated item
    unique_field: uuid
    searchable_fields:
      - {name: uuid, type: string, description: Identifier}
      - {name: name, type: string, description: Name}
      - {name: path, type: string, description: Path}
      - {name: code, type: string, indexed: true, description: Code}
    computed_fields:
      - name: slow_name
        type: string
        description: The name, computed slowly
        cypher: "RETURN reduce(s = n.name, x IN range(1, 3000) | CASE WHEN x < 0 THEN s + 'x' ELSE s END) AS slow_name"
`

// openScanGraph opens the test database with scanConfig's indexes and
// constraints applied.
func openScanGraph(t *testing.T) (neo4j.DriverWithContext, *model.Model) {
	t.Helper()
	d := neo4jtest.Open(t)
	m, err := config.LoadSources(config.Source{Name: "scan-test.yaml", Data: []byte(scanConfig)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schemaapply.Apply(context.Background(), d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		t.Fatal(err)
	}
	return d, m
}

// scanItem is one generated Item.
type scanItem struct{ uuid, name, path, code string }

// TestScansReadEveryCandidate proves on Neo4j that regex and glob
// searches read every candidate of a label larger than one chunk (and
// than the old 20,000 cap): the answer equals the matches computed in Go
// over all Items, in uuid order, and the result says how many candidates
// were matched against the pattern; and that a scan the deadline stops
// answers with the matches among the candidates it read, with a note,
// before the deadline, instead of a timeout error.
func TestScansReadEveryCandidate(t *testing.T) {
	d, m := openScanGraph(t)
	ctx := context.Background()
	// 7919 is invertible modulo the prime 100003, so the uuids are unique
	// and their order shuffles the names.
	items := make([]scanItem, scanItems)
	rows := make([]any, scanItems)
	for i := range items {
		n := i + 1
		items[i] = scanItem{fmt.Sprintf("u%06d", n*7919%100003), fmt.Sprintf("n%d", n), fmt.Sprintf("pkg%d/f%d.go", n%100, n), fmt.Sprintf("c%03d", n%700)}
		rows[i] = map[string]any{"uuid": items[i].uuid, "name": items[i].name, "path": items[i].path, "code": items[i].code}
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS r CREATE (:Item {uuid: r.uuid, name: r.name, path: r.path, code: r.code})", map[string]any{"rows": rows})
	slices.SortFunc(items, func(a, b scanItem) int { return strings.Compare(a.uuid, b.uuid) })

	e, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database()})
	if err != nil {
		t.Fatal(err)
	}
	// want is the first limit matching uuids (in uuid order) among items,
	// and how many match in all.
	want := func(items []scanItem, limit int, match func(scanItem) bool) ([]string, int) {
		var ids []string
		n := 0
		for _, it := range items {
			if match(it) {
				n++
				if len(ids) < limit {
					ids = append(ids, it.uuid)
				}
			}
		}
		return ids, n
	}
	regex := func(field, pattern string) func(scanItem) bool {
		re := regexp.MustCompile("^(?:" + pattern + ")$")
		return func(it scanItem) bool {
			switch field {
			case "path":
				return re.MatchString(it.path)
			case "code":
				return re.MatchString(it.code)
			}
			return re.MatchString(it.name)
		}
	}
	for _, c := range []struct {
		name, args string
		match      func(scanItem) bool
		// scanned is how many candidates the scan must read (0: not
		// checked, the prefilter decides).
		scanned int
		// pastFirstChunk: the last match of the page lies past the first
		// chunk of candidates, so the page joins chunks.
		pastFirstChunk bool
		// byValue: the prefix is seeked from a range index, so the chunks
		// come in value order and every candidate is read, every match
		// counted.
		byValue bool
	}{
		// The names n1 to n999 are shorter than the pattern's 5
		// characters: the scan's size() condition leaves them in Neo4j.
		{"regex, no literal, 20 matches in 49,001 candidates",
			`{"entity_type":"Item","field":"name","pattern":".*(1234|4321)[0-9]","mode":"regex","case_sensitive":true,"limit":50}`,
			regex("name", `.*(1234|4321)[0-9]`), scanItems - 999, true, false},
		{"regex ignoring case, more matches than the limit, the 50th past the first chunk",
			`{"entity_type":"Item","field":"name","pattern":"N[0-9]*(99|77)[0-9]","mode":"regex","limit":50}`,
			regex("name", `n[0-9]*(99|77)[0-9]`), 0, true, false},
		{"glob with a literal prefix and suffix",
			`{"entity_type":"Item","field":"path","pattern":"pkg1?/f*13.go","mode":"glob","case_sensitive":true,"limit":50}`,
			func(it scanItem) bool { ok, _ := doublestar.Match("pkg1?/f*13.go", it.path); return ok }, 0, false, false},
		// Every Item's code starts with c, and each code is held by about
		// 71 Items, so chunks end inside runs of equal values.
		{"regex with a literal prefix an index seeks, in value order, ties across chunks",
			`{"entity_type":"Item","field":"code","pattern":"c(12|34)[0-9]","mode":"regex","case_sensitive":true,"limit":50}`,
			regex("code", `c(12|34)[0-9]`), scanItems, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var a struct{ Limit int }
			_ = json.Unmarshal([]byte(c.args), &a)
			ids, total := want(items, a.Limit, c.match)
			if len(ids) == 0 {
				t.Fatal("the case matches nothing: it proves nothing")
			}
			if c.pastFirstChunk && slices.IndexFunc(items, func(it scanItem) bool { return it.uuid == ids[len(ids)-1] }) < planner.FirstScanChunk {
				t.Fatalf("the page's last match is within the first chunk: the case proves nothing about the next")
			}
			r, err := e.Execute(ctx, engine.Call{Name: planner.TextPatternSearch, Arguments: json.RawMessage(c.args)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ent := range r.Entities {
				got = append(got, fmt.Sprint(ent.ID))
			}
			if !slices.Equal(got, ids) {
				t.Errorf("ids %v\nwant %v", got, ids)
			}
			truncated := total > a.Limit
			if r.Truncated != truncated {
				t.Errorf("truncated %v, want %v (%d matches, limit %d)", r.Truncated, truncated, total, a.Limit)
			}
			matched, complete := min(total, a.Limit+1), !truncated
			if c.byValue {
				matched, complete = total, true
			}
			if r.Stats[engine.StatCandidatesMatched] != matched || r.Stats[engine.StatScanComplete] != complete {
				t.Errorf("stats %v, want %d matched, complete %v", r.Stats, matched, complete)
			}
			if n, _ := r.Stats[engine.StatCandidatesScanned].(int); c.scanned > 0 && n != c.scanned || n < matched {
				t.Errorf("stats %v: want %d candidates scanned", r.Stats, c.scanned)
			}
		})
	}

	t.Run("a scan the deadline stops answers with the matches it read", func(t *testing.T) {
		const timeout = 3 * time.Second
		slow, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database(), Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		// Every Item is a candidate (no literal), 20 match, and reading
		// them all takes the server several times the timeout.
		pattern := `.*(1234|4321)[0-9]`
		start := time.Now()
		r, err := slow.Execute(ctx, engine.Call{Name: planner.TextPatternSearch, Arguments: json.RawMessage(
			`{"entity_type":"Item","field":"slow_name","pattern":"` + pattern + `","mode":"regex","case_sensitive":true,"limit":50}`)})
		took := time.Since(start)
		if err != nil {
			t.Fatalf("after %v: %v", took, err)
		}
		if took > timeout {
			t.Errorf("answered after %v, past the %v timeout", took, timeout)
		}
		n, _ := r.Stats[engine.StatCandidatesScanned].(int)
		if n == 0 || n >= scanItems || r.Stats[engine.StatScanComplete] != false || !r.Truncated {
			t.Fatalf("stats %v, truncated %v: want a partial scan", r.Stats, r.Truncated)
		}
		if !slices.ContainsFunc(r.Notes, func(s string) bool {
			return strings.Contains(s, "time ran out") && strings.Contains(s, fmt.Sprint(n)+" candidates")
		}) {
			t.Errorf("notes %q do not say the deadline stopped the scan after %d candidates", r.Notes, n)
		}
		// The candidates are the Items whose name has the pattern's 5
		// characters at least, in uuid order.
		candidates := slices.DeleteFunc(slices.Clone(items), func(it scanItem) bool { return len(it.name) < 5 })
		ids, _ := want(candidates[:n], 50, regex("name", pattern))
		var got []string
		for _, ent := range r.Entities {
			got = append(got, fmt.Sprint(ent.ID))
		}
		if !slices.Equal(got, ids) {
			t.Errorf("ids %v\nwant the matches among the first %d candidates %v", got, n, ids)
		}
		t.Logf("%v: %d of %d candidates read, %d matches", took, n, scanItems, len(got))
	})
}

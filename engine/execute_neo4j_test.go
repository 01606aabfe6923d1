package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/fixture"
	"github.com/ragforge/ragforge/internal/fixture/fixturetest"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// netHTTP is the fixture every integration test of Execute reads: the Go
// standard library's net/http, parsed by package fixture and loaded into
// Neo4j, plus the full-text index the code-RAG config declares and a few
// Change nodes with known timestamps (the source tree has no history).
type netHTTP struct {
	g       *fixture.Graph
	e       *engine.Engine
	d       neo4j.DriverWithContext
	now     time.Time
	changes map[string][]time.Time // scope uuid → change timestamps
}

func loadNetHTTP(t *testing.T, opts engine.Options) *netHTTP { return loadNetHTTPTB(t, opts) }

func loadNetHTTPTB(t testing.TB, opts engine.Options) *netHTTP {
	t.Helper()
	d := neo4jtest.Open(t)
	g := fixturetest.LoadNetHTTP(t, d)
	neo4jtest.Run(t, d, "CREATE FULLTEXT INDEX scope_text IF NOT EXISTS FOR (n:Scope) ON EACH [n.name, n.signature, n.source]", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(300)", nil)
	f := &netHTTP{g: g, d: d, now: time.Now().UTC(), changes: map[string][]time.Time{}}
	// Changes: the first 30 functions by uuid get 1..3 changes, 0..40 days old.
	var fns []fixture.Scope
	for _, s := range g.Scopes {
		if s.Type == fixture.TypeFunction {
			fns = append(fns, s)
		}
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].UUID < fns[j].UUID })
	var rows []map[string]any
	for i, s := range fns[:30] {
		for k := 0; k <= i%3; k++ {
			ts := f.now.Add(-time.Duration(i*31+k*7) * 24 * time.Hour / 23).Truncate(time.Millisecond)
			f.changes[s.UUID] = append(f.changes[s.UUID], ts)
			rows = append(rows, map[string]any{"scope": s.UUID, "uuid": fmt.Sprintf("change-%d-%d", i, k), "ts": ts, "order": int64(k)})
		}
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS r MATCH (s:Scope {uuid: r.scope})
		CREATE (s)-[:HAS_CHANGE {order: r.order}]->(:Change {uuid: r.uuid, timestamp: r.ts, kind: 'updated', summary: 'edit'})`, map[string]any{"rows": rows})
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	opts.Driver = d
	opts.Database = neo4jtest.Database()
	opts.Tools.Aggregations = true
	opts.Tools.RawCypher = true
	f.e, err = engine.New(t.Context(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// entity is a decoded result entity.
type entity struct {
	EntityType string         `json:"entity_type"`
	ID         any            `json:"id"`
	Properties map[string]any `json:"properties"`
	Computed   map[string]any `json:"computed"`
	Score      *float64       `json:"score"`
	DistanceKm float64        `json:"distance_km"`
	FromID     any            `json:"from_id"`
	Depth      int            `json:"depth"`
}

// result is a decoded Execute result.
type result struct {
	Entities []entity      `json:"entities"`
	Groups   []answerGroup `json:"groups"`
	Buckets  []struct {
		Lower, Upper float64
		Count        int
	} `json:"buckets"`
	Rows  []map[string]any `json:"rows"`
	Value any              `json:"value"`
	Stats map[string]any   `json:"stats"`
	Count int              `json:"count"`
	// Total and TotalAtLeast are the counts over the whole answer.
	Total        *int64   `json:"total"`
	TotalAtLeast *int64   `json:"total_at_least"`
	Truncated    bool     `json:"truncated"`
	Notes        []string `json:"notes"`
}

// answerGroup is one group of an aggregate's answer.
type answerGroup struct {
	Group   any            `json:"group"`
	Display map[string]any `json:"display"`
	Value   float64        `json:"value"`
	Count   int64          `json:"count"`
}

func (f *netHTTP) call(t *testing.T, tool, args string) result {
	t.Helper()
	return f.callOpts(t, engine.Call{Name: tool, Arguments: json.RawMessage(args)})
}

func (f *netHTTP) callOpts(t *testing.T, c engine.Call) result {
	t.Helper()
	r, err := f.e.Execute(context.Background(), c)
	if err != nil {
		t.Fatalf("%s %s: %v", c.Name, c.Arguments, err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out result
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func (r result) ids() []string {
	out := make([]string, len(r.Entities))
	for i, e := range r.Entities {
		out[i] = fmt.Sprint(e.ID)
	}
	return out
}

func lineCount(s fixture.Scope) int { return s.EndLine - s.StartLine + 1 }

// topScopes sorts scopes by key (then uuid, the planner's tie-break) and
// returns the first n uuids.
func topScopes(scopes []fixture.Scope, keep func(fixture.Scope) bool, less func(a, b fixture.Scope) int, n int) []string {
	var sel []fixture.Scope
	for _, s := range scopes {
		if keep(s) {
			sel = append(sel, s)
		}
	}
	slices.SortFunc(sel, func(a, b fixture.Scope) int {
		if c := less(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.UUID, b.UUID)
	})
	var out []string
	for i := 0; i < len(sel) && i < n; i++ {
		out = append(out, sel[i].UUID)
	}
	return out
}

func byUUID(a, b fixture.Scope) int { return 0 }

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %d %v\nwant %d %v", what, len(got), head(got), len(want), head(want))
	}
}

func head(s []string) []string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// TestExecuteAnswersEqualTheParsedSource runs every tool and mode on the
// net/http fixture and compares the answer with the one computed in Go
// from the parsed source.
func TestExecuteAnswersEqualTheParsedSource(t *testing.T) {
	f := loadNetHTTP(t, engine.Options{})
	g := f.g

	t.Run("query_entities: ten largest functions by line_count", func(t *testing.T) {
		r := f.call(t, planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"type","operator":"=","value":"function"}],"order_by":{"field":"line_count","direction":"DESC"},"limit":10}`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return s.Type == "function" },
			func(a, b fixture.Scope) int { return lineCount(b) - lineCount(a) }, 10)
		same(t, "largest functions", r.ids(), want)
		if !r.Truncated {
			t.Error("truncated is false though net/http has more than 10 functions")
		}
		if lc := r.Entities[0].Computed["line_count"]; lc == nil {
			t.Errorf("the sort field is not among the computed values: %v", r.Entities[0].Computed)
		}
	})
	t.Run("query_entities: paging with offset neither repeats nor skips", func(t *testing.T) {
		var got []string
		for off := 0; off < 30; off += 10 {
			r := f.call(t, planner.QueryEntities, fmt.Sprintf(`{"entity_type":"Scope","conditions":[{"field":"type","operator":"=","value":"const"}],"order_by":{"field":"name"},"limit":10,"offset":%d}`, off))
			got = append(got, r.ids()...)
		}
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return s.Type == "const" },
			func(a, b fixture.Scope) int { return strings.Compare(a.Name, b.Name) }, 30)
		same(t, "three pages of consts by name", got, want)
	})
	t.Run("text_pattern_search regex: names matching ^Parse.*", func(t *testing.T) {
		r := f.call(t, planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"Parse.*","mode":"regex","case_sensitive":true,"limit":50}`)
		re := regexp.MustCompile(`^Parse.*$`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return re.MatchString(s.Name) }, byUUID, 50)
		same(t, "regex", r.ids(), want)
	})
	t.Run("text_pattern_search regex ignoring case", func(t *testing.T) {
		r := f.call(t, planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"parse[a-z]*time","mode":"regex","limit":50}`)
		re := regexp.MustCompile(`(?i)^parse[a-z]*time$`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return re.MatchString(s.Name) }, byUUID, 50)
		same(t, "regex (?i)", r.ids(), want)
		if len(want) == 0 {
			t.Error("the oracle found nothing; the case proves little")
		}
	})
	t.Run("text_pattern_search glob: **/internal/**/*_test.go", func(t *testing.T) {
		r := f.call(t, planner.TextPatternSearch, `{"entity_type":"File","field":"path","pattern":"**/internal/**/*_test.go","mode":"glob","case_sensitive":true,"limit":50}`)
		var want []string
		for _, fl := range g.Files {
			if ok, _ := doublestar.Match("**/internal/**/*_test.go", fl.Path); ok {
				want = append(want, fl.Path)
			}
		}
		sort.Strings(want)
		if len(want) > 50 {
			want = want[:50]
		}
		same(t, "glob", r.ids(), want)
		if len(want) == 0 {
			t.Error("net/http has no internal test files; the case proves nothing")
		}
	})
	t.Run("text_pattern_search glob: * does not cross directories", func(t *testing.T) {
		r := f.call(t, planner.TextPatternSearch, `{"entity_type":"File","field":"path","pattern":"net/http/*.go","mode":"glob","limit":50}`)
		for _, id := range r.ids() {
			if strings.Count(id, "/") != 2 {
				t.Errorf("%s matched net/http/*.go", id)
			}
		}
	})
	t.Run("text_pattern_search contains and starts_with", func(t *testing.T) {
		r := f.call(t, planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"header","mode":"contains","limit":50}`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return strings.Contains(strings.ToLower(s.Name), "header") }, byUUID, 50)
		same(t, "contains ignoring case", r.ids(), want)
		r = f.call(t, planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"Serve","mode":"starts_with","case_sensitive":true,"limit":50}`)
		want = topScopes(g.Scopes, func(s fixture.Scope) bool { return strings.HasPrefix(s.Name, "Serve") }, byUUID, 50)
		same(t, "starts_with", r.ids(), want)
	})
	t.Run("text_pattern_search fuzzy through the full-text index", func(t *testing.T) {
		r := f.call(t, planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"ServeHTTq","mode":"fuzzy","limit":50}`)
		found := false
		for _, e := range r.Entities {
			if e.Properties["name"] == "ServeHTTP" {
				found = true
			}
		}
		if !found {
			t.Errorf("fuzzy ServeHTTq did not find ServeHTTP: %v", r.ids())
		}
	})
	t.Run("number_range_search between: scopes of 50 ± 10 lines", func(t *testing.T) {
		r := f.call(t, planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"between","value":40,"upper_value":60,"limit":50}`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return lineCount(s) >= 40 && lineCount(s) <= 60 },
			func(a, b fixture.Scope) int { return lineCount(a) - lineCount(b) }, 50)
		same(t, "between", r.ids(), want)
	})
	t.Run("number_range_search approximately: nearest first", func(t *testing.T) {
		r := f.call(t, planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"approximately","value":50,"limit":50}`)
		dist := func(s fixture.Scope) float64 { return math.Abs(float64(lineCount(s)) - 50) }
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return dist(s) <= 5 },
			func(a, b fixture.Scope) int { return int(dist(a) - dist(b)) }, 50)
		same(t, "approximately", r.ids(), want)
	})
	t.Run("number_range_search rounded_equal", func(t *testing.T) {
		r := f.call(t, planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"rounded_equal","value":123,"round_to":50,"limit":50}`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return lineCount(s) >= 100 && lineCount(s) < 150 },
			func(a, b fixture.Scope) int { return lineCount(a) - lineCount(b) }, 50)
		same(t, "rounded_equal", r.ids(), want)
	})
	t.Run("number_range_search percentile and outlier", func(t *testing.T) {
		var lcs []float64
		for _, s := range g.Scopes {
			lcs = append(lcs, float64(lineCount(s)))
		}
		sort.Float64s(lcs)
		// percentileCont: linear interpolation at rank p*(n-1).
		rank := 0.99 * float64(len(lcs)-1)
		lo := int(math.Floor(rank))
		thr := lcs[lo] + (rank-float64(lo))*(lcs[min(lo+1, len(lcs)-1)]-lcs[lo])
		r := f.call(t, planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"percentile","percentile":99,"limit":50}`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return float64(lineCount(s)) >= thr },
			func(a, b fixture.Scope) int { return lineCount(b) - lineCount(a) }, 50)
		same(t, "percentile 99", r.ids(), want)
		if got, _ := r.Stats["threshold"].(float64); math.Abs(got-thr) > 1e-9 {
			t.Errorf("threshold %v, want %v", got, thr)
		}
		var sum, sq float64
		for _, x := range lcs {
			sum += x
		}
		mean := sum / float64(len(lcs))
		for _, x := range lcs {
			sq += (x - mean) * (x - mean)
		}
		sd := math.Sqrt(sq / float64(len(lcs)))
		r = f.call(t, planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"outlier","k":3,"limit":50}`)
		dev := func(s fixture.Scope) float64 { return math.Abs(float64(lineCount(s)) - mean) }
		want = topScopes(g.Scopes, func(s fixture.Scope) bool { return dev(s) > 3*sd },
			func(a, b fixture.Scope) int { return lineCount(b) - lineCount(a) }, 50)
		same(t, "outlier k=3", r.ids(), want)
	})
	t.Run("number_range_search histogram", func(t *testing.T) {
		r := f.call(t, planner.NumberRangeSearch, `{"entity_type":"File","field":"lines","operator":"histogram","bucket_width":500}`)
		want := map[int]int{}
		for _, fl := range g.Files {
			want[fl.Lines/500]++
		}
		got := map[int]int{}
		for _, b := range r.Buckets {
			got[int(b.Lower)/500] = b.Count
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("histogram by 500 lines: got %v want %v", got, want)
		}
		r = f.call(t, planner.NumberRangeSearch, `{"entity_type":"File","field":"lines","operator":"histogram","buckets":4}`)
		total := 0
		for _, b := range r.Buckets {
			total += b.Count
		}
		if total != len(g.Files) || len(r.Buckets) != 4 {
			t.Errorf("4 buckets hold %d files in %d buckets, want %d", total, len(r.Buckets), len(g.Files))
		}
		r = f.call(t, planner.NumberRangeSearch, `{"entity_type":"File","field":"lines","operator":"histogram","buckets":40}`)
		empty, total := 0, 0
		for _, b := range r.Buckets {
			total += b.Count
			if b.Count == 0 {
				empty++
			}
		}
		if len(r.Buckets) != 40 || total != len(g.Files) || empty == 0 {
			t.Errorf("40 buckets: %d buckets, %d files (want %d), %d empty", len(r.Buckets), total, len(g.Files), empty)
		}
	})
	t.Run("aggregate_entities: counts and average line_count by type", func(t *testing.T) {
		r := f.call(t, planner.AggregateEntities, `{"entity_type":"Scope","operation":"COUNT","group_by":"type","limit":50}`)
		cnt := map[string]float64{}
		sum := map[string]float64{}
		for _, s := range g.Scopes {
			cnt[s.Type]++
			sum[s.Type] += float64(lineCount(s))
		}
		got := map[string]float64{}
		for _, gr := range r.Groups {
			got[fmt.Sprint(gr.Group)] = gr.Value
		}
		if fmt.Sprint(got) != fmt.Sprint(cnt) {
			t.Errorf("count by type: got %v want %v", got, cnt)
		}
		r = f.call(t, planner.AggregateEntities, `{"entity_type":"Scope","operation":"AVG","field":"line_count","group_by":"type","limit":50}`)
		for _, gr := range r.Groups {
			ty := fmt.Sprint(gr.Group)
			if want := sum[ty] / cnt[ty]; math.Abs(gr.Value-want) > 1e-9 {
				t.Errorf("avg line_count of %s: got %v want %v", ty, gr.Value, want)
			}
		}
		r = f.call(t, planner.AggregateEntities, `{"entity_type":"File","operation":"MAX","field":"lines"}`)
		maxLines := 0
		for _, fl := range g.Files {
			maxLines = max(maxLines, fl.Lines)
		}
		if v, _ := r.Value.(float64); int(v) != maxLines {
			t.Errorf("max lines %v, want %d", r.Value, maxLines)
		}
	})
	t.Run("enum_filter_search", func(t *testing.T) {
		r := f.call(t, planner.EnumFilterSearch, `{"entity_type":"Scope","field":"type","values":["interface"],"limit":50}`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return s.Type == "interface" }, byUUID, 50)
		same(t, "interfaces", r.ids(), want)
	})
	t.Run("get_entity_by_id shortens long text unless verbose", func(t *testing.T) {
		big := topScopes(g.Scopes, func(s fixture.Scope) bool { return len(s.Source) > 5000 }, byUUID, 1)[0]
		r := f.call(t, planner.GetEntityByID, fmt.Sprintf(`{"entity_type":"Scope","id_value":%q}`, big))
		src, _ := r.Entities[0].Properties["source"].(string)
		if len([]rune(src)) > engine.DefaultMaxString+1 || len(r.Notes) == 0 {
			t.Errorf("source of %d runes, notes %v", len([]rune(src)), r.Notes)
		}
		r = f.callOpts(t, engine.Call{Name: planner.GetEntityByID, Arguments: json.RawMessage(fmt.Sprintf(`{"entity_type":"Scope","id_value":%q}`, big)), Verbose: true})
		src, _ = r.Entities[0].Properties["source"].(string)
		for _, s := range g.Scopes {
			if s.UUID == big && s.Source != src {
				t.Errorf("verbose source differs from the parsed source")
			}
		}
		if _, ok := r.Entities[0].Computed["line_count"]; !ok {
			t.Errorf("computed fields missing: %v", r.Entities[0].Computed)
		}
	})
	t.Run("explore_relationships: declarations of server.go", func(t *testing.T) {
		r := f.call(t, planner.ExploreRelationships, `{"start_entity_type":"File","start_conditions":[{"field":"path","operator":"=","value":"net/http/server.go"}],"relationship_type":"CONTAINS","target_entity_type":"Scope","limit":50}`)
		want := topScopes(g.Scopes, func(s fixture.Scope) bool { return s.File == "net/http/server.go" }, byUUID, 50)
		same(t, "scopes of server.go", r.ids(), want)
		for _, e := range r.Entities {
			if e.EntityType != "Scope" || e.FromID != "net/http/server.go" || e.Depth != 1 {
				t.Fatalf("entity %+v", e)
			}
		}
	})
	t.Run("datetime_range_search relative and the computed modified_at", func(t *testing.T) {
		from := time.Date(f.now.Year(), f.now.Month(), f.now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -7)
		var want []string
		latest := map[string]time.Time{}
		for id, ts := range f.changes {
			for _, x := range ts {
				if x.After(latest[id]) {
					latest[id] = x
				}
			}
		}
		type kv struct {
			id string
			t  time.Time
		}
		var list []kv
		for id, x := range latest {
			if !x.Before(from) {
				list = append(list, kv{id, x})
			}
		}
		sort.Slice(list, func(i, j int) bool {
			if !list[i].t.Equal(list[j].t) {
				return list[i].t.After(list[j].t)
			}
			return list[i].id < list[j].id
		})
		for _, x := range list {
			want = append(want, x.id)
		}
		r := f.call(t, planner.DatetimeRangeSearch, `{"entity_type":"Scope","field":"modified_at","relative_period":"last_7_days","precision":"day","limit":50}`)
		same(t, "scopes changed in the last 7 days (day precision)", r.ids(), want)
		r = f.call(t, planner.DatetimeRangeSearch, fmt.Sprintf(`{"entity_type":"Change","field":"timestamp","mode":"after","datetime":%q,"limit":50}`, from.Format(time.RFC3339)))
		n := 0
		for _, ts := range f.changes {
			for _, x := range ts {
				if x.Truncate(time.Second).After(from) {
					n++
				}
			}
		}
		if r.Count != min(n, 50) {
			t.Errorf("changes after %s: %d, want %d", from, r.Count, n)
		}
	})
	t.Run("fulltext_search escapes Lucene syntax", func(t *testing.T) {
		r := f.call(t, planner.FulltextSearch, `{"entity_type":"Scope","query":"ServeHTTP","fields":["name"],"limit":50}`)
		for _, e := range r.Entities {
			if !strings.EqualFold(fmt.Sprint(e.Properties["name"]), "ServeHTTP") {
				t.Errorf("%v matched ServeHTTP on name", e.Properties["name"])
			}
		}
		if r.Count == 0 {
			t.Error("no ServeHTTP")
		}
		for _, q := range []string{`name:(`, `"unclosed`, `a AND`, `*wild?`, `\`, `[1 TO`} {
			if _, err := f.e.Execute(context.Background(), engine.Call{Name: planner.FulltextSearch, Arguments: json.RawMessage(fmt.Sprintf(`{"entity_type":"Scope","query":%q}`, q))}); err != nil {
				t.Errorf("query %q: %v", q, err)
			}
		}
	})
	t.Run("run_cypher reads and refuses writes, LOAD CSV and procedures outside the allowlist", func(t *testing.T) {
		r := f.call(t, planner.RunCypher, `{"query":"MATCH (f:File) RETURN f.path AS path ORDER BY path LIMIT 3"}`)
		if r.Count != 3 {
			t.Errorf("rows %d", r.Count)
		}
		for _, q := range []string{
			"CREATE (:Scope {name: 'x'})",
			"MATCH (n) DETACH DELETE n",
			"MATCH (n:Scope) SET n.name = 'x'",
			"LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
			"CALL dbms.components()",
			"CALL db.createLabel('X')",
			"EXPLAIN MATCH (n) RETURN n",
		} {
			_, err := f.e.Execute(context.Background(), engine.Call{Name: planner.RunCypher, Arguments: json.RawMessage(fmt.Sprintf(`{"query":%q}`, q))})
			var ce *tools.CallError
			if !errorsAs(err, &ce) {
				t.Errorf("%q: got %v, want a CallError", q, err)
			}
		}
		r = f.call(t, planner.RunCypher, `{"query":"CALL db.labels() YIELD label RETURN label ORDER BY label"}`)
		if r.Count == 0 {
			t.Error("db.labels returned nothing")
		}
		r = f.call(t, planner.RunCypher, `{"query":"UNWIND range(1, 100000) AS x RETURN x"}`)
		if r.Count != engine.DefaultMaxRows || !r.Truncated {
			t.Errorf("row cap: %d rows, truncated %v", r.Count, r.Truncated)
		}
	})
	t.Run("the remaining modes: ends_with, exact, equal, gt, gte, lt, lte, not_in, SUM, MIN", func(t *testing.T) {
		lc := func(s fixture.Scope) int { return lineCount(s) }
		asc := func(a, b fixture.Scope) int { return lc(a) - lc(b) }
		desc := func(a, b fixture.Scope) int { return lc(b) - lc(a) }
		for _, c := range []struct {
			tool, args string
			keep       func(fixture.Scope) bool
			less       func(a, b fixture.Scope) int
		}{
			{planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"handler","mode":"ends_with","limit":50}`, func(s fixture.Scope) bool { return strings.HasSuffix(strings.ToLower(s.Name), "handler") }, byUUID},
			{planner.TextPatternSearch, `{"entity_type":"Scope","field":"name","pattern":"ServeHTTP","mode":"exact","case_sensitive":true,"limit":50}`, func(s fixture.Scope) bool { return s.Name == "ServeHTTP" }, byUUID},
			{planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"equal","value":77,"limit":50}`, func(s fixture.Scope) bool { return lc(s) == 77 }, asc},
			{planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"gt","value":300,"limit":50}`, func(s fixture.Scope) bool { return lc(s) > 300 }, asc},
			{planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"gte","value":300,"limit":50}`, func(s fixture.Scope) bool { return lc(s) >= 300 }, asc},
			{planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"lt","value":3,"limit":50}`, func(s fixture.Scope) bool { return lc(s) < 3 }, desc},
			{planner.NumberRangeSearch, `{"entity_type":"Scope","field":"line_count","operator":"lte","value":2,"limit":50}`, func(s fixture.Scope) bool { return lc(s) <= 2 }, desc},
			{planner.EnumFilterSearch, `{"entity_type":"Scope","field":"type","values":["function","method","var","const"],"exclude":true,"limit":50}`, func(s fixture.Scope) bool { return s.Type == "type" || s.Type == "interface" }, byUUID},
		} {
			r := f.call(t, c.tool, c.args)
			same(t, c.args, r.ids(), topScopes(g.Scopes, c.keep, c.less, 50))
		}
		var sum, minLines float64 = 0, math.MaxFloat64
		for _, s := range g.Scopes {
			if s.Type == "method" {
				sum += float64(lineCount(s))
			}
		}
		for _, fl := range g.Files {
			minLines = math.Min(minLines, float64(fl.Lines))
		}
		if r := f.call(t, planner.AggregateEntities, `{"entity_type":"Scope","operation":"SUM","field":"line_count","conditions":[{"field":"type","operator":"=","value":"method"}]}`); r.Value != sum {
			t.Errorf("SUM line_count of methods: %v, want %v", r.Value, sum)
		}
		if r := f.call(t, planner.AggregateEntities, `{"entity_type":"File","operation":"MIN","field":"lines"}`); r.Value != minLines {
			t.Errorf("MIN lines: %v, want %v", r.Value, minLines)
		}
	})
	t.Run("explore_relationships depth 2 incoming: the directory above a method's file", func(t *testing.T) {
		// ServeHTTP methods: incoming CONTAINS reaches their file and
		// receiver type at depth 1, and the file's directory (and the
		// type's file) at depth 2: one Directory row per start.
		r := f.call(t, planner.ExploreRelationships, `{"start_entity_type":"Scope","start_conditions":[{"field":"file","operator":"=","value":"net/http/server.go"},{"field":"name","operator":"=","value":"ServeHTTP"}],"relationship_type":"CONTAINS","direction":"incoming","depth":2,"limit":50}`)
		dirs := 0
		for _, e := range r.Entities {
			switch e.EntityType {
			case "Directory":
				dirs++
				if e.ID != "net/http" || e.Depth != 2 {
					t.Errorf("reached %+v", e)
				}
			case "File", "Scope":
			default:
				t.Errorf("reached %+v", e)
			}
		}
		n := 0
		for _, s := range g.Scopes {
			if s.File == "net/http/server.go" && s.Name == "ServeHTTP" {
				n++
			}
		}
		if dirs != n {
			t.Errorf("%d directories reached at depth 2, want one per ServeHTTP of server.go (%d)", dirs, n)
		}
	})
	t.Run("fulltext_search fuzzy tolerates typos", func(t *testing.T) {
		r := f.call(t, planner.FulltextSearch, `{"entity_type":"Scope","query":"SrveHTTP","fields":["name"],"fuzzy":true,"limit":50}`)
		if !slices.ContainsFunc(r.Entities, func(e entity) bool {
			return e.Properties["name"] == "ServeHTTP"
		}) {
			t.Errorf("SrveHTTP~ did not find ServeHTTP: %v", r.ids())
		}
	})
	t.Run("validation errors name the valid choices", func(t *testing.T) {
		_, err := f.e.Execute(context.Background(), engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(`{"entity_type":"Scope","conditions":[{"field":"nam","operator":"=","value":"x"}]}`)})
		var ce *tools.CallError
		if !errorsAs(err, &ce) || len(ce.Problems) == 0 || !slices.Contains(ce.Problems[0].Valid, "name") {
			t.Fatalf("got %v", err)
		}
	})
}

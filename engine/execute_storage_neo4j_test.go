package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

func newEngine(t *testing.T, d neo4j.DriverWithContext, cfg string, opts engine.Options) *engine.Engine {
	t.Helper()
	m, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts.Driver = d
	opts.Database = neo4jtest.Database()
	e, err := engine.New(t.Context(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func execJSON(t *testing.T, e *engine.Engine, tool, args string) result {
	t.Helper()
	r, err := e.Execute(context.Background(), engine.Call{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	b, _ := json.Marshal(r)
	var out result
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDatetimeStoragesCompareAsInstants stores the same instants as epoch
// milliseconds (Artifact), ISO strings with various offsets (Source),
// epoch seconds (File.mtime) and DATETIME values in various zones
// (Change.timestamp), and checks before/after/between/relative select the
// same entities whatever the storage.
func TestDatetimeStoragesCompareAsInstants(t *testing.T) {
	d := neo4jtest.Open(t)
	now := time.Now().UTC()
	instants := []time.Time{
		time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC),
		time.Date(2025, 3, 1, 23, 59, 59, 0, time.UTC),
		time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC),
		time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC),
		now.Add(-2 * time.Hour).Truncate(time.Second),
		now.Add(-10 * 24 * time.Hour).Truncate(time.Second),
	}
	zones := []*time.Location{time.UTC, time.FixedZone("", 2*3600), time.FixedZone("", -5*3600), time.FixedZone("", -18*3600), time.FixedZone("", 14*3600)}
	var rows []map[string]any
	for i, x := range instants {
		rows = append(rows, map[string]any{"key": fmt.Sprintf("k%d", i), "ms": x.UnixMilli(), "s": x.Unix(),
			"iso": x.In(zones[i%len(zones)]).Format(time.RFC3339)})
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS r
		CREATE (:Artifact {entity_key: r.key, user_id: 'u', updated_at: r.ms, description: 'a'})
		CREATE (:Source {entity_key: r.key, user_id: 'u', updated_at: r.iso, description: 's'})
		CREATE (:File {path: r.key, name: r.key, mtime: r.s})
		CREATE (:Change {uuid: r.key, timestamp: datetime(r.iso), kind: 'edit'})`, map[string]any{"rows": rows})
	// A value that is no ISO datetime matches nothing instead of failing
	// every call on the field.
	neo4jtest.Run(t, d, "CREATE (:Source {entity_key: 'bad', user_id: 'u', updated_at: 'last tuesday', description: 's'})", nil)
	mem := newEngine(t, d, "../testdata/configs/valid/memory-graph.yaml", engine.Options{Tenant: "u", Tools: tools.Options{Aggregations: true, Capabilities: &tools.Capabilities{}}})
	tree := newEngine(t, d, "../testdata/configs/valid/file-tree.yaml", engine.Options{Tools: tools.Options{Capabilities: &tools.Capabilities{}}})
	code := newEngine(t, d, "../testdata/configs/valid/code-rag.yaml", engine.Options{Tools: tools.Options{Capabilities: &tools.Capabilities{}}})
	want := func(keep func(time.Time) bool) []string {
		type kv struct {
			k string
			t time.Time
		}
		var l []kv
		for i, x := range instants {
			if keep(x) {
				l = append(l, kv{fmt.Sprintf("k%d", i), x})
			}
		}
		slices.SortFunc(l, func(a, b kv) int {
			if c := b.t.Compare(a.t); c != 0 {
				return c
			}
			return strings.Compare(a.k, b.k)
		})
		var out []string
		for _, x := range l {
			out = append(out, x.k)
		}
		return out
	}
	day0 := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	cases := []struct {
		args string
		keep func(time.Time) bool
	}{
		{`"mode":"after","datetime":"2025-03-01T23:59:59Z"`, func(x time.Time) bool { return x.After(time.Date(2025, 3, 1, 23, 59, 59, 0, time.UTC)) }},
		{`"mode":"before","datetime":"2025-03-02T01:00:00+01:00"`, func(x time.Time) bool { return x.Before(time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC)) }},
		{`"mode":"after","datetime":"2025-03-01","precision":"day"`, func(x time.Time) bool { return !x.Before(time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC)) }},
		{`"mode":"between","start_datetime":"2025-03-01","end_datetime":"2025-03-01","precision":"day"`, func(x time.Time) bool {
			return x.Year() == 2025 && x.Month() == 3 && x.Day() == 1
		}},
		{`"mode":"relative","relative_period":"last_7_days","precision":"day"`, func(x time.Time) bool { return !x.Before(day0.AddDate(0, 0, -7)) }},
		{`"mode":"relative","relative_period":"this_year"`, func(x time.Time) bool { return x.Year() == now.Year() }},
	}
	for _, c := range cases {
		w := want(c.keep)
		for _, target := range []struct {
			e      *engine.Engine
			entity string
		}{{mem, "Artifact"}, {mem, "Source"}, {tree, "File"}, {code, "Change"}} {
			field := map[string]string{"File": "mtime", "Change": "timestamp"}[target.entity]
			if field == "" {
				field = "updated_at"
			}
			r := execJSON(t, target.e, planner.DatetimeRangeSearch, fmt.Sprintf(`{"entity_type":%q,"field":%q,%s,"limit":50}`, target.entity, field, c.args))
			if got := r.ids(); !slices.Equal(got, w) {
				t.Errorf("%s.%s {%s}: got %v want %v", target.entity, field, c.args, got, w)
			}
		}
	}
	// query_entities conditions on an ISO-string field compare instants too.
	r := execJSON(t, mem, planner.QueryEntities, `{"entity_type":"Source","conditions":[{"field":"updated_at","operator":">=","value":"2025-03-02T00:00:00Z"}],"limit":50}`)
	if got := len(r.ids()); got != len(want(func(x time.Time) bool { return !x.Before(time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC)) })) {
		t.Errorf("ISO >= : %d entities (%v)", got, r.ids())
	}
}

// TestDistanceSearchNearestFirst checks distance_search on a point field
// against the haversine distance computed in Go.
func TestDistanceSearchNearestFirst(t *testing.T) {
	d := neo4jtest.Open(t)
	places := map[string][2]float64{"louvre": {48.8606, 2.3376}, "eiffel": {48.8584, 2.2945}, "versailles": {48.8049, 2.1204}, "lyon": {45.764, 4.8357}}
	for id, p := range places {
		neo4jtest.Run(t, d, "CREATE (:Place {place_id: $id, name: $id, location: point({latitude: $lat, longitude: $lon})})", map[string]any{"id": id, "lat": p[0], "lon": p[1]})
	}
	e := newEngine(t, d, "../testdata/planner/configs/places.yaml", engine.Options{Tools: tools.Options{Capabilities: &tools.Capabilities{}}})
	r := execJSON(t, e, planner.DistanceSearch, `{"entity_type":"Place","field":"location","latitude":48.8566,"longitude":2.3522,"radius_km":25}`)
	if got := r.ids(); !slices.Equal(got, []string{"louvre", "eiffel", "versailles"}) {
		t.Errorf("within 25 km of Paris: %v", got)
	}
	res, _ := e.Execute(context.Background(), engine.Call{Name: planner.DistanceSearch, Arguments: json.RawMessage(`{"entity_type":"Place","field":"location","latitude":48.8566,"longitude":2.3522,"radius_km":25}`)})
	hav := func(a, b [2]float64) float64 {
		rad := math.Pi / 180
		dlat, dlon := (b[0]-a[0])*rad, (b[1]-a[1])*rad
		h := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(a[0]*rad)*math.Cos(b[0]*rad)*math.Sin(dlon/2)*math.Sin(dlon/2)
		return 2 * 6378.14 * math.Asin(math.Sqrt(h))
	}
	for _, ent := range res.Entities {
		want := hav([2]float64{48.8566, 2.3522}, places[ent.ID.(string)])
		if math.Abs(*ent.DistanceKm-want) > 0.05*want+0.01 {
			t.Errorf("%s: %.3f km, haversine %.3f km", ent.ID, *ent.DistanceKm, want)
		}
		if loc, ok := ent.Properties["location"].(map[string]any); !ok || loc["latitude"] == nil {
			t.Errorf("location is not {latitude, longitude}: %v", ent.Properties["location"])
		}
	}
}

// TestSemanticSearchUsesTheEmbedderAndTheVectorIndex runs semantic_search
// on a real vector index with an embedder that maps a word to a fixed
// direction.
func TestSemanticSearchUsesTheEmbedderAndTheVectorIndex(t *testing.T) {
	d := neo4jtest.Open(t)
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	vi := m.Entity("Concept").VectorIndexes[0]
	vec := func(axis int, noise float64) []float64 {
		v := make([]float64, vi.Dimensions)
		v[axis] = 1
		v[(axis+1)%vi.Dimensions] = noise
		return v
	}
	for i, name := range []string{"gardening", "chess", "sailing", "chess club"} {
		axis := []int{0, 1, 2, 1}[i]
		neo4jtest.Run(t, d, "CREATE (:Concept {entity_key: $k, user_id: 'u', name: $k, description: $k, "+vi.Property+": $v})", map[string]any{"k": name, "v": vec(axis, 0.1*float64(i))})
	}
	neo4jtest.Run(t, d, fmt.Sprintf("CREATE VECTOR INDEX %s IF NOT EXISTS FOR (n:Concept) ON n.%s OPTIONS {indexConfig: {`vector.dimensions`: %d, `vector.similarity_function`: 'cosine'}}", vi.Name, vi.Property, vi.Dimensions), nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(120)", nil)
	var asked string
	e := newEngine(t, d, "../testdata/configs/valid/memory-graph.yaml", engine.Options{
		Tenant: "u",
		Tools:  tools.Options{Capabilities: &tools.Capabilities{}},
		Embedder: engine.EmbedderFunc(func(ctx context.Context, text string, index *model.VectorIndex) ([]float32, error) {
			asked = index.Name
			v := make([]float32, index.Dimensions)
			if strings.Contains(text, "chess") {
				v[1] = 1
			} else {
				v[0] = 1
			}
			return v, nil
		}),
	})
	r := execJSON(t, e, planner.SemanticSearch, `{"entity_type":"Concept","query":"board games like chess","top_k":2,"min_score":0.5}`)
	if got := r.ids(); !slices.Equal(got, []string{"chess", "chess club"}) || asked != vi.Name {
		t.Errorf("got %v (index asked: %q)", got, asked)
	}
	for _, ent := range r.Entities {
		if ent.Score == nil || *ent.Score < 0.5 {
			t.Errorf("%v: score %v", ent.ID, ent.Score)
		}
		if _, ok := ent.Properties[vi.Property]; ok {
			t.Errorf("the embedding property was returned")
		}
	}
	r = execJSON(t, e, planner.SemanticSearch, `{"entity_type":"Concept","query":"chess","conditions":[{"field":"name","operator":"=","value":"chess club"}]}`)
	if got := r.ids(); !slices.Equal(got, []string{"chess club"}) {
		t.Errorf("with a condition: %v", got)
	}
}

// TestNeo4jValuesBecomeJSONFriendly returns every awkward Neo4j type
// through run_cypher and checks its JSON form.
func TestNeo4jValuesBecomeJSONFriendly(t *testing.T) {
	d := neo4jtest.Open(t)
	e := newEngine(t, d, "../testdata/configs/valid/code-rag.yaml", engine.Options{Tools: tools.Options{RawCypher: true, Capabilities: &tools.Capabilities{}}, MaxString: 10})
	r := execJSON(t, e, planner.RunCypher, `{"query":"RETURN date('2025-03-01') AS d, datetime('2025-03-01T10:00:00+02:00') AS dt, localdatetime('2025-03-01T10:00:00') AS ldt, localtime('10:00:01') AS lt, duration('P1DT2H') AS dur, point({latitude: 1.5, longitude: 2.5}) AS geo, point({x: 1.0, y: 2.0}) AS xy, 0.0/0.0 AS nan, 9007199254740993 AS big, range(1, 64) AS vector, range(1, 3) AS small, 'abcdefghijklmnopqrstuvwxyz' AS long"}`)
	row := r.Rows[0]
	for k, want := range map[string]any{
		"d": "2025-03-01", "dt": "2025-03-01T10:00:00+02:00", "ldt": "2025-03-01T10:00:00", "lt": "10:00:01",
		"nan": "NaN", "big": float64(9007199254740993), "long": "abcdefghij…",
	} {
		if fmt.Sprint(row[k]) != fmt.Sprint(want) {
			t.Errorf("%s = %v (%T), want %v", k, row[k], row[k], want)
		}
	}
	if !strings.HasPrefix(fmt.Sprint(row["dur"]), "P") {
		t.Errorf("duration %v", row["dur"])
	}
	if geo, _ := row["geo"].(map[string]any); geo["latitude"] != 1.5 || geo["longitude"] != 2.5 {
		t.Errorf("geo %v", row["geo"])
	}
	if xy, _ := row["xy"].(map[string]any); xy["x"] != 1.0 || xy["srid"] != float64(7203) {
		t.Errorf("xy %v", row["xy"])
	}
	if _, ok := row["vector"]; ok {
		t.Errorf("a 64-number list was returned")
	}
	if len(row["small"].([]any)) != 3 || len(r.Notes) < 2 {
		t.Errorf("small list %v, notes %v", row["small"], r.Notes)
	}
	// JSON keeps int64 exact.
	raw, _ := e.Execute(context.Background(), engine.Call{Name: planner.RunCypher, Arguments: json.RawMessage(`{"query":"RETURN 9007199254740993 AS big"}`)})
	b, _ := json.Marshal(raw)
	if !strings.Contains(string(b), "9007199254740993") {
		t.Errorf("int64 lost precision: %s", b)
	}
}

// TestCapabilitiesFollowTheServer checks detection: without the config's
// full-text index the catalog offers neither fulltext_search nor fuzzy on
// the indexed fields; with it online, both; APOC as the server has it.
func TestCapabilitiesFollowTheServer(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	caps, err := engine.DetectCapabilities(ctx, d, neo4jtest.Database(), m)
	if err != nil {
		t.Fatal(err)
	}
	if caps.FullText || caps.APOC != neo4jtest.HasAPOC(t, d) {
		t.Errorf("empty server: %+v", caps)
	}
	e := newEngine(t, d, "../testdata/configs/valid/code-rag.yaml", engine.Options{})
	if e.Tools().Tool(planner.FulltextSearch) != nil {
		t.Error("fulltext_search offered without the index")
	}
	neo4jtest.Run(t, d, "CREATE FULLTEXT INDEX scope_text IF NOT EXISTS FOR (n:Scope) ON EACH [n.name, n.signature, n.source]", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(60)", nil)
	e = newEngine(t, d, "../testdata/configs/valid/code-rag.yaml", engine.Options{})
	if !e.Capabilities().FullText || e.Tools().Tool(planner.FulltextSearch) == nil {
		t.Errorf("index online: %+v", e.Capabilities())
	}
	_, err = e.Execute(ctx, engine.Call{Name: planner.TextPatternSearch, Arguments: json.RawMessage(`{"entity_type":"Scope","field":"name","pattern":"x","mode":"fuzzy"}`)})
	if err != nil {
		t.Errorf("fuzzy on an indexed field: %v", err)
	}
	_, err = e.Execute(ctx, engine.Call{Name: planner.TextPatternSearch, Arguments: json.RawMessage(`{"entity_type":"File","field":"name","pattern":"x","mode":"fuzzy"}`)})
	var ce *tools.CallError
	if !caps.APOC && !errorsAs(err, &ce) {
		t.Errorf("fuzzy on an unindexed field without APOC: %v", err)
	}
}

// TestCustomToolsRunTheirHandler checks dispatch: the handler gets the
// validated arguments and its value is the result.
func TestCustomToolsRunTheirHandler(t *testing.T) {
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	e, err := engine.New(t.Context(), m, engine.Options{Tools: tools.Options{Capabilities: &tools.Capabilities{}, CustomTools: []tools.CustomTool{{
		Name: "weather", Description: "Weather in a city", ReadOnly: true,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			got = string(args)
			return map[string]any{"sunny": true}, nil
		},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Execute(context.Background(), engine.Call{Name: "weather", Arguments: json.RawMessage(`{"city":"Paris"}`)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	if string(b) != `{"sunny":true}` || !strings.Contains(got, "Paris") {
		t.Errorf("result %s, handler got %s", b, got)
	}
	if _, err := e.Execute(context.Background(), engine.Call{Name: "weather", Arguments: json.RawMessage(`{}`)}); err == nil {
		t.Error("missing city accepted")
	}
	if _, err := e.Execute(context.Background(), engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(`{"entity_type":"Scope"}`)}); err != engine.ErrNoDriver {
		t.Errorf("no driver: %v", err)
	}
}

package engine_test

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// airport is one airport of the flights config for the tests of issue 20
// item 3: a location (none when lat and lon are NaN) and an about text.
type airport struct {
	code, tenant string
	lat, lon     float64
	about        string
}

// hawaii are tenant a's airports around Honolulu and a few far away; b
// has one beside HNL (which must never show) and XYZ; NOL has no location.
var hawaii = []airport{
	{code: "HNL", tenant: "a", lat: 21.3187, lon: -157.9225},
	{code: "JRF", tenant: "a", lat: 21.3074, lon: -158.0703},
	{code: "NGF", tenant: "a", lat: 21.4505, lon: -157.7680},
	{code: "HDH", tenant: "a", lat: 21.5795, lon: -158.1972},
	{code: "MKK", tenant: "a", lat: 21.1529, lon: -157.0963},
	{code: "LNY", tenant: "a", lat: 20.7856, lon: -156.9514},
	{code: "OGG", tenant: "a", lat: 20.8986, lon: -156.4305},
	{code: "LIH", tenant: "a", lat: 21.9760, lon: -159.3390},
	{code: "SEA", tenant: "a", lat: 47.4502, lon: -122.3088},
	{code: "NOL", tenant: "a", lat: math.NaN(), lon: math.NaN()},
	{code: "B01", tenant: "b", lat: 21.3200, lon: -157.9200},
	{code: "XYZ", tenant: "b", lat: 21.3300, lon: -157.9300},
}

// haversineKm is the great-circle distance on the sphere Neo4j's
// point.distance uses for WGS-84 points (radius 6,378,140 m).
func haversineKm(a, b airport) float64 {
	rad := math.Pi / 180
	dlat, dlon := (b.lat-a.lat)*rad, (b.lon-a.lon)*rad
	h := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(a.lat*rad)*math.Cos(b.lat*rad)*math.Sin(dlon/2)*math.Sin(dlon/2)
	return 2 * 6378.14 * math.Asin(math.Sqrt(h))
}

// airportsEngine stores airports (and one flight from HNL) and returns an
// engine on the flights config bound to tenant a.
func airportsEngine(t *testing.T, airports []airport) *engine.Engine {
	t.Helper()
	d := neo4jtest.Open(t)
	var rows []map[string]any
	for _, a := range airports {
		r := map[string]any{"code": a.code, "tenant": a.tenant, "about": a.about}
		if !math.IsNaN(a.lat) {
			r["lat"], r["lon"] = a.lat, a.lon
		}
		rows = append(rows, r)
	}
	neo4jtest.Run(t, d, `UNWIND $rows AS r
		CREATE (a:Airport {code: r.code, user_id: r.tenant, name: r.code + ' airport', about: r.about})
		SET a.location = CASE WHEN r.lat IS NOT NULL THEN point({latitude: r.lat, longitude: r.lon}) END`, map[string]any{"rows": rows})
	neo4jtest.Run(t, d, "MATCH (a:Airport {code: 'HNL'}) CREATE (:Flight {flight_id: 'f1', user_id: 'a'})-[:DEPARTS_FROM]->(a)", nil)
	return newEngine(t, d, "../testdata/planner/configs/flights.yaml", engine.Options{Tenant: "a"})
}

// TestDistanceSearchFromAnEntity: airports within 100 km of HNL, asked by
// from, are the ones Go's haversine puts there, nearest first, HNL itself
// and the other tenant's left out; an origin the tenant lacks, or one
// without a location, is named in a note, which nothing near a real
// origin does not get.
func TestDistanceSearchFromAnEntity(t *testing.T) {
	e := airportsEngine(t, hawaii)
	hnl := hawaii[0]
	type near struct {
		code string
		km   float64
	}
	var want []near
	for _, a := range hawaii[1:] {
		if a.tenant != "a" || math.IsNaN(a.lat) {
			continue
		}
		km := haversineKm(hnl, a)
		if math.Abs(km-100) < 1 {
			t.Fatalf("%s is %.2f km from HNL: too near the radius for the comparison", a.code, km)
		}
		if km <= 100 {
			want = append(want, near{a.code, km})
		}
	}
	sort.Slice(want, func(i, j int) bool { return want[i].km < want[j].km })
	if len(want) < 3 {
		t.Fatalf("the fixture has only %d airports within 100 km of HNL", len(want))
	}
	r := execJSON(t, e, planner.DistanceSearch, `{"entity_type":"Airport","field":"location","from":{"entity_type":"Airport","id_value":"HNL"},"radius_km":100}`)
	if len(r.Entities) != len(want) {
		t.Fatalf("within 100 km of HNL: %v, want %v", r.ids(), want)
	}
	for i, ent := range r.Entities {
		if ent.ID != want[i].code || math.Abs(ent.DistanceKm-want[i].km) > 0.001*want[i].km {
			t.Errorf("%d: %v at %.3f km, want %s at %.3f km", i, ent.ID, ent.DistanceKm, want[i].code, want[i].km)
		}
	}
	if len(r.Notes) > 0 {
		t.Errorf("notes %q on a found origin", r.Notes)
	}
	for args, note := range map[string]string{
		`{"entity_type":"Airport","field":"location","from":{"entity_type":"Airport","id_value":"XYZ"},"radius_km":100}`: `no Airport has code "XYZ" with a location`,
		`{"entity_type":"Airport","field":"location","from":{"entity_type":"Airport","id_value":"NOL"},"radius_km":100}`: `no Airport has code "NOL" with a location`,
		`{"entity_type":"Airport","field":"location","from":{"entity_type":"Airport","id_value":"HNL"},"radius_km":1}`:   "",
	} {
		r := execJSON(t, e, planner.DistanceSearch, args)
		if len(r.Entities) != 0 || r.Count != 0 {
			t.Errorf("%s: %v", args, r.ids())
		}
		if got := strings.Join(r.Notes, "\n"); got != note {
			t.Errorf("%s: notes %q, want %q", args, got, note)
		}
	}
	for _, args := range []string{
		`{"entity_type":"Airport","field":"location","radius_km":100}`,
		`{"entity_type":"Airport","field":"location","latitude":21.3,"from":{"entity_type":"Airport","id_value":"HNL"},"radius_km":100}`,
		`{"entity_type":"Airport","field":"location","from":{"entity_type":"Flight","id_value":"f1"},"radius_km":100}`,
	} {
		var ce *tools.CallError
		if _, err := e.Execute(t.Context(), engine.Call{Name: planner.DistanceSearch, Arguments: []byte(args)}); !errorsAs(err, &ce) {
			t.Errorf("%s: %v, want a CallError", args, err)
		}
	}
}

// TestLookupsThatFindNothingSaySo: get_entity_by_id and an exploration
// whose start_conditions pin the unique field name the missing entity,
// with the closest codes of the tenant (b's XYZ is neither found nor
// named); a start that exists but reaches nothing gets no such note.
func TestLookupsThatFindNothingSaySo(t *testing.T) {
	e := airportsEngine(t, hawaii)
	for _, c := range []struct {
		tool, args, note string
		n                int
	}{
		{planner.GetEntityByID, `{"entity_type":"Airport","id_value":"NOPE"}`, `no Airport has code "NOPE"; closest values: "NOL"`, 0},
		{planner.GetEntityByID, `{"entity_type":"Airport","id_value":"XYZ"}`, `no Airport has code "XYZ"; no value is close`, 0},
		{planner.GetEntityByID, `{"entity_type":"Airport","id_value":"HNL"}`, "", 1},
		{planner.ExploreRelationships, `{"start_entity_type":"Airport","start_conditions":[{"field":"code","operator":"=","value":"NOPE"}],"relationship_types":["DEPARTS_FROM"],"direction":"incoming"}`, `no Airport has code "NOPE"; closest values: "NOL"`, 0},
		{planner.ExploreRelationships, `{"start_entity_type":"Airport","start_conditions":[{"field":"code","operator":"=","value":"NOPE"},{"field":"city","operator":"=","value":"x"}],"relationship_types":["DEPARTS_FROM"],"direction":"incoming"}`, `no Airport has code "NOPE" that passes the other start_conditions`, 0},
		{planner.ExploreRelationships, `{"start_entity_type":"Airport","start_conditions":[{"field":"city","operator":"=","value":"x"}],"relationship_types":["DEPARTS_FROM"],"direction":"incoming"}`, `no Airport passes start_conditions`, 0},
		{planner.ExploreRelationships, `{"start_entity_type":"Airport","start_conditions":[{"field":"code","operator":"=","value":"SEA"}],"relationship_types":["DEPARTS_FROM"],"direction":"incoming"}`, "", 0},
		{planner.ExploreRelationships, `{"start_entity_type":"Airport","start_conditions":[{"field":"code","operator":"=","value":"HNL"}],"relationship_types":["DEPARTS_FROM"],"direction":"incoming"}`, "", 1},
		{planner.GetEntityByID, `{"entity_type":"Airport","id_value":"NOPE","field":"about"}`, `no Airport has code "NOPE"; closest values: "NOL"`, 0},
	} {
		r := execJSON(t, e, c.tool, c.args)
		if got := strings.Join(r.Notes, "\n"); got != c.note || r.Count != c.n || len(r.Entities) != c.n {
			t.Errorf("%s %s: %d entities (count %d), notes %q; want %d, %q", c.tool, c.args, len(r.Entities), r.Count, got, c.n, c.note)
		}
	}
}

// TestTextPagesReassembleTheText: get_entity_by_id's pages of a long text
// (field; runes of one, two, three and four UTF-8 bytes) put together are
// the text, each at most the page cap, with the length in characters and
// the next offset; without field it shortens the same text and its note
// says how to read it whole.
func TestTextPagesReassembleTheText(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 150_000; i++ {
		b.WriteString([]string{"Honolulu ", "é ", "✈ ", "🛫 "}[i%4])
	}
	about := b.String()
	airports := slices.Clone(hawaii)
	airports[0].about = about
	e := airportsEngine(t, airports)
	runes := []rune(about)

	var got strings.Builder
	offset, calls := 0, 0
	for {
		r := execJSON(t, e, planner.GetEntityByID, `{"entity_type":"Airport","id_value":"HNL","field":"about","offset":`+strconv.Itoa(offset)+`}`)
		calls++
		if len(r.Entities) != 1 || len(r.Notes) > 0 {
			t.Fatalf("offset %d: %d entities, notes %q", offset, len(r.Entities), r.Notes)
		}
		page, _ := r.Entities[0].Properties["about"].(string)
		if n := len([]rune(page)); n > planner.MaxTextPage || n == 0 {
			t.Fatalf("offset %d: a page of %d characters", offset, n)
		}
		got.WriteString(page)
		if r.Stats["text_length"] != float64(len(runes)) {
			t.Fatalf("text_length %v, want %d", r.Stats["text_length"], len(runes))
		}
		next, more := r.Stats["next_offset"].(float64)
		if !more {
			break
		}
		if int(next) != offset+len([]rune(page)) {
			t.Fatalf("offset %d: next_offset %v after a page of %d", offset, next, len([]rune(page)))
		}
		offset = int(next)
	}
	if got.String() != about || calls != (len(runes)+planner.MaxTextPage-1)/planner.MaxTextPage {
		t.Errorf("%d pages reassemble %d of %d characters (equal %v)", calls, len([]rune(got.String())), len(runes), got.String() == about)
	}
	r := execJSON(t, e, planner.GetEntityByID, `{"entity_type":"Airport","id_value":"HNL","field":"about","offset":10,"length":7}`)
	if p := r.Entities[0].Properties["about"]; p != string(runes[10:17]) {
		t.Errorf("7 characters from 10: %q, want %q", p, string(runes[10:17]))
	}
	var ce *tools.CallError
	for _, args := range []string{
		`{"entity_type":"Airport","id_value":"HNL","field":"about","length":20001}`,
		`{"entity_type":"Airport","id_value":"HNL","field":"about","offset":-1}`,
		`{"entity_type":"Airport","id_value":"HNL","field":"location"}`,
		`{"entity_type":"Airport","id_value":"HNL","field":"nope"}`,
		`{"entity_type":"Airport","id_value":"HNL","field":"about","length":-3}`,
		`{"entity_type":"Airport","id_value":"HNL","offset":3}`,
	} {
		if _, err := e.Execute(t.Context(), engine.Call{Name: planner.GetEntityByID, Arguments: []byte(args)}); !errorsAs(err, &ce) {
			t.Errorf("%s: %v, want a CallError", args, err)
		}
	}
	r = execJSON(t, e, planner.GetEntityByID, `{"entity_type":"Airport","id_value":"HNL"}`)
	if s, _ := r.Entities[0].Properties["about"].(string); len([]rune(s)) != engine.DefaultMaxString+1 {
		t.Errorf("get_entity_by_id's about has %d characters, want %d and an ellipsis", len([]rune(s)), engine.DefaultMaxString)
	}
	if notes := strings.Join(r.Notes, "\n"); !strings.Contains(notes, "shortened") || !strings.Contains(notes, planner.GetEntityByID+" with field") {
		t.Errorf("notes %q do not say how to read the text whole", notes)
	}
}

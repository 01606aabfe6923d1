package planner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// flightsEngine is an engine over the flight graph bound to tenant a.
func flightsEngine(t *testing.T, d neo4j.DriverWithContext) *engine.Engine {
	t.Helper()
	e, err := engine.New(t.Context(), loadModel(t, "flights.yaml"), engine.Options{Driver: d, Database: neo4jtest.Database(), Tenant: "a"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// included is an entity of a result with what include added.
type included struct {
	ID         string                      `json:"id"`
	Related    map[string][]map[string]any `json:"related"`
	RelatedCut []string                    `json:"related_cut"`
}

// execIncluded runs a call and decodes its entities and notes.
func execIncluded(t *testing.T, e *engine.Engine, tool, args string) ([]included, []string) {
	t.Helper()
	res, err := e.Execute(context.Background(), engine.Call{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	b, _ := json.Marshal(res)
	var out struct {
		Entities []included `json:"entities"`
		Notes    []string   `json:"notes"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out.Entities, out.Notes
}

// inTenantA keeps the codes of tenant a's airports, each once, sorted.
func inTenantA(codes []string) []string {
	var out []string
	for _, c := range codes {
		if slices.Contains(aCodes, c) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// cityOf is the city of one of tenant a's airports.
func cityOf(code string) string { return aCities[slices.Index(aCodes, code)] }

// TestIncludeReturnsRelatedFieldsInTheTenant: query_entities with
// include returns, with each flight, the codes (and
// cities) of the airports it departs from and arrives at, as Go computes
// them from the graph it built: tenant b's airport a flight also arrives
// at is left out, an airport reached by parallel relationships is listed
// once, and the page (its rows and their order) is the one the call
// gives without include. Across the incoming direction an airport lists
// its departing flights, the first limit by id, and says where the limit
// cut the list; tenant b's flights from tenant a's airport stay out. The
// statements' plans are proven scoped to the tenant.
func TestIncludeReturnsRelatedFieldsInTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	g := loadFlights(t, d, 600)
	e := flightsEngine(t, d)
	f := newFixture(t, "flights.yaml", tools.Capabilities{})

	const page = `"entity_type":"Flight","order_by":[{"field":"delay","direction":"DESC"}],"limit":50,"offset":40`
	const include = `"include":[{"via":"DEPARTS_FROM"},{"via":"ARRIVES_AT","fields":["code","city"],"limit":3}]`
	plain, _ := execIncluded(t, e, planner.QueryEntities, "{"+page+"}")
	got, notes := execIncluded(t, e, planner.QueryEntities, "{"+page+","+include+"}")
	if len(got) != len(plain) || len(got) != 50 {
		t.Fatalf("%d entities with include, %d without", len(got), len(plain))
	}
	crossing, parallel := 0, 0
	for i, ent := range got {
		if ent.ID != plain[i].ID {
			t.Fatalf("entity %d is %s with include, %s without", i, ent.ID, plain[i].ID)
		}
		fl := g.byID[ent.ID]
		if len(fl.to) > len(inTenantA(fl.to)) {
			crossing++
		}
		if len(fl.from) > len(inTenantA(fl.from)) {
			parallel++
		}
		var from, to []map[string]any
		for _, c := range inTenantA(fl.from) {
			from = append(from, map[string]any{"code": c})
		}
		for _, c := range inTenantA(fl.to) {
			to = append(to, map[string]any{"code": c, "city": cityOf(c)})
		}
		want := map[string][]map[string]any{"DEPARTS_FROM": from, "ARRIVES_AT": to}
		if w, g := fmt.Sprint(want), fmt.Sprint(ent.Related); w != g {
			t.Errorf("%s: related %s, want %s", ent.ID, g, w)
		}
		if ent.RelatedCut != nil {
			t.Errorf("%s: related_cut %v, but no list is over its limit", ent.ID, ent.RelatedCut)
		}
	}
	if crossing == 0 || parallel == 0 {
		t.Fatalf("the page holds %d flights that also arrive in tenant b and %d with parallel departures; the test needs both", crossing, parallel)
	}
	if slices.Contains(notes, tools.IncludeCutNote()) {
		t.Errorf("notes %v say a related list was cut", notes)
	}

	// An airport's departing flights: incoming DEPARTS_FROM, cut at 3.
	departing := map[string][]string{}
	for _, fl := range g.flights {
		if fl.tenant != "a" {
			continue
		}
		for _, c := range inTenantA(fl.from) {
			departing[c] = append(departing[c], fl.id)
		}
	}
	airports, notes := execIncluded(t, e, planner.QueryEntities, `{"entity_type":"Airport","order_by":[{"field":"code"}],"limit":50,"include":[{"via":"DEPARTS_FROM","direction":"incoming","fields":["flight_id","delay"],"limit":3}]}`)
	if len(airports) != len(aCodes) {
		t.Fatalf("%d airports, want tenant a's %d", len(airports), len(aCodes))
	}
	for _, a := range airports {
		ids := departing[a.ID]
		slices.Sort(ids)
		var want []map[string]any
		for _, id := range ids[:min(3, len(ids))] {
			want = append(want, map[string]any{"flight_id": id, "delay": float64(g.byID[id].delay)})
		}
		if w, g := fmt.Sprint(want), fmt.Sprint(a.Related["DEPARTS_FROM"]); w != g {
			t.Errorf("%s: departing %s, want %s", a.ID, g, w)
		}
		if cut := len(ids) > 3; cut != slices.Equal(a.RelatedCut, []string{"DEPARTS_FROM"}) {
			t.Errorf("%s: %d departures, related_cut %v", a.ID, len(ids), a.RelatedCut)
		}
	}
	if !slices.Contains(notes, tools.IncludeCutNote()) {
		t.Errorf("notes %v lack the include cut note", notes)
	}

	// One flight by its id (query_entities on the unique field; the
	// catalog budget keeps include off get_entity_by_id) that also
	// arrives in tenant b.
	var id string
	for _, fl := range g.flights {
		if fl.tenant == "a" && len(fl.to) > len(inTenantA(fl.to)) {
			id = fl.id
			break
		}
	}
	byID := `{"entity_type":"Flight","conditions":[{"field":"flight_id","operator":"=","value":"` + id + `"}],"include":[{"via":"ARRIVES_AT","fields":["city"]}]}`
	one, _ := execIncluded(t, e, planner.QueryEntities, byID)
	want := []map[string]any{}
	for _, c := range inTenantA(g.byID[id].to) {
		want = append(want, map[string]any{"city": cityOf(c)})
	}
	if len(one) != 1 || fmt.Sprint(one[0].Related["ARRIVES_AT"]) != fmt.Sprint(want) {
		t.Errorf("flight %s: %+v, want arriving at %v", id, one, want)
	}

	for _, args := range []string{"{" + page + "," + include + "}", byID} {
		st, err := f.plan(planner.QueryEntities, args, nil)
		if err != nil {
			t.Fatal(err)
		}
		provenScoped(t, d, st)
	}
}

// TestIncludeErrorsNameTheChoices: an include that names no relationship
// of the entity, a field the related entity does not store (or the tenant
// field), a type twice or a limit over the maximum is refused with the
// valid choices.
func TestIncludeErrorsNameTheChoices(t *testing.T) {
	f := newFixture(t, "flights.yaml", tools.Capabilities{})
	for _, c := range []struct{ args, path, want string }{
		{`[{"via":"CONNECTS"}]`, "/include/0/via", "valid: DEPARTS_FROM, ARRIVES_AT"},
		{`[{"via":"DEPARTS_FROM","direction":"incoming"}]`, "/include/0/direction", "valid: outgoing"},
		{`[{"via":"DEPARTS_FROM","fields":["code","user_id"]}]`, "/include/0/fields/1", "valid: code, city, name"},
		{`[{"via":"DEPARTS_FROM","entity":"Flight"}]`, "/include/0/entity", "valid: Airport"},
		{`[{"via":"DEPARTS_FROM"},{"via":"DEPARTS_FROM","fields":["city"]}]`, "/include/1/via", "once"},
		{`[{"via":"DEPARTS_FROM","limit":26}]`, "/include/0/limit", "25"},
	} {
		_, err := f.plan(planner.QueryEntities, `{"entity_type":"Flight","include":`+c.args+`}`, nil)
		var ce *tools.CallError
		if !errors.As(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].Path != c.path || !strings.Contains(ce.Error(), c.want) {
			t.Errorf("include %s: %v; want a problem at %s saying %q", c.args, err, c.path, c.want)
		}
	}
}

// nestedMatch is the Go meaning of TestNestedConditionsAnswerAsGo's
// conditions on flight fl: (not ((delay < 20 or departs_ms >= Jan 5 or
// arrives at a Las Vegas airport of the tenant) and delay != 50)) or the
// id starts with e0.
func nestedMatch(fl *flight) bool {
	jan5 := time.Date(2025, 1, 5, 0, 0, 0, 0, time.UTC).UnixMilli()
	vegas := false
	for _, c := range inTenantA(fl.to) {
		vegas = vegas || cityOf(c) == "Las Vegas"
	}
	inner := fl.delay < 20 || (fl.hasEpoch && fl.ms >= jan5) || vegas
	return !(inner && fl.delay != 50) || strings.HasPrefix(fl.id, "e0")
}

// TestNestedConditionsAnswerAsGo: any_of → not → any_of, three levels of
// groups with field tests (one on a field some flights lack) and a
// relationship test inside (whose related entity's condition sits a
// fourth level down), plans and answers on Neo4j what the same
// conditions select in Go: the same count, and the same first page in
// id order. Tenant b's Las Vegas airport, which some of tenant a's
// flights also arrive at, does not satisfy the relationship test.
func TestNestedConditionsAnswerAsGo(t *testing.T) {
	d := neo4jtest.Open(t)
	g := loadFlights(t, d, 600)
	f := newFixture(t, "flights.yaml", tools.Capabilities{})
	const conds = `"conditions":[{"any_of":[
		{"not":[
			{"any_of":[
				{"field":"delay","operator":"<","value":20},
				{"field":"departs_ms","operator":">=","value":"2025-01-05"},
				{"via":"ARRIVES_AT","conditions":[{"field":"city","operator":"=","value":"Las Vegas"}]}
			]},
			{"field":"delay","operator":"!=","value":50}
		]},
		{"field":"flight_id","operator":"STARTS WITH","value":"e0"}
	]}]`
	var want []string
	for i := range g.flights {
		if fl := &g.flights[i]; fl.tenant == "a" && nestedMatch(fl) {
			want = append(want, fl.id)
		}
	}
	slices.Sort(want)
	if len(want) < 60 || len(want) > len(g.flights)/2 {
		t.Fatalf("the conditions keep %d of %d flights; the test needs a page and more, and a real filter", len(want), len(g.flights))
	}
	got, st := runAs(t, d, f, planner.QueryEntities, `{"entity_type":"Flight",`+conds+`,"order_by":[{"field":"flight_id"}],"limit":50}`)
	if !slices.Equal(got, want[:50]) {
		t.Errorf("first page\n got %v\nwant %v\n%s", got, want[:50], st.Cypher)
	}
	count, _ := runAs(t, d, f, planner.AggregateEntities, `{"entity_type":"Flight","operation":"COUNT",`+conds+`}`)
	if len(count) != 1 || count[0] != fmt.Sprint(len(want)) {
		t.Errorf("count %v, want %d", count, len(want))
	}
	provenScoped(t, d, st)
}

package engine_test

import (
	"fmt"
	"testing"

	"github.com/ragforge/ragforge/planner"
)

// TestAggregateGroupsCarryTheirCounts: every group says how many values it
// aggregated (its flights for COUNT and AVG of a field every flight has;
// only the flights with a departure for MIN of departure, nulls skipped),
// and with total: true the answer the sum over every group, the page's
// and the others', as counted in Go (0 when nothing matched).
func TestAggregateGroupsCarryTheirCounts(t *testing.T) {
	e, flights := seededFlights(t, 3, 400)

	all, dated := map[any]int64{}, map[any]int64{}
	var datedTotal int64
	for _, f := range flights {
		all[f.carrier]++
		if !f.departure.IsZero() {
			dated[f.carrier]++
			datedTotal++
		}
	}
	for _, c := range []struct {
		args  string
		want  map[any]int64
		total int64
	}{
		{`{"entity_type":"Flight","operation":"COUNT","group_by":"carrier","limit":1000,"total":true}`, all, int64(len(flights))},
		{`{"entity_type":"Flight","operation":"AVG","field":"delay","group_by":"carrier","limit":1000,"total":true}`, all, int64(len(flights))},
		{`{"entity_type":"Flight","operation":"MIN","field":"departure_ms","group_by":"carrier","limit":1000,"total":true}`, dated, datedTotal},
		// A page of 5 still carries the total over every group.
		{`{"entity_type":"Flight","operation":"COUNT","group_by":"carrier","limit":5,"offset":3,"total":true}`, all, int64(len(flights))},
	} {
		r := execJSON(t, e, planner.AggregateEntities, c.args)
		if r.Total == nil || *r.Total != c.total {
			t.Errorf("%s: total %v, want %d", c.args, countOf(r.Total), c.total)
		}
		for _, g := range r.Groups {
			if g.Count != c.want[g.Group] {
				t.Errorf("%s: group %v counts %d, want %d", c.args, g.Group, g.Count, c.want[g.Group])
			}
		}
	}
	// Grouped by the unique field, each group is one flight, shown by the
	// fields the call names; a flight without a departure aggregates no
	// value (count 0).
	byCode := map[any]flight{}
	for _, f := range flights {
		byCode[f.code] = f
	}
	r := execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Flight","operation":"MIN","field":"departure_ms","group_by":"code","group_fields":["carrier","delay"],"limit":1000,"total":true}`)
	if len(r.Groups) != len(flights) || r.Total == nil || *r.Total != datedTotal {
		t.Errorf("by code: %d groups, total %s; want %d and %d", len(r.Groups), countOf(r.Total), len(flights), datedTotal)
	}
	for _, g := range r.Groups {
		f := byCode[g.Group]
		want := int64(0)
		if !f.departure.IsZero() {
			want = 1
		}
		if g.Display["carrier"] != f.carrier || g.Display["delay"] != float64(f.delay) || g.Count != want {
			t.Errorf("group %v: display %v, count %d; want carrier %s, delay %d, count %d", g.Group, g.Display, g.Count, f.carrier, f.delay, want)
		}
	}
	r = execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Flight","operation":"MAX","field":"departure_ms"}`)
	if r.Total == nil || *r.Total != datedTotal {
		t.Errorf("MAX of departure_ms: total %s, want the %d flights with a departure", countOf(r.Total), datedTotal)
	}
	r = execJSON(t, e, planner.AggregateEntities, `{"entity_type":"Flight","operation":"COUNT","group_by":"carrier","conditions":[{"field":"carrier","operator":"=","value":"nobody"}],"total":true}`)
	if len(r.Groups) != 0 || r.Total == nil || *r.Total != 0 {
		t.Errorf("no flight matched: groups %v, total %v, want none and 0", r.Groups, countOf(r.Total))
	}
}

// countOf shows a count that may be missing.
func countOf(p *int64) string {
	if p == nil {
		return "missing"
	}
	return fmt.Sprint(*p)
}

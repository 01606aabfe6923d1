package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/planner"
)

// dbHits is a profiled plan's db hits, its children's included.
func dbHits(p neo4j.ProfiledPlan) int64 {
	n := p.DbHits()
	for _, c := range p.Children() {
		n += dbHits(c)
	}
	return n
}

// TestATotalReadsNoMoreThanItsPage: on net/http's code graph, the
// statement that counts a query_entities call's matches (total: true)
// costs no more db hits than the page statement itself, which is the same
// with or without total; -v logs both, the figures docs/tools.md quotes:
//
//	go test ./engine -run TestATotalReadsNoMoreThanItsPage -v
func TestATotalReadsNoMoreThanItsPage(t *testing.T) {
	f := loadNetHTTP(t, engine.Options{})
	ctx := context.Background()
	for _, args := range []string{
		`{"entity_type":"Scope","conditions":[{"field":"type","operator":"IN","value":["function","method"]}],"order_by":{"field":"line_count","direction":"DESC"},"limit":10%s}`,
		`{"entity_type":"Scope","conditions":[{"field":"type","operator":"=","value":"function"}],"order_by":{"field":"name"},"limit":50%s}`,
		`{"entity_type":"Scope","limit":50%s}`,
	} {
		plain, err := f.e.Plan(ctx, engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(fmt.Sprintf(args, ""))})
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.e.Plan(ctx, engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(fmt.Sprintf(args, `,"total":true`))})
		if err != nil {
			t.Fatal(err)
		}
		if st.Total == nil || plain.Total != nil {
			t.Fatalf("%s: a total statement with total: true only", args)
		}
		if st.Cypher != plain.Cypher {
			t.Errorf("%s: the page statement changes with total", args)
		}
		page, total := profiled(t, f.d, st.Cypher, st.Params), profiled(t, f.d, st.Total.Cypher, st.Total.Params)
		t.Logf("%s: page %d db hits, total %d db hits", fmt.Sprintf(args, ""), page, total)
		if total > page {
			t.Errorf("%s: the total reads %d db hits, more than its page's %d", args, total, page)
		}
	}
}

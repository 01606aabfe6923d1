package planner_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestUsesListEveryFieldWithItsKind checks the record the materialization
// policy counts: filters, orders, aggregates, groups and projections, with
// computed fields marked, and materialized ones marked as read from their
// cache property.
func TestUsesListEveryFieldWithItsKind(t *testing.T) {
	f := newFixture(t, "code-rag.yaml", tools.Capabilities{FullText: true})
	has := func(uses []model.Use, field string, kind model.UseKind, computed, materialized bool) bool {
		return slices.Contains(uses, model.Use{Entity: "Scope", Field: field, Kind: kind, Computed: computed, Materialized: materialized})
	}
	st, err := f.plan(planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"is_large","operator":"=","value":true}],"order_by":{"field":"line_count","direction":"DESC"},"fields":["name","age_days"]}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		field string
		kind  model.UseKind
		comp  bool
	}{{"is_large", model.UseFilter, true}, {"line_count", model.UseOrder, true}, {"name", model.UseProject, false}, {"age_days", model.UseProject, true}} {
		if !has(st.Uses, want.field, want.kind, want.comp, false) {
			t.Errorf("no %s use of %s in %+v", want.kind, want.field, st.Uses)
		}
	}
	st, err = f.plan(planner.AggregateEntities, `{"entity_type":"Scope","operation":"SUM","field":"line_count","group_by":"type"}`, model.State{{Entity: "Scope", Field: "line_count"}: true})
	if err != nil {
		t.Fatal(err)
	}
	if !has(st.Uses, "line_count", model.UseAggregate, true, true) || !has(st.Uses, "type", model.UseGroup, false, false) {
		t.Errorf("uses %+v", st.Uses)
	}
	if !strings.Contains(st.Cypher, "sum(n.`line_count`)") {
		t.Errorf("a ready materialized field is not read from its property:\n%s", st.Cypher)
	}
}

// TestComputedFiltersComeAfterStoredOnes checks the order of work: stored
// predicates in the first MATCH, computed fields computed after them, and
// fields only returned computed after LIMIT.
func TestComputedFiltersComeAfterStoredOnes(t *testing.T) {
	f := newFixture(t, "code-rag.yaml", tools.Capabilities{FullText: true})
	st, err := f.plan(planner.QueryEntities, `{"entity_type":"Scope","conditions":[{"field":"line_count","operator":">","value":100},{"field":"type","operator":"=","value":"function"}],"fields":["name","modified_at"]}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := st.Cypher
	stored := strings.Index(c, "n.`type` = $")
	computed := strings.Index(c, "AS `cf_line_count`")
	limit := strings.Index(c, "LIMIT $limit")
	subquery := strings.Index(c, "CALL (n)")
	if !(stored >= 0 && stored < computed && computed < limit && limit < subquery) {
		t.Errorf("order of work is wrong (stored %d, computed %d, limit %d, projected subquery %d):\n%s", stored, computed, limit, subquery, c)
	}
	if !strings.HasPrefix(c, "MATCH (n:`Scope`)\nWHERE n.`type` = $") {
		t.Errorf("the stored predicate is not in the first MATCH:\n%s", c)
	}
}

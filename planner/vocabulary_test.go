package planner

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/internal/cypher/timebucket"
	"github.com/ragforge/ragforge/tools"
)

// The planner's fixed tables turn the words of a call into Cypher; each
// must cover every word the schema (operators, directions) or the catalog
// (operations, count operators) lets a call hold, and nothing else.
func TestFixedTablesCoverTheSchemasVocabulary(t *testing.T) {
	var operators map[string][]string
	if err := config.DecodeSchema("#OperatorsByType", &operators); err != nil {
		t.Fatal(err)
	}
	separate := []string{"IN", "NOT IN", "IS NULL", "IS NOT NULL"} // condition's own cases
	for kind, ops := range operators {
		for _, op := range ops {
			if kind == "list" {
				if !listOperator(op) {
					t.Errorf("operator %q of list fields has no Cypher in listCondition", op)
				}
				continue
			}
			if _, ok := condOps[op]; !ok && !slices.Contains(separate, op) {
				t.Errorf("operator %q of %s fields has no Cypher in condOps", op, kind)
			}
		}
	}
	for _, op := range tools.CountOperators {
		if _, ok := condOps[op]; !ok {
			t.Errorf("count operator %q has no Cypher in condOps", op)
		}
	}
	for _, op := range tools.HavingOperators {
		if _, ok := condOps[op]; !ok {
			t.Errorf("having operator %q has no Cypher in condOps", op)
		}
	}
	for _, b := range tools.Buckets {
		if _, ok := timebucket.Label(b, "t"); !ok {
			t.Errorf("bucket %q has no label in timebucket", b)
		}
	}
	for _, d := range tools.Directions {
		if _, ok := arrows[d]; !ok {
			t.Errorf("direction %q has no arrows", d)
		}
	}
	if len(arrows) != len(tools.Directions) {
		t.Errorf("arrows has %d directions, tools.Directions %d", len(arrows), len(tools.Directions))
	}
	for _, op := range operations {
		if _, ok := aggregates[op]; !ok {
			t.Errorf("operation %q has no aggregate function", op)
		}
	}
	if len(aggregates) != len(operations) {
		t.Errorf("aggregates has %d operations, operations %d", len(aggregates), len(operations))
	}
	// Each precision truncates to its own unit (none falls back to
	// seconds unnoticed).
	at := time.Date(2026, 3, 14, 15, 9, 26, 535, time.UTC)
	seen := map[time.Time]string{}
	for _, p := range precisions {
		tr, _ := truncate(at, p, time.UTC)
		if q, ok := seen[tr]; ok {
			t.Errorf("precisions %s and %s truncate alike", q, p)
		}
		seen[tr] = p
	}
}

// The generated tools are the registered ones: the schema's
// #GeneratedToolNames (what a profile may name) are exactly the tools
// registered in this package, and #ToolNames (what exposed_tools may
// narrow) are among them, so adding a tool file without the schema (or
// the reverse) fails here.
func TestRegisteredToolsAreTheSchemasGeneratedTools(t *testing.T) {
	var generated, controlled []string
	if err := config.DecodeSchema("#GeneratedToolNames", &generated); err != nil {
		t.Fatal(err)
	}
	if err := config.DecodeSchema("#ToolNames", &controlled); err != nil {
		t.Fatal(err)
	}
	registered := slices.Sorted(maps.Keys(registry))
	if !slices.Equal(slices.Sorted(slices.Values(generated)), registered) {
		t.Errorf("the schema's #GeneratedToolNames = %v, the registered tools = %v", generated, registered)
	}
	for _, n := range controlled {
		if registry[n] == nil {
			t.Errorf("the schema's #ToolNames has %s, which is no registered tool", n)
		}
	}
}

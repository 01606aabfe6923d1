package tools_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// TestParseChecksWhatShapesTheGroups: bucket, over.group_by, having,
// offset and the groups' limit are checked in Parse, each error at the
// argument to change and, where there are choices, listing them.
func TestParseChecksWhatShapesTheGroups(t *testing.T) {
	c := movies(t)
	mem, err := planner.Generate(load(t, "../testdata/configs/valid/memory-graph.yaml"), tools.Options{Aggregations: true})
	if err != nil {
		t.Fatal(err)
	}
	code := codeRAG(t, allOn)
	parse := func(c *tools.Catalog, args string) (*planner.AggregateEntitiesArgs, error) {
		a, err := c.Parse(planner.AggregateEntities, json.RawMessage(args))
		if err != nil {
			return nil, err
		}
		return a.(*planner.AggregateEntitiesArgs), nil
	}
	for _, ok := range []struct {
		c    *tools.Catalog
		args string
	}{
		{code, `{"entity_type":"Change","operation":"COUNT","group_by":"timestamp","bucket":"weekday","having":{"operator":">","value":2.5},"offset":3,"limit":1000}`},
		{c, `{"entity_type":"Person","operation":"AVG","field":"released","over":{"via":"REVIEWED","group_by":"rating"}}`},
		{mem, `{"entity_type":"Person","operation":"COUNT","over":{"via":"thinks_about","group_by":"created_at"},"bucket":"month"}`},
	} {
		if _, err := parse(ok.c, ok.args); err != nil {
			t.Errorf("%s: %v", ok.args, err)
		}
	}
	a, err := parse(c, `{"entity_type":"Person","operation":"COUNT","over":{"via":"REVIEWED","group_by":"rating"}}`)
	if err != nil {
		t.Fatal(err)
	}
	if a.Over.Direction != "outgoing" || a.Over.Entity != "Movie" || a.Limit != tools.DefaultLimits.DefaultLimit {
		t.Errorf("over's defaults not filled: %+v", a)
	}

	for _, bad := range []struct {
		c          *tools.Catalog
		args, path string
		valid      []string
	}{
		// bucket applies to datetime fields: the error lists them.
		{code, `{"entity_type":"Change","operation":"COUNT","group_by":"kind","bucket":"day"}`, "/group_by", []string{"timestamp"}},
		{code, `{"entity_type":"Change","operation":"COUNT","bucket":"day"}`, "/bucket", nil},
		{c, `{"entity_type":"Person","operation":"COUNT","over":{"via":"REVIEWED","group_by":"rating"},"bucket":"day"}`, "/over/group_by", nil},
		{code, `{"entity_type":"Change","operation":"COUNT","group_by":"kind","bucket":"week"}`, "/bucket", nil},
		// over.group_by names a property of the relationship.
		{c, `{"entity_type":"Person","operation":"COUNT","over":{"via":"REVIEWED","group_by":"stars"}}`, "/over/group_by", []string{"rating", "summary"}},
		{c, `{"entity_type":"Person","operation":"COUNT","group_by":"born","over":{"via":"REVIEWED","group_by":"rating"}}`, "/over/group_by", nil},
		// having, offset need groups; having compares numbers.
		{code, `{"entity_type":"Change","operation":"COUNT","having":{"operator":">","value":1}}`, "/having", nil},
		{code, `{"entity_type":"Change","operation":"COUNT","offset":10}`, "/offset", nil},
		{code, `{"entity_type":"Scope","operation":"MAX","field":"modified_at","group_by":"type","having":{"operator":">","value":1}}`, "/having", nil},
		{code, `{"entity_type":"Scope","operation":"COUNT","group_by":"type","having":{"operator":"=~","value":1}}`, "/having/operator", nil},
		// at most MaxGroups groups.
		{code, `{"entity_type":"Scope","operation":"COUNT","group_by":"type","limit":1001}`, "/limit", nil},
	} {
		_, err := parse(bad.c, bad.args)
		if err == nil {
			t.Errorf("%s: accepted", bad.args)
			continue
		}
		wantProblem(t, err, bad.path, bad.valid...)
	}
}

// TestTieNotesNameOnlyTheToolsArguments: the note of a tie at the cut
// suggests raising the limit below the tool's own maximum, offset where
// the tool pages and another sort key where it takes order_by.
func TestTieNotesNameOnlyTheToolsArguments(t *testing.T) {
	c := codeRAG(t, allOn)
	for _, tc := range []struct {
		tool      string
		limit     int
		want, not []string
	}{
		{planner.AggregateEntities, 50, []string{"more groups beyond the cut tie with the last one on value = 3", "raise limit (at most 1000)", "page with offset"}, []string{"order_by"}},
		{planner.AggregateEntities, 1000, []string{"page with offset"}, []string{"raise limit"}},
		{planner.QueryEntities, 10, []string{"raise limit (at most 50)", "page with offset", "add a sort key to order_by"}, nil},
		{planner.SemanticSearch, 5, []string{"raise top_k (at most 20)"}, []string{"offset", "order_by"}},
		{planner.FulltextSearch, 50, []string{"more entities beyond the cut tie"}, []string{"raise", "offset", "order_by"}},
	} {
		noun := "entities"
		if tc.tool == planner.AggregateEntities {
			noun = "groups"
		}
		note := c.TieNote(tc.tool, noun, "value = 3", tc.limit)
		for _, w := range tc.want {
			if !strings.Contains(note, w) {
				t.Errorf("%s limit %d: note %q lacks %q", tc.tool, tc.limit, note, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(note, w) {
				t.Errorf("%s limit %d: note %q says %q", tc.tool, tc.limit, note, w)
			}
		}
	}
}

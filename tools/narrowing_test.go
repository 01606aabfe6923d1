package tools_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

const narrowed = `
entities:
  - name: Item
    unique_field: id
    searchable_fields:
      - {name: id, type: string}
      - {name: title, type: string, description: Title}
      - {name: body, type: string}
      - {name: price, type: number}
      - {name: stock, type: integer}
      - {name: at, type: datetime, tool_modes: [before, after]}
    exposed_tools:
      text_pattern_search: {fields: [title], modes: [exact, contains]}
      number_range_search: {enabled: false}
      query_entities: {operators: ["=", "IN"]}
`

func TestExposedToolsNarrowFieldsModesAndOperators(t *testing.T) {
	m, err := config.LoadSources(config.Source{Name: "n.yaml", Data: []byte(narrowed)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := planner.Generate(m, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Tool(planner.NumberRangeSearch) != nil {
		t.Error("number_range_search generated although disabled for the only entity")
	}
	tp := c.Tool(planner.TextPatternSearch)
	if tp == nil || strings.Contains(tp.Description, "Item.body") || !strings.Contains(string(tp.InputSchema), `"enum":["contains","exact"]`) {
		t.Fatalf("text_pattern_search not narrowed: %+v", tp)
	}
	wantProblem(t, c.Validate(planner.TextPatternSearch, json.RawMessage(`{"entity_type":"Item","field":"title","pattern":"a","mode":"regex"}`)), "/mode", "contains", "exact")
	wantProblem(t, c.Validate(planner.QueryEntities, json.RawMessage(`{"entity_type":"Item","conditions":[{"field":"price","operator":">","value":1}]}`)), "/conditions/0/operator", "=", "IN")
	if d := c.Tool(planner.DatetimeRangeSearch); d == nil || strings.Contains(string(d.InputSchema), "relative_period") {
		t.Errorf("datetime_range_search offers relative although tool_modes removed it: %+v", d)
	}
	if c.Tool(planner.ExploreRelationships) != nil || c.Tool(planner.SemanticSearch) != nil {
		t.Error("tools generated without relationships or vector indexes")
	}
}

func TestPatternsAreCheckedBeforeTheyReachTheDatabase(t *testing.T) {
	c := codeRAG(t, tools.Options{})
	wantProblem(t, c.Validate(planner.TextPatternSearch, json.RawMessage(`{"entity_type":"File","field":"path","pattern":"(a","mode":"regex"}`)), "/pattern")
	wantProblem(t, c.Validate(planner.TextPatternSearch, json.RawMessage(`{"entity_type":"Scope","field":"name","pattern":"(a)\\1","mode":"regex"}`)), "/pattern")
	wantProblem(t, c.Validate(planner.TextPatternSearch, json.RawMessage(`{"entity_type":"File","field":"path","pattern":"[a","mode":"glob"}`)), "/pattern")
	wantProblem(t, c.Validate(planner.DatetimeRangeSearch, json.RawMessage(`{"entity_type":"Change","field":"timestamp","mode":"relative","relative_period":"last_fortnight"}`)), "/relative_period")
	wantProblem(t, c.Validate(planner.DatetimeRangeSearch, json.RawMessage(`{"entity_type":"Change","field":"timestamp","mode":"between","start_datetime":"2024-05-01","end_datetime":"2024-01-01"}`)), "/end_datetime")
}

func TestRelativePeriodWindows(t *testing.T) {
	now := time.Date(2024, 5, 15, 13, 30, 0, 0, time.UTC) // a Wednesday
	day := func(d int) time.Time { return time.Date(2024, 5, d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		period   string
		from, to time.Time
	}{
		{"today", day(15), day(16)},
		{"yesterday", day(14), day(15)},
		{"this_week", day(13), day(20)},
		{"last_week", day(6), day(13)},
		{"last_month", time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC), day(1)},
		{"last_7_days", now.AddDate(0, 0, -7), now},
		{"last_3_hours", now.Add(-3 * time.Hour), now},
		{"last_2_months", now.AddDate(0, -2, 0), now},
	} {
		from, to, err := tools.RelativePeriod(tc.period, now)
		if err != nil || !from.Equal(tc.from) || !to.Equal(tc.to) {
			t.Errorf("%s = %v..%v, %v; want %v..%v", tc.period, from, to, err, tc.from, tc.to)
		}
	}
	if _, _, err := tools.RelativePeriod("last_0_days", now); err == nil {
		t.Error("last_0_days accepted")
	}
}

func TestParseDatetimeAcceptsTheDocumentedForms(t *testing.T) {
	for _, s := range []string{"2024-05-01", "2024-05-01T10:00", "2024-05-01T10:00:30", "2024-05-01T10:00:30Z", "2024-05-01T10:00:30+02:00", "2024-05-01T10:00+02:00", "2024-05-01T10:00:30.123Z"} {
		if _, err := tools.ParseDatetime(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if tm, _ := tools.ParseDatetime("2024-05-01"); !tm.Equal(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("a date means midnight UTC, got %v", tm)
	}
	if _, err := tools.ParseDatetime("yesterday"); err == nil {
		t.Error("yesterday parsed as a datetime")
	}
}

func TestExploreAcceptsATargetReachedWithinTheDepth(t *testing.T) {
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := planner.Generate(m, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	call := func(depth int) error {
		return c.Validate(planner.ExploreRelationships, []byte(fmt.Sprintf(
			`{"start_entity_type":"Directory","relationship_type":"CONTAINS","direction":"outgoing","target_entity_type":"Scope","depth":%d}`, depth)))
	}
	if err := call(1); err == nil || !strings.Contains(err.Error(), "never reaches Scope") {
		t.Errorf("depth 1: %v, want Scope refused (Directory CONTAINS File and Directory only)", err)
	}
	if err := call(2); err != nil {
		t.Errorf("depth 2: %v, want Scope accepted (Directory → File → Scope)", err)
	}
}

package mcpserver

import (
	"slices"
	"strings"
	"testing"
)

func TestAnUnknownToolIsAnErrorResultListingTheTools(t *testing.T) {
	for _, search := range []bool{false, true} {
		s, err := New(newEngine(t), Options{SearchTools: search})
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, connect(t, s, nil), "query_entity", map[string]any{"entity_type": "Scope"})
		ps := problems(t, res)
		if !res.IsError || len(ps) != 1 || !slices.Contains(ps[0].Valid, "query_entities") ||
			!strings.Contains(text(res), `unknown tool "query_entity"`) {
			t.Fatalf("search_tools %v: isError %v, text %q, problems %+v", search, res.IsError, text(res), ps)
		}
		if got := slices.Contains(ps[0].Valid, SearchToolsName); got != search {
			t.Errorf("search_tools %v: the list names search_tools: %v", search, got)
		}
	}
}

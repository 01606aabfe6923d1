package engine_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
)

// planAndRun plans a call and runs its (first) statement with the driver,
// to see what crosses the network.
func planAndRun(t *testing.T, e *engine.Engine, d neo4j.DriverWithContext, call engine.Call) (*planner.Statement, *neo4j.EagerResult) {
	t.Helper()
	ctx := context.Background()
	st, err := e.Plan(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	res, err := neo4j.ExecuteQuery(ctx, d, st.Cypher, st.Params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	return st, res
}

// TestLongStringsAreCutInCypherNotAfterTransfer: a 20,000-character source
// reaches the engine as MaxString+1 characters (left() in the statement),
// the result shows MaxString and an ellipsis with a note, and a verbose
// call plans and returns the whole text.
func TestLongStringsAreCutInCypherNotAfterTransfer(t *testing.T) {
	d := neo4jtest.Open(t)
	long := strings.Repeat("é", 20000) // two bytes each: runes, not bytes, are counted
	neo4jtest.Run(t, d, "CREATE (:Scope {uuid: 'u1', name: 'big', source: $s})", map[string]any{"s": long})
	e := codeRAG(t, d, engine.Options{MaxString: 100})
	ctx := context.Background()
	call := engine.Call{Name: planner.GetEntityByID, Arguments: json.RawMessage(`{"entity_type":"Scope","id_value":"u1"}`)}

	st, res := planAndRun(t, e, d, call)
	props, _ := res.Records[0].Get("properties")
	if got := utf8.RuneCountInString(props.(map[string]any)["source"].(string)); got != 101 {
		t.Errorf("the statement transfers %d characters of source, want 101 (MaxString+1)\n%s", got, st.Cypher)
	}

	r, err := e.Execute(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	src := r.Entities[0].Properties["source"].(string)
	if src != strings.Repeat("é", 100)+"…" {
		t.Errorf("shown source has %d characters, want 100 and an ellipsis", utf8.RuneCountInString(src))
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "shortened to 100 characters in source") }) {
		t.Errorf("notes %q do not say source was shortened", r.Notes)
	}

	call.Verbose = true
	r, err = e.Execute(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	if r.Entities[0].Properties["source"] != long {
		t.Errorf("a verbose call did not return the whole source")
	}
}

// TestRegexScanTransfersOnlyIdsAndMatchedValuesThenFetchesKeptEntities: a
// regex scan's candidate statement returns only the id and the matched
// text, and the entities the pattern keeps come back with their
// properties from the second step, in unique-field order, truncated at the
// limit.
func TestRegexScanTransfersOnlyIdsAndMatchedValuesThenFetchesKeptEntities(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(1, 300) AS i
		CREATE (:Scope {uuid: 'u' + right('00' + i, 3), name: CASE WHEN i % 7 = 0 THEN 'Handler' + i ELSE 'other' + i END, type: 'function', source: 'func body ' + i})`, nil)
	e := codeRAG(t, d, engine.Options{})
	ctx := context.Background()
	call := engine.Call{Name: planner.TextPatternSearch, Arguments: json.RawMessage(`{"entity_type":"Scope","field":"name","pattern":"Hand.*[0-9]","mode":"regex","case_sensitive":true,"limit":5}`)}
	st, res := planAndRun(t, e, d, call)
	if len(res.Records) == 0 || !slices.Equal(res.Keys, []string{"id", "value"}) {
		t.Fatalf("candidate rows: %d with columns %v, want only id and value\n%s", len(res.Records), res.Keys, st.Cypher)
	}
	r, err := e.Execute(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ent := range r.Entities {
		ids = append(ids, ent.ID.(string))
		if ent.Properties["source"] == nil || ent.Properties["type"] != "function" {
			t.Errorf("%v: properties %v lack the fetched fields", ent.ID, ent.Properties)
		}
	}
	if want := []string{"u007", "u014", "u021", "u028", "u035"}; !slices.Equal(ids, want) || !r.Truncated {
		t.Errorf("got %v (truncated %v), want %v truncated", ids, r.Truncated, want)
	}
}

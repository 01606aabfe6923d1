package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

func codeRAG(t *testing.T, d neo4j.DriverWithContext, opts engine.Options) *engine.Engine {
	t.Helper()
	m, err := config.Load("../testdata/configs/valid/code-rag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	opts.Driver = d
	opts.Database = neo4jtest.Database()
	opts.Tools.RawCypher = true
	e, err := engine.New(t.Context(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestCatastrophicRegexAnswersQuickly runs (a+)+b, which makes a
// backtracking engine (Java's, behind Cypher's =~) take exponential time,
// against long strings of a's: the pattern is matched in Go with RE2, so
// the call answers in well under a second.
func TestCatastrophicRegexAnswersQuickly(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND range(1, 200) AS i
		CREATE (:Scope {uuid: 'u' + i, name: CASE WHEN i % 50 = 0 THEN reduce(s = '', x IN range(1, 20) | s + 'aaaaa') + 'b' ELSE reduce(s = '', x IN range(1, 2000) | s + 'aaaaa') END})`, nil)
	e := codeRAG(t, d, engine.Options{})
	for _, ci := range []bool{true, false} {
		start := time.Now()
		r, err := e.Execute(context.Background(), engine.Call{Name: planner.TextPatternSearch,
			Arguments: json.RawMessage(`{"entity_type":"Scope","field":"name","pattern":"(a+)+b","mode":"regex","case_sensitive":` + map[bool]string{true: "true", false: "false"}[ci] + `,"limit":50}`)})
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if r.Count != 4 {
			t.Errorf("case_sensitive=%v: %d matches, want the 4 strings ending in b", ci, r.Count)
		}
		if took > 500*time.Millisecond {
			t.Errorf("case_sensitive=%v: (a+)+b took %v", ci, took)
		}
	}
}

// TestTimeoutStopsALongCall proves the transaction timeout applies: a raw
// query that would run for minutes fails fast, and the agent is told on
// its query that it timed out and how to narrow it.
func TestTimeoutStopsALongCall(t *testing.T) {
	d := neo4jtest.Open(t)
	e := codeRAG(t, d, engine.Options{Timeout: 300 * time.Millisecond})
	start := time.Now()
	_, err := e.Execute(context.Background(), engine.Call{Name: planner.RunCypher,
		Arguments: json.RawMessage(`{"query":"UNWIND range(1, 1000000000) AS x WITH x WHERE x % 7 = 99 RETURN count(x)"}`)})
	var ce *tools.CallError
	if !errorsAs(err, &ce) || ce.Problems[0].Path != "/query" || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("got %v, want a CallError on /query saying it timed out", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the timeout took %v to act", took)
	}
}

// TestSortOnIndexedPropertyReadsTheIndexInOrder checks with PROFILE that a
// query_entities sorted on an indexed stored property lets Neo4j read the
// order from the range index: the entities with a value come from a
// NodeIndexScan that stops after the page (a PartialTop for the
// unique-field tie-break), the label scan for the entities without a value
// never runs when the page is full, and the only full sort is the final
// one over the page's rows (nulls last).
func TestSortOnIndexedPropertyReadsTheIndexInOrder(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, "CREATE INDEX scope_name IF NOT EXISTS FOR (n:Scope) ON (n.name)", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(60)", nil)
	neo4jtest.Run(t, d, "UNWIND range(1, 5000) AS i CREATE (:Scope {uuid: 'u' + i, name: 'n' + (i % 977)})", nil)
	e := codeRAG(t, d, engine.Options{})
	st, err := e.Plan(context.Background(), engine.Call{Name: planner.QueryEntities, Arguments: json.RawMessage(`{"entity_type":"Scope","order_by":{"field":"name","direction":"DESC"},"limit":10}`)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := neo4j.ExecuteQuery(context.Background(), d, "PROFILE "+st.Cypher, st.Params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	scanned := int64(-1)
	var walk func(p neo4j.ProfiledPlan)
	walk = func(p neo4j.ProfiledPlan) {
		base := strings.SplitN(p.Operator(), "@", 2)[0]
		ops = append(ops, fmt.Sprintf("%s(%d)", base, p.Records()))
		switch {
		case base == "NodeByLabelScan" && p.Records() > 0:
			t.Errorf("a full page scanned the label (%d rows)", p.Records())
		case (base == "Top" || base == "Sort") && p.Records() > 10:
			t.Errorf("full %s over %d rows: the order is not read from the index", base, p.Records())
		case base == "NodeIndexScan":
			// The page and the ties of its last name, never the 5000 nodes.
			scanned = p.Records()
		}
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(res.Summary.Profile())
	joined := strings.Join(ops, " ")
	t.Logf("plan operators: %s", joined)
	if scanned < 0 || scanned > 100 {
		t.Errorf("no index scan stopping after the page in %v", ops)
	}
}

// TestRunCypherCallingAnUnknownProcedureIsACallError: Neo4j refuses to
// plan a call to a procedure it does not have with ProcedureNotFound; the
// agent gets a CallError on /query naming the procedure, which it can
// correct, not an internal error.
func TestRunCypherCallingAnUnknownProcedureIsACallError(t *testing.T) {
	d := neo4jtest.Open(t)
	e := codeRAG(t, d, engine.Options{})
	_, err := e.Execute(t.Context(), engine.Call{Name: planner.RunCypher, Arguments: json.RawMessage(`{"query":"CALL nope.missing() YIELD x RETURN x"}`)})
	var ce *tools.CallError
	if !errorsAs(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].Path != "/query" || !strings.Contains(ce.Problems[0].Message, "nope.missing") {
		t.Fatalf("got %T %v, want a CallError on /query naming nope.missing", err, err)
	}
}

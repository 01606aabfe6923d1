package traverse_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// hostileSeed and hostileCount fix the generated texts.
const (
	hostileSeed  = 12
	hostileCount = 1200
)

// TestTraverseKeepsEveryHostileTextInsideAlicesTenant runs 1,200 hostile
// texts as alice on a graph holding alice's and bob's data: each is
// refused with a CallError, or returns no bob marker nor element id and
// exactly the rows it returns when bob's data is gone (the same query in a
// transaction that deleted bob's nodes and is rolled back). The legit
// texts, every node scoped, are accepted and return alice's rows.
func TestTraverseKeepsEveryHostileTextInsideAlicesTenant(t *testing.T) {
	// An agent's statements, which may use what Neo4j deprecates.
	d := neo4jtest.AllowDeprecations(neo4jtest.Open(t))
	bob := twoTenants(t, d)
	ids := bobIDs(t, d)
	eids := slices.Sorted(func(yield func(string) bool) {
		for k := range bob {
			if !yield(k) {
				return
			}
		}
	})
	tool := traverse.New(testModel(), tools.Env{Driver: d, Database: neo4jtest.Database(), Timeout: 20 * time.Second, MaxRows: 500})[0]
	ctx := tenant.With(context.Background(), "alice")
	texts, legit := hostile(hostileSeed, hostileCount, ids[0], eids[0])
	if len(texts) < 1000 {
		t.Fatalf("only %d hostile texts", len(texts))
	}
	start := time.Now()
	refused, clean := 0, 0
	why := map[string]int{}
	for _, q := range texts {
		res, err := call(ctx, tool, q)
		if err != nil {
			var ce *tools.CallError
			if !errors.As(err, &ce) || ce.Error() == "" {
				t.Errorf("%s\n  not a clear refusal: %v", q.cypher, err)
			}
			why[kindOf(err)]++
			refused++
			continue
		}
		checkClean(t, d, q, res, bob)
		if testing.Verbose() {
			t.Logf("accepted: %s (%d rows)", q.cypher, res.Count)
		}
		clean++
	}
	t.Logf("%d hostile texts in %v: %d refused (%v), %d accepted and clean", len(texts), time.Since(start).Round(time.Millisecond), refused, why, clean)
	accepted, rows := 0, 0
	for _, q := range legit {
		res, err := call(ctx, tool, q)
		if err != nil {
			t.Logf("legit text refused: %s\n  %v", q.cypher, err)
			continue
		}
		checkClean(t, d, q, res, bob)
		accepted++
		rows += res.Count
	}
	t.Logf("%d legit texts: %d accepted, %d rows of alice's", len(legit), accepted, rows)
	if accepted < len(legit)*9/10 || rows == 0 {
		t.Errorf("only %d of %d legit texts accepted (%d rows)", accepted, len(legit), rows)
	}
}

// kindOf names the check that refused a text, for the log.
func kindOf(err error) string {
	s := err.Error()
	switch {
	case strings.Contains(s, "not scoped to the tenant"):
		return "unscoped"
	case strings.Contains(s, "refused") || strings.Contains(s, "stands for two") || strings.Contains(s, "inside an expression") || strings.Contains(s, "counts every") || strings.Contains(s, "yields") || strings.Contains(s, "searches every") || strings.Contains(s, "end nodes"):
		return "scope-other"
	case strings.Contains(s, "cannot plan"):
		return "plan-error"
	case strings.Contains(s, "params/tenant"):
		return "tenant-param"
	case strings.Contains(s, "read-only") || strings.Contains(s, "not allowed") || strings.Contains(s, "LOAD CSV") || strings.Contains(s, "without EXPLAIN"):
		return "not-a-read"
	}
	return "run-error"
}

func call(ctx context.Context, tool tools.CustomTool, q query) (*traverse.Result, error) {
	params := map[string]any{"p0": "bob"}
	for k, v := range q.params {
		params[k] = v
	}
	raw, err := json.Marshal(map[string]any{"cypher": q.cypher, "params": params})
	if err != nil {
		return nil, err
	}
	v, err := tool.Handler(ctx, raw)
	if err != nil {
		return nil, err
	}
	return v.(*traverse.Result), nil
}

// checkClean fails the test when an accepted text's result holds a bob
// marker or element id, or differs from its result without bob's data.
func checkClean(t *testing.T, d neo4j.DriverWithContext, q query, res *traverse.Result, bob map[string]bool) {
	t.Helper()
	raw, _ := json.Marshal(res)
	var v any
	_ = json.Unmarshal(raw, &v)
	if leak := findLeak(v, bob); leak != "" {
		t.Errorf("LEAK %s\n  returned %q", q.cypher, leak)
		return
	}
	if strings.Contains(q.cypher, "rand(") {
		return
	}
	params := map[string]any{"p0": "bob", tenant.Param: "alice"}
	full, without := rowsOf(t, d, q.cypher, params, false), rowsOf(t, d, q.cypher, params, true)
	if full != without {
		t.Errorf("INTERFERENCE %s\n  with bob's data:    %s\n  without bob's data: %s", q.cypher, full, without)
	}
}

// findLeak returns a string of v that holds bob's marker or is one of his
// element ids.
func findLeak(v any, bob map[string]bool) string {
	switch x := v.(type) {
	case string:
		if strings.Contains(x, bobMarker) || bob[x] {
			return x
		}
	case []any:
		for _, y := range x {
			if l := findLeak(y, bob); l != "" {
				return l
			}
		}
	case map[string]any:
		for k, y := range x {
			if l := findLeak(k, bob); l != "" {
				return l
			}
			if l := findLeak(y, bob); l != "" {
				return l
			}
		}
	}
	return ""
}

// rowsOf runs cypher and returns its rows in a canonical form; without
// runs it after deleting bob's nodes, in a transaction rolled back.
func rowsOf(t *testing.T, d neo4j.DriverWithContext, cypher string, params map[string]any, without bool) string {
	t.Helper()
	ctx := context.Background()
	sess := d.NewSession(ctx, neo4j.SessionConfig{DatabaseName: neo4jtest.Database()})
	defer sess.Close(ctx)
	tx, err := sess.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if without {
		if _, err := tx.Run(ctx, "MATCH (n {user_id: 'bob'}) DETACH DELETE n", nil); err != nil {
			t.Fatal(err)
		}
	}
	res, err := tx.Run(ctx, cypher, params)
	if err != nil {
		return "error: " + err.Error()
	}
	var rows []string
	for res.Next(ctx) {
		rows = append(rows, fmt.Sprint(res.Record().AsMap()))
	}
	if err := res.Err(); err != nil {
		return "error: " + err.Error()
	}
	sort.Strings(rows)
	return strings.Join(rows, "\n")
}

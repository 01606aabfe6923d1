package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/memory/traverse"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

// statementTools calls an agent-written statement through run_cypher (on
// code-rag, which has no tenant) or traverse (on the memory graph, as
// alice), on engines with the given timeout (the default when zero).
type statementTools struct {
	runCypher, traverse *engine.Engine
}

func newStatementTools(t *testing.T, d neo4j.DriverWithContext, timeout time.Duration) statementTools {
	t.Helper()
	mem := newEngine(t, d, "../testdata/configs/valid/memory-graph.yaml", engine.Options{Timeout: timeout,
		Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}})
	return statementTools{runCypher: codeRAG(t, d, engine.Options{Timeout: timeout}), traverse: mem}
}

// call runs one statement through the tool; the result is marshalled.
func (s statementTools) call(tool, statement string) (string, error) {
	e, arg, ctx := s.runCypher, "query", context.Background()
	if tool == traverse.Name {
		e, arg, ctx = s.traverse, "cypher", tenant.With(ctx, "alice")
	}
	raw, _ := json.Marshal(map[string]string{arg: statement})
	res, err := e.Execute(ctx, engine.Call{Name: tool, Arguments: raw})
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(res)
	return string(out), err
}

// TestRunCypherAndTraverseShapeEveryValueAlike returns the same values —
// a node, a relationship, a path, every temporal and spatial kind, NaN and
// the infinities, maps, lists and an embedding — through run_cypher and
// through traverse: the rows are the same JSON and the notes the same
// words. (traverse's nodes are alice's, whose tenant field it leaves out;
// run_cypher's are their twins without one.)
func TestRunCypherAndTraverseShapeEveryValueAlike(t *testing.T) {
	d := neo4jtest.Open(t)
	neo4jtest.Run(t, d, `UNWIND ['alice', null] AS u
		CREATE (:Person {user_id: u, name: 'Ada', born: date('1815-12-10'), embedding: [x IN range(1, 32) | 0.5]})-[:thinks_about {since: datetime('2024-03-01T12:30:00+01:00'), weight: 1.0/0.0}]->(:Concept {user_id: u, name: 'engines', at: point({latitude: 51.5, longitude: -0.125})})`, nil)
	const values = ` RETURN a, r, p, [a, c] AS nodes, date('2024-03-01') AS d, datetime('2024-07-01T12:30:00[Europe/Paris]') AS dt,
		localdatetime('2024-03-01T12:30:00.5') AS ldt, localtime('12:30:00.25') AS lt, time('12:30:00+02:00') AS tm, duration('P1M2DT3S') AS dur,
		point({x: 1, y: 2, z: 3}) AS xyz, 0.0/0.0 AS nan, 1.0/0.0 AS inf, -1.0/0.0 AS ninf, {k: [-1.0/0.0, 'x', {d: date('2024-03-01')}]} AS m,
		[x IN range(1, 32) | x * 0.5] AS vec, 42 AS i, 2.5 AS f, true AS b, null AS n, 'text' AS s`
	s := newStatementTools(t, d, 0)
	rc, err := s.call(planner.RunCypher, "MATCH p = (a:Person)-[r:thinks_about]->(c:Concept) WHERE a.user_id IS NULL AND c.user_id IS NULL"+values)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := s.call(traverse.Name, "MATCH p = (a:Person)-[r:thinks_about]->(c:Concept) WHERE a.user_id = $tenant AND c.user_id = $tenant"+values)
	if err != nil {
		t.Fatal(err)
	}
	var got [2]struct {
		Rows  []json.RawMessage `json:"rows"`
		Notes []string          `json:"notes"`
	}
	for i, out := range []string{rc, tr} {
		if err := json.Unmarshal([]byte(out), &got[i]); err != nil || len(got[i].Rows) != 1 {
			t.Fatalf("%s: want one row: %v", out, err)
		}
	}
	if string(got[0].Rows[0]) != string(got[1].Rows[0]) {
		t.Errorf("run_cypher and traverse shape the same values differently:\nrun_cypher %s\ntraverse   %s", got[0].Rows[0], got[1].Rows[0])
	}
	ada := `{"born":"1815-12-10","name":"Ada"}`
	for _, want := range []string{
		`"a":` + ada,
		`"r":{"since":"2024-03-01T12:30:00+01:00","weight":"Infinity"}`,
		`"p":{"length":1,"nodes":[` + ada + `,{"at":{"latitude":51.5,"longitude":-0.125},"name":"engines"}],"relationships":[{"properties":{"since":"2024-03-01T12:30:00+01:00","weight":"Infinity"},"type":"thinks_about"}]}`,
		`"dt":"2024-07-01T12:30:00+02:00"`, `"dur":"P1M2DT3S"`, `"xyz":{"srid":9157,"x":1,"y":2,"z":3}`,
		`"nan":"NaN"`, `"inf":"Infinity"`, `"ninf":"-Infinity"`, `"m":{"k":["-Infinity","x",{"d":"2024-03-01"}]}`,
	} {
		if !strings.Contains(string(got[1].Rows[0]), want) {
			t.Errorf("the row lacks %s:\n%s", want, got[1].Rows[0])
		}
	}
	if strings.Contains(string(got[1].Rows[0]), `"vec"`) || strings.Contains(string(got[1].Rows[0]), "user_id") {
		t.Errorf("the row shows an embedding or the tenant field: %s", got[1].Rows[0])
	}
	want := []string{"embedding vectors left out: embedding, vec"}
	for i, tool := range []string{planner.RunCypher, traverse.Name} {
		if strings.Join(got[i].Notes, "|") != strings.Join(want, "|") {
			t.Errorf("%s notes %q, want %q", tool, got[i].Notes, want)
		}
	}
}

// TestRunCypherAndTraverseClassifyAFailingStatementAlike runs failing
// statements through both tools: what Neo4j refuses as the statement's
// fault — RETURN 1/0 (an ArithmeticError Neo4j raises only when the
// statement runs), an overflow, a missing parameter, a procedure refusing
// an index that does not exist, a statement that runs past the timeout —
// is the same CallError on the statement in both, with the same message;
// what is the server's (a DatabaseError) is an internal error in both.
func TestRunCypherAndTraverseClassifyAFailingStatementAlike(t *testing.T) {
	d := neo4jtest.Open(t)
	s := newStatementTools(t, d, 0)
	slow := newStatementTools(t, d, time.Second)
	for _, c := range []struct {
		name               string
		tools              statementTools
		runCypher, travers string
		// want is the CallError's message; "" wants an internal error.
		want string
	}{
		{"division by zero", s, "RETURN 1/0 AS x", "RETURN 1/0 AS x", "/ by zero"},
		{"division by zero of a row", s, "UNWIND [1, 0] AS n RETURN 1/n AS x", "UNWIND [1, 0] AS n RETURN 1/n AS x", "/ by zero"},
		{"overflow", s, "RETURN 9223372036854775807 + 1 AS x", "RETURN 9223372036854775807 + 1 AS x", "long overflow"},
		{"missing parameter", s, "RETURN $nope AS x", "RETURN $nope AS x", "Expected parameter(s): nope"},
		{"type error", s, "RETURN toInteger([1]) AS x", "RETURN toInteger([1]) AS x", "Invalid input for function 'toInteger()'"},
		{"no such index", s,
			"CALL db.index.fulltext.queryNodes('nope', 'x') YIELD node RETURN node.name AS n",
			"CALL db.index.fulltext.queryNodes('nope', 'x') YIELD node WHERE node.user_id = $tenant RETURN node.name AS n",
			"There is no such fulltext schema index: nope"},
		{"past the timeout", slow,
			"UNWIND range(1, 1000000000) AS x WITH x WHERE x % 7 = 99 RETURN count(x) AS n",
			"UNWIND range(1, 1000000000) AS x WITH x WHERE x % 7 = 99 RETURN count(x) AS n",
			"the query timed out"},
		{"the server's error", s, "RETURN substring('abc', -1) AS x", "RETURN substring('abc', -1) AS x", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var msgs []string
			for tool, q := range map[string]string{planner.RunCypher: c.runCypher, traverse.Name: c.travers} {
				out, err := c.tools.call(tool, q)
				var ce *tools.CallError
				switch {
				case c.want == "" && (err == nil || errors.As(err, &ce)):
					t.Errorf("%s %q: got %s, %v; want an internal error", tool, q, out, err)
				case c.want == "" && !strings.Contains(err.Error(), "Neo.DatabaseError"):
					t.Errorf("%s %q: got %v; want Neo4j's DatabaseError", tool, q, err)
				case c.want != "" && (!errors.As(err, &ce) || len(ce.Problems) != 1 || !strings.Contains(ce.Problems[0].Message, c.want)):
					t.Errorf("%s %q: got %s, %v; want a CallError saying %q", tool, q, out, err, c.want)
				case c.want != "" && ce.Problems[0].Path != map[string]string{planner.RunCypher: "/query", traverse.Name: "/cypher"}[tool]:
					t.Errorf("%s %q: the CallError is on %s, not on the statement", tool, q, ce.Problems[0].Path)
				case c.want != "":
					msgs = append(msgs, ce.Problems[0].Message)
				}
			}
			if len(msgs) == 2 && msgs[0] != msgs[1] {
				t.Errorf("the tools word the same fault differently:\n%s\n%s", msgs[0], msgs[1])
			}
		})
	}
}

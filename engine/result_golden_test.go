package engine

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/golden"
	"github.com/ragforge/ragforge/internal/golden/plancase"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// goldenEngine is an engine without a driver that plans c as the
// planner's golden test does (every tool on, c's capabilities and
// materialized fields, plancase.Now), so its statement is the case's.
// Its embedder is never called: Plan leaves the query's vector to run.
func goldenEngine(t testing.TB, c *plancase.Case) *Engine {
	t.Helper()
	caps := c.Caps
	e, err := New(t.Context(), plancase.Model(t, "..", c.Config), Options{
		Tools: tools.Options{Aggregations: true, RawCypher: true, Capabilities: &caps},
		Now:   plancase.Now,
		State: func(context.Context) (model.State, error) { return c.State, nil },
		Embedder: EmbedderFunc(func(context.Context, string, *model.VectorIndex) ([]float32, error) {
			return nil, errors.New("the golden cases embed nothing")
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// goldenStatement plans c's call and checks that it is the statement the
// case records (its cypher section), which its rows came from.
func goldenStatement(t testing.TB, e *Engine, c *plancase.Case) *planner.Statement {
	t.Helper()
	st, err := e.Plan(t.Context(), Call{Name: c.Tool, Arguments: json.RawMessage(c.Args)})
	if err != nil {
		t.Fatalf("planning the case: %v", err)
	}
	if want, _ := golden.File(c.Archive, "cypher"); st.Cypher+"\n" != want {
		t.Fatalf("the engine plans another statement than the case's cypher, which its rows.json came from; rewrite the planner's goldens first (TestGoldenPlans), then the rows (TestGoldenRowsFromNeo4j):\n%s", st.Cypher)
	}
	if st.Filter != nil {
		t.Fatal("a scan's rows (a Filter statement) come in chunks; rows.json replays one statement's rows")
	}
	return st
}

// goldenTotal is the count of the total row c's total.json recorded.
func goldenTotal(t *testing.T, c *plancase.Case) any {
	t.Helper()
	raw, ok := golden.File(c.Archive, "total.json")
	if !ok {
		t.Fatal("the case's statement has a total and the case no total.json (TestGoldenRowsFromNeo4j records it)")
	}
	recs, err := decodeRows(raw)
	if err != nil || len(recs) != 1 {
		t.Fatalf("total.json: %d rows, %v; want the total statement's one row", len(recs), err)
	}
	n, _ := recs[0].Get(planner.ColTotal)
	return n
}

// TestGoldenAnswers replays the result stage offline: for each case of
// testdata/planner that carries rows.json (the rows Neo4j returned for
// its statement, recorded by TestGoldenRowsFromNeo4j), the engine plans
// the call, shapes the rows as run reads them (shaper.read: the limit,
// the row beyond it, ties, notes, values converted by neo4jvalue) and
// with its total (total.json, the total statement's row) when it has one,
// and the answer must equal the case's answer.json, the JSON the agent
// receives from the shaper. What Execute adds after the shaper reads
// Neo4j again (the empty-search, pinned-value and text notes) and is
// not replayed. RAGFORGE_UPDATE=1 rewrites answer.json.
func TestGoldenAnswers(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range plancase.Read(t, "..") {
		rows, ok := golden.File(c.Archive, "rows.json")
		if !ok {
			continue
		}
		covered[c.Tool] = true
		t.Run(c.Name(), func(t *testing.T) {
			e := goldenEngine(t, c)
			st := goldenStatement(t, e, c)
			recs, err := decodeRows(rows)
			if err != nil {
				t.Fatal(err)
			}
			sh := newShaper(t.Context(), e, c.Tool, st)
			sh.read(slices.Values(recs), e.rowCap(st))
			if st.Total != nil {
				sh.total(goldenTotal(t, c))
			}
			answer, err := json.MarshalIndent(sh.result(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.CheckArchive(t, c.Path, c.Archive, []string{"answer.json"}, map[string]string{"answer.json": string(answer) + "\n"})
		})
	}
	var missing []string
	for _, k := range planner.Kinds() {
		if !covered[k.Name] {
			missing = append(missing, k.Name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("no case of testdata/planner carries rows.json for %s: every generated tool needs one", strings.Join(missing, ", "))
	}
}

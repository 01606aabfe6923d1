package planner_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/planner"
	"github.com/ragforge/ragforge/tools"
)

// operators lists a profiled plan's operators (name and details), root
// first.
func operators(p neo4j.ProfiledPlan, out *[]string) {
	*out = append(*out, fmt.Sprintf("%s %v rows=%d", strings.TrimSuffix(p.Operator(), "@neo4j"), p.Arguments()["Details"], p.Records()))
	for _, c := range p.Children() {
		operators(c, out)
	}
}

// TestSortPutsNullsLastAndKeepsTheIndex: query_entities sorted on a stored
// property returns every entity, those without a value last in both
// directions and across pages, and Neo4j still reads the order from the
// property's range index (a NodeIndexScan that stops after the page,
// never a label scan) while the page is filled by entities with a value.
// A runtime computed sort puts nulls last too.
func TestSortPutsNullsLastAndKeepsTheIndex(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	// 300 files: extension e000..e299 on most, none on every tenth; size
	// null on every seventh. lines drives the computed-free checks.
	var rows []map[string]any
	for i := range 300 {
		r := map[string]any{"path": fmt.Sprintf("f%03d", i), "name": "x", "size": int64(i)}
		if i%10 != 3 {
			r["extension"] = fmt.Sprintf("e%03d", (i*37)%300)
		}
		if i%7 == 0 {
			r["size"] = nil
		}
		rows = append(rows, r)
	}
	neo4jtest.Run(t, d, "UNWIND $rows AS r CREATE (f:File) SET f = r", map[string]any{"rows": rows})
	neo4jtest.Run(t, d, "CREATE RANGE INDEX file_extension IF NOT EXISTS FOR (n:File) ON (n.extension)", nil)
	neo4jtest.Run(t, d, "CALL db.awaitIndexes(300)", nil)

	// want is the whole sorted list computed in Go: values sorted, then
	// the nulls by path.
	want := func(dir string) []string {
		var with, without []map[string]any
		for _, r := range rows {
			if r["extension"] == nil {
				without = append(without, r)
			} else {
				with = append(with, r)
			}
		}
		slices.SortFunc(with, func(a, b map[string]any) int {
			c := strings.Compare(a["extension"].(string), b["extension"].(string))
			if dir == "DESC" {
				c = -c
			}
			return c
		})
		var out []string
		for _, r := range append(with, without...) {
			out = append(out, r["path"].(string))
		}
		return out
	}
	f := newFixture(t, "code-rag.yaml", tools.Capabilities{FullText: true})
	for _, dir := range []string{"ASC", "DESC"} {
		var got []string
		for offset := 0; offset < 300; offset += 40 {
			args := fmt.Sprintf(`{"entity_type":"File","order_by":{"field":"extension","direction":%q},"limit":40,"offset":%d}`, dir, offset)
			st, err := f.plan(planner.QueryEntities, args, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runPlanned(t, d, st) {
				id, _ := r.Get("id")
				got = append(got, id.(string))
			}
		}
		if w := want(dir); !slices.Equal(got, w) {
			t.Errorf("%s: got %d entities %v…, want %d %v…", dir, len(got), head(got), len(w), head(w))
		}

		// The first page is read from the index and stops early.
		st, err := f.plan(planner.QueryEntities, fmt.Sprintf(`{"entity_type":"File","order_by":{"field":"extension","direction":%q},"limit":10}`, dir), nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := neo4j.ExecuteQuery(ctx, d, "PROFILE "+st.Cypher, st.Params, neo4j.EagerResultTransformer,
			neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()), neo4j.ExecuteQueryWithReadersRouting())
		if err != nil {
			t.Fatal(err)
		}
		var ops []string
		operators(res.Summary.Profile(), &ops)
		plan := strings.Join(ops, "\n")
		if !strings.Contains(plan, "NodeIndexScan RANGE INDEX n:File(extension)") {
			t.Errorf("%s: the sort does not read the range index:\n%s", dir, plan)
		}
		for _, op := range ops {
			if strings.HasPrefix(op, "NodeByLabelScan") && !strings.HasSuffix(op, "rows=0") {
				t.Errorf("%s: a full page still scanned the label (%s):\n%s", dir, op, plan)
			}
			if strings.HasPrefix(op, "NodeIndexScan") && !strings.HasSuffix(op, "rows=10") && !strings.HasSuffix(op, "rows=11") {
				t.Errorf("%s: the index scan did not stop after the page (%s):\n%s", dir, op, plan)
			}
		}
	}

	// A sort with no index (stored size, runtime computed line_count
	// alike) keeps every entity and puts those without a value last.
	for _, dir := range []string{"ASC", "DESC"} {
		st, err := f.plan(planner.QueryEntities, fmt.Sprintf(`{"entity_type":"File","order_by":{"field":"size","direction":%q},"limit":50}`, dir), nil)
		if err != nil {
			t.Fatal(err)
		}
		recs := runPlanned(t, d, st)
		if len(recs) != 50 {
			t.Fatalf("size %s: %d rows", dir, len(recs))
		}
		st, err = f.plan(planner.QueryEntities, fmt.Sprintf(`{"entity_type":"File","order_by":{"field":"size","direction":%q},"limit":50,"offset":260}`, dir), nil)
		if err != nil {
			t.Fatal(err)
		}
		recs = runPlanned(t, d, st)
		var sizes []any
		for _, r := range recs {
			p, _ := r.Get("properties")
			sizes = append(sizes, p.(map[string]any)["size"])
		}
		// 300 files, 43 without size: the last 40 rows (offset 260) are
		// 40 of the nulls.
		if len(sizes) != 40 || slices.ContainsFunc(sizes, func(v any) bool { return v != nil }) {
			t.Errorf("size %s, offset 260: got sizes %v, want 40 nulls", dir, sizes)
		}
	}
	neo4jtest.Run(t, d, "CREATE (:Scope {uuid: 'nul', name: 'n'}), (:Scope {uuid: 'one', name: 'o', startLine: 1, endLine: 1}), (:Scope {uuid: 'two', name: 't', startLine: 1, endLine: 2})", nil)
	for dir, w := range map[string][]string{"ASC": {"one", "two", "nul"}, "DESC": {"two", "one", "nul"}} {
		var got []string
		for _, r := range runStatement(t, d, planner.QueryEntities, fmt.Sprintf(`{"entity_type":"Scope","order_by":{"field":"line_count","direction":%q}}`, dir)) {
			id, _ := r.Get("id")
			got = append(got, id.(string))
		}
		if !slices.Equal(got, w) {
			t.Errorf("line_count %s: got %v, want %v", dir, got, w)
		}
	}
}

func head(s []string) []string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

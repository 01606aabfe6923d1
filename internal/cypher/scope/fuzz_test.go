package scope

import (
	"slices"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
)

// FuzzScopeConjuncts: splitting never panics, every conjunct is a piece
// of the predicate, and a variable is scoped only when the predicate
// holds its tenant comparison.
func FuzzScopeConjuncts(f *testing.F) {
	for _, s := range []string{
		"(n.user_id = $tenant AND n.name = $autostring_0)", "NOT n.user_id = $tenant", "n.user_id = $tenant OR true",
		"cache[n.user_id] = $tenant", "CASE WHEN a THEN b ELSE c AND n.user_id = $tenant END", "`a``b`.user_id = $tenant AND 'x''",
		"((a AND (b)) AND n.user_id = $tenant)", "n.name = 'x AND n.user_id = $tenant'", "$tenant = cache[m.user_id] AND [x IN l WHERE x OR y]",
	} {
		f.Add(s)
	}
	m := newMatcher("user_id", "tenant")
	f.Fuzz(func(t *testing.T, pred string) {
		for _, nests := range []bool{false, true} {
			for _, c := range conjuncts(pred, nests) {
				if !strings.Contains(pred, c) {
					t.Fatalf("conjunct %q is not in %q", c, pred)
				}
			}
		}
		for _, v := range m.scoped(pred) {
			if !strings.Contains(pred, v+".user_id") && !strings.Contains(pred, v+".`user_id`") {
				t.Fatalf("%q scoped from %q, which never compares its tenant field", v, pred)
			}
		}
		aliases(pred)
		parseHop(pred)
		parseProc(pred)
		m.seekScoped(pred)
	})
}

// fuzzOps are the operators the plan fuzzer builds trees of.
var fuzzOps = []string{"Filter", "AllNodesScan", "NodeByLabelScan", "NodeIndexSeek", "Expand(All)", "OptionalExpand(All)", "Expand(Into)",
	"Projection", "Apply", "CartesianProduct", "SemiApply", "RollUpApply", "Union", "Limit", "EagerAggregation", "ProcedureCall",
	"DirectedAllRelationshipsScan", "ProjectEndpoints", "VarLengthExpand(All)", "Argument", "Unwind", "Optional", "Mystery",
	"NodeHashJoin", "NodeLeftOuterHashJoin", "NodeRightOuterHashJoin"}

// FuzzScopeCheck: Check never panics on a plan of any shape, and never
// accepts a plan that reads nodes without any tenant predicate at all.
func FuzzScopeCheck(f *testing.F) {
	f.Add([]byte{0, 1, 2}, "n.user_id = $tenant", "n:Person", "(n)-[r]->(m)", "n, m")
	f.Add([]byte{8, 9, 1, 1}, "cache[n.user_id] = $tenant", "n", "RANGE INDEX n:Person(user_id) WHERE user_id = $tenant", "m AS n")
	f.Add([]byte{4, 0, 3, 16}, "(a)-[r]->(b)", "m.user_id = $tenant", "a.user_id = $tenant AND b.user_id = $tenant", "x")
	f.Add([]byte{15, 0, 1}, "db.index.fulltext.queryNodes($a, $b) :: (node :: NODE)", "node.user_id = $tenant", "node", "")
	f.Fuzz(func(t *testing.T, shape []byte, d1, d2, d3, d4 string) {
		if len(shape) > 12 {
			shape = shape[:12]
		}
		details := []string{d1, d2, d3, d4}
		i := 0
		var build func() *readonly.Op
		build = func() *readonly.Op {
			if i >= len(shape) {
				return nil
			}
			b := shape[i]
			op := &readonly.Op{Operator: fuzzOps[int(b)%len(fuzzOps)], Details: details[i%4], Identifiers: strings.Fields(details[(i+1)%4])}
			i++
			for range int(b>>5) % 3 {
				if c := build(); c != nil {
					op.Children = append(op.Children, c)
				}
			}
			return op
		}
		plan := build()
		err := Check(plan, "user_id", "tenant")
		if err == nil && plan != nil && !slices.ContainsFunc(details, func(d string) bool { return strings.Contains(d, "user_id") }) && reads(plan) {
			t.Fatalf("accepted a plan that reads nodes with no tenant predicate: %+v", plan)
		}
	})
}

// reads reports whether a plan has an operator that reads nodes.
func reads(op *readonly.Op) bool {
	switch kindOf(op.Operator) {
	case nodeLeaf, relLeaf, expandAll, optionalExpandAll:
		return true
	}
	return slices.ContainsFunc(op.Children, reads)
}

package computed

// Regression tests for disagreements between the Go evaluation and Neo4j
// that the random differential test found, each pinned to its case.

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// Neo4j's planner flattens nested products and folds their constants first
// (x * 2 * 3.0 runs as x * 6.0), so an integer product that overflows in Go
// came back from Neo4j as a float (seed 1795386529856756761 of the
// differential test). The compiled fragment must overflow on Neo4j too.
func TestNestedProductsOverflowOnNeo4jAsInGo(t *testing.T) {
	driver := neo4jtest.Open(t)
	ctx := context.Background()
	props := map[string]any{"i1": int64(3), "i2": int64(1) << 62}
	neo4jtest.Run(t, driver, "CREATE (n:DiffT) SET n = $props", map[string]any{"props": props})
	now := time.Now().UTC()
	for _, src := range []string{
		"-((3.0 + 8) * (4 * i2))",
		"i2 * 2 * 3.0",
		"(2 * (i2 * 3)) * 2.0",
		"line_count * 4 * 2.5",
	} {
		f, err := compileAny(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := f.EvalAt(props, now); err == nil {
			t.Fatalf("%s: Go did not overflow; the test's entity no longer exercises the bug", src)
		}
		frag, err := f.Fragment(Options{Now: "datetime($now)"})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		res, err := neo4j.ExecuteQuery(ctx, driver, "MATCH (n:DiffT) RETURN "+frag.Cypher+" AS v",
			map[string]any{"now": now}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
		if err == nil {
			t.Errorf("%s: Go overflows but Neo4j returned %v\n  cypher %s", src, res.Records[0].Values[0], frag.Cypher)
		}
	}
}

// Neo4j rounds through Java's BigDecimal, which has no negative zero, so a
// rounded -0.3 or -0.0 is +0.0 and not below 0.0 (seed
// 1795387185840431346: round(i2 % 0.5) < round(abs(0.1)) was true in Go).
func TestRoundNeverGivesNegativeZeroAsOnNeo4j(t *testing.T) {
	for _, x := range []float64{-0.3, -0.0, -0.5 + 1e-9} {
		if r := round(x); r != 0 || math.Signbit(r) {
			t.Errorf("round(%v) = %v (sign bit %v), want +0", x, r, math.Signbit(r))
		}
	}
	f, err := compileAny("round(i2 % 0.5) < round(abs(0.1))")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := f.EvalAt(map[string]any{"i2": int64(-24)}, time.Now()); err != nil || v != false {
		t.Errorf("round(-24 %% 0.5) < round(abs(0.1)) = %v, %v; Neo4j says false", v, err)
	}
}

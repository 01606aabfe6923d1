package computed

// Regression tests for disagreements between the Go evaluation and Neo4j
// that the random differential test found, each pinned to its case.

import (
	"context"
	"errors"
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
		frag, err := f.Fragment(Options{Now: testNow})
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

// Neo4j rewrites boolean expressions into conjunctive normal form before
// planning, distributing OR over AND (after De Morgan has pushed NOT
// inward). With an operand that overflows that changes the answer: null OR
// (<overflow> AND false) is null, as Go says, but the rewritten
// (null OR <overflow>) AND (null OR false) raised "long overflow" (seed
// 1795500795396730228 of the differential test, whose case is the first
// here). The second reaches an AND under an OR only through De Morgan:
// null OR NOT (<overflow> OR true). The entity leaves b1 and b2 null and
// makes i2 - i1 overflow; both sides must give null, without an error.
func TestOrOverAndKeepsAnAbsorbedOverflowOnNeo4jAsInGo(t *testing.T) {
	driver := neo4jtest.Open(t)
	ctx := context.Background()
	props := map[string]any{"i1": int64(83), "i2": int64(math.MinInt64)}
	neo4jtest.Run(t, driver, "CREATE (n:DiffT) SET n = $props", map[string]any{"props": props})
	now := time.Now().UTC()
	if f, err := compileAny("i2 - i1"); err != nil {
		t.Fatal(err)
	} else if _, err := f.EvalAt(props, now); !errors.Is(err, ErrOverflow) {
		t.Fatalf("i2 - i1: err = %v, want ErrOverflow; the entity no longer exercises the bug", err)
	}
	for _, src := range []string{
		"(((true ?? b2) and (b1 ?? b2)) or (not is_large and (4 >= i1)))",
		"b1 or not (i2 - i1 > 100 or i1 > 4)",
	} {
		f, err := compileAny(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if v, err := f.EvalAt(props, now); v != nil || err != nil {
			t.Errorf("%s: Go gives %v, %v; want null", src, v, err)
		}
		frag, err := f.Fragment(Options{Now: testNow})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		res, err := neo4j.ExecuteQuery(ctx, driver, "MATCH (n:DiffT) RETURN "+frag.Cypher+" AS v",
			map[string]any{"now": now}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
		if err != nil {
			t.Errorf("%s: Neo4j failed: %v\n  cypher %s", src, err, frag.Cypher)
		} else if v := res.Records[0].Values[0]; v != nil {
			t.Errorf("%s: Neo4j gives %v, want null\n  cypher %s", src, v, frag.Cypher)
		}
	}
}

// A DATETIME in a named zone, stored in the hour that zone repeats when its
// clocks go back, was read an hour early on Neo4j: datetime({datetime: x,
// timezone: 'Z'}) resolves x's wall clock (02:30 in Paris) to the earlier
// of its two instants (found when the differential test's boundaries met
// Europe/Paris on 2024-10-27). Go read the stored instant. Both must agree
// on every expression that reads it, before 1970 too, where Neo4j's
// epochSeconds rounds toward zero.
func TestZonedDatetimeInARepeatedHourKeepsItsInstant(t *testing.T) {
	driver := neo4jtest.Open(t)
	ctx := context.Background()
	paris, err1 := time.LoadLocation("Europe/Paris")
	newYork, err2 := time.LoadLocation("America/New_York")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	instants := []time.Time{
		time.Date(2024, 10, 27, 1, 30, 0, 0, time.UTC).In(paris),           // 02:30 CET, the second 02:30
		time.Date(2024, 10, 27, 0, 30, 0, 0, time.UTC).In(paris),           // 02:30 CEST, the first
		time.Date(2024, 11, 3, 6, 59, 59, 999999999, time.UTC).In(newYork), // 01:59:59.999999999 EST, the second
		time.Date(1969, 12, 31, 23, 59, 59, 500000001, time.UTC).In(paris), // before 1970, sub-millisecond
	}
	for i, x := range instants {
		neo4jtest.Run(t, driver, "CREATE (n:DiffT {__id: $id, d1: $x, d3: $ms})", map[string]any{"id": int64(i), "x": x, "ms": x.UnixMilli()})
	}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, src := range []string{"d1", "hour(d1)", "day(d1)", "truncate(d1, 'hour')", "days_between(d1, now())", "d1 == d3"} {
		f, err := compileAny(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		frag, err := f.Fragment(Options{Now: testNow})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		res, err := neo4j.ExecuteQuery(ctx, driver, "MATCH (n:DiffT) RETURN n.__id AS id, "+frag.Cypher+" AS v",
			map[string]any{"now": now}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
		if err != nil {
			t.Fatalf("%s: %v\n  cypher %s", src, err, frag.Cypher)
		}
		for _, rec := range res.Records {
			id := rec.Values[0].(int64)
			props := map[string]any{"d1": instants[id], "d3": instants[id].UnixMilli()}
			want, err := f.EvalAt(props, now)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			if got := rec.Values[1]; !sameValue(want, got, false) {
				t.Errorf("%s on %v:\n  Go    %#v\n  Neo4j %#v\n  cypher %s", src, instants[id], want, got, frag.Cypher)
			}
		}
	}
}

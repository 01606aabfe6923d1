package computed

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // named zones for random datetimes

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

// fixedExpressions cover every supported construct at least once, with the
// edge cases each is known for.
var fixedExpressions = []string{
	"i1 + i2", "i1 - i2", "i1 * i2", "x1 + i1", "x1 * x2 - i2",
	"i1 / i2", "x1 / x2", "i1 / 0", "x1 / 0.0", "i1 % i2", "x1 % i2", "x1 % x2", "-7 % i2",
	"i1 ** 2", "x1 ** 0.5", "-i1", "-x1", "+i2",
	"i1 < i2", "i1 <= x1", "x1 > x2", "x1 >= i2", "i1 == x1", "i1 != i2",
	"s1 == s2", "s1 != 'abc'", "kind == 'b'", "b1 == b2", "b1 != b2",
	"d1 < d2", "d1 == d3", "d3 >= d4", "d2 != d4", "d1 < now()",
	"i1 == nil", "s1 != nil", "d2 == nil",
	"b1 and b2", "b1 or b2", "not b1", "b1 && i1 > 0", "b2 || x1 < 0", "!(b1 and b2) or b2",
	"b1 ? i1 : i2", "b1 ? x1 : i2", "i1 > 0 ? s1 : s2", "b1 ? d1 : d2", "i2 > 0 ? x1 / i2 : nil",
	"i1 ?? i2", "i1 ?? 0", "s1 ?? 'none'", "d2 ?? d1", "b1 ?? false",
	"s1 + s2", "s1 + '·' + kind",
	"s1 contains s2", "s1 contains 'a'", "s1 startsWith 's'", "s1 endsWith s2", "s1 not contains ' '",
	"s1 matches '^[a-z]+_test$'", "s1 matches '^[0-9]{3}-x'", "s1 matches '^.*$'", "s1 matches '^.'",
	"s1 matches '^\\\\pL+'", "s1 matches '^😀'", "s1 matches '^a?b*[^a-z]+'", "s2 not matches '^\\\\s'",
	"i1 in [0, 1, 2]", "x1 in [2.5, 0, -1]", "kind in ['a', 'é']", "s1 not in ['', 'abc']",
	"len(s1)", "len(s2) + len(kind)",
	"abs(i1)", "abs(x1)", "ceil(x1)", "floor(x2)", "ceil(i1)", "round(x1)", "round(x2 / 4)", "round(i1 / 2)",
	"lower(s1)", "upper(s1)", "trim(s1)", "upper(s2) + lower(s2)", "len(upper(s1))", "trim(s2) == s2",
	"min(i1, i2)", "max(i1, x1)", "min(x1 / 2, x2)", "max(i2 - 1, i1 * 2)",
	"now()", "days_since(d1)", "days_since(d2)", "hours_since(d3)", "days_between(d4, d1)", "days_between(d2, d3)",
	"d1", "d2", "d3", "d4",
	"year(d1)", "month(d2)", "day(d3)", "hour(d4)", "weekday(d1)", "weekday(d2)", "weekday(d3)", "hour(now())",
	"truncate(d1, 'hour')", "truncate(d2, 'day')", "truncate(d3, 'week')", "truncate(d4, 'month')", "truncate(d1, 'year')",
	"truncate(d2 ?? d1, 'week')", "month(truncate(d2, 'week'))", "truncate(truncate(d3, 'month'), 'week')",
	"hour(d3) in [0, 23]", "days_between(truncate(d4, 'month'), d4)", "year(d2) * 10000 + month(d2) * 100 + day(d2)",
	"truncate(d1, 'day') == truncate(d2, 'day')", "b1 ? hour(d1) : weekday(d4)",
	"line_count", "is_large", "is_large ? line_count : -1",
	// Numbers and datetimes stored as text, and the casts of text.
	"t1", "t2", "t3", "t1 > 20", "t1 * t2", "t2 % 7", "t3 >= d1", "year(t3)", "truncate(t3, 'day')", "t1 ?? -1.0",
	"to_float(s1)", "to_int(s1)", "to_datetime(s1)", "to_float(s1 + s2)", "to_int(s2) + i1", "days_between(to_datetime(s2), d1)",
	"t4", "t4 < t3", "month(t4)", "parse_datetime(s1, '02/01/2006 15:04:05.000')", "parse_datetime(s2, '2006/01/02')",
}

// diffEntity is testEntity with a computed chain for dependency tests.
func diffEntity(expr, typ string) *model.Entity {
	return testEntity(
		[3]string{"line_count", "integer", "i2 - i1 + 1"},
		[3]string{"is_large", "boolean", "line_count > 100"},
		[3]string{"f", typ, expr},
	)
}

// compileAny compiles expr as field f with whichever declared type fits.
func compileAny(expr string) (*Field, error) {
	var last error
	for _, typ := range []string{"integer", "number", "boolean", "string", "datetime"} {
		ce, err := Compile(diffEntity(expr, typ))
		if err == nil {
			return ce.Field("f"), nil
		}
		last = err
	}
	return nil, last
}

// TestDifferentialNeo4jAgreesWithGo evaluates every fixed expression and a
// batch of random ones on random entities, in Go (Field.EvalAt) and on
// Neo4j (the fragment), and requires the same value — type included — or an
// error on both sides. RAGFORGE_DIFF_SEED reproduces a run,
// RAGFORGE_DIFF_ENTITIES and RAGFORGE_DIFF_EXPRS scale it.
func TestDifferentialNeo4jAgreesWithGo(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("RAGFORGE_DIFF_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("RAGFORGE_DIFF_SEED: %v", err)
		}
		seed = v
	}
	fmt.Fprintf(os.Stderr, "differential: seed %d (RAGFORGE_DIFF_SEED=%d reproduces)\n", seed, seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	nEntities, nRandom := envInt("RAGFORGE_DIFF_ENTITIES", 40), envInt("RAGFORGE_DIFF_EXPRS", 60)

	driver := neo4jtest.Open(t)
	ctx := context.Background()
	start := time.Now()

	entities := make([]map[string]any, nEntities)
	rows := make([]map[string]any, nEntities)
	for i := range entities {
		entities[i] = randomEntity(rng)
		rows[i] = map[string]any{"id": int64(i), "props": entities[i]}
	}
	neo4jtest.Run(t, driver, "UNWIND $rows AS row CREATE (n:DiffT) SET n = row.props, n.__id = row.id", map[string]any{"rows": rows})
	now := randomInstant(rng).UTC()

	exprs := append([]string(nil), fixedExpressions...)
	g := &exprGen{rng: rng}
	for len(exprs) < len(fixedExpressions)+nRandom {
		exprs = append(exprs, g.any(3))
	}
	cases, errCases := 0, 0
	for _, src := range exprs {
		f, err := compileAny(src)
		if err != nil {
			// Random generation can produce kind clashes; fixed ones must compile.
			if contains(fixedExpressions, src) {
				t.Errorf("%s: %v", src, err)
			}
			continue
		}
		frag, err := f.Fragment(Options{Now: testNow})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		want := make([]any, nEntities)
		wantErr := make([]error, nEntities)
		var okIDs []int64
		for i, props := range entities {
			want[i], wantErr[i] = f.EvalAt(props, now)
			if wantErr[i] == nil {
				okIDs = append(okIDs, int64(i))
			}
		}
		q := "MATCH (n:DiffT) WHERE n.__id IN $ids " + strings.Join(frag.Subqueries, " ") + " RETURN n.__id AS id, " + frag.Cypher + " AS v"
		res, err := neo4j.ExecuteQuery(ctx, driver, q, map[string]any{"ids": okIDs, "now": now},
			neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
		if err != nil {
			t.Errorf("seed %d: %s: Neo4j failed where Go did not: %v\ncypher: %s", seed, src, err, frag.Cypher)
			continue
		}
		for _, rec := range res.Records {
			id := rec.Values[0].(int64)
			got := rec.Values[1]
			cases++
			if !sameValue(want[id], got, strings.Contains(src, "**")) {
				t.Errorf("seed %d: %s on entity %d %v:\n  Go    %#v\n  Neo4j %#v\n  cypher %s", seed, src, id, entities[id], want[id], got, frag.Cypher)
			}
		}
		for i, e := range wantErr {
			if e == nil {
				continue
			}
			cases++
			errCases++
			_, err := neo4j.ExecuteQuery(ctx, driver, "MATCH (n:DiffT {__id: $id}) RETURN "+frag.Cypher+" AS v",
				map[string]any{"id": int64(i), "now": now}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
			if err == nil {
				t.Errorf("seed %d: %s on entity %d %v: Go failed (%v) but Neo4j did not\n  cypher %s", seed, src, i, entities[i], e, frag.Cypher)
			}
		}
	}
	t.Logf("seed %d: %d cases (%d expressions × %d entities, %d agreeing errors) in %v", seed, cases, len(exprs), nEntities, errCases, time.Since(start).Round(time.Millisecond))
	if cases < 2000 && nEntities >= 40 {
		t.Errorf("only %d cases ran, want at least 2000", cases)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// sameValue compares a Go result with a Neo4j result: same type, same
// value; floats exactly (NaN equals NaN) except within 4 ulps for **, whose
// last bit Java's and Go's pow may round differently.
func sameValue(want, got any, pow bool) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case float64:
		g, ok := got.(float64)
		if !ok {
			return false
		}
		if math.IsNaN(w) || math.IsNaN(g) {
			return math.IsNaN(w) && math.IsNaN(g)
		}
		if w == g {
			return true
		}
		return pow && math.Abs(w-g) <= 4*math.Abs(math.Nextafter(w, math.Inf(1))-w)
	case time.Time:
		g, ok := got.(time.Time)
		return ok && w.Equal(g)
	}
	return want == got
}

var (
	stringPool = []string{
		"", "a", "abc", "ABC", "a_test", "abc_test", "123-x", "straße", "STRASSE", "İstanbul", "ıi", "ΟΔΟΣ ΣΑΣ",
		"  padded\t", "\u00a0nbsp\u00a0", "\u2003em\u2003", "\x1fctl\x1c", "emoji 😀🎉", "😀", "日本語テキスト",
		"it's", `back\slash`, `a\u0027b`, "a\nb", "ǅungla", "ﬁne", "ŉ", "Ǆ", "é", "e\u0301", "\uFFFD", "ß",
		"bbcc", "abcc", "b", "x1", "\t", " ",
	}
	zones = func() []*time.Location {
		// The driver sends a zone named "Offset" as a plain UTC offset.
		out := []*time.Location{time.UTC, time.FixedZone("Offset", 5*3600+1800), time.FixedZone("Offset", -8*3600)}
		for _, name := range []string{"Europe/Paris", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"} {
			if loc, err := time.LoadLocation(name); err == nil {
				out = append(out, loc)
			}
		}
		return out
	}()
)

// boundaries are instants where a date part changes: midnight, the ends of
// months and years, leap days (one before the epoch; 2100 has none), ISO
// weeks, the epoch itself, and the hour Paris repeats when its clocks go
// back (read in a named zone, d1 shows a wall clock that names two
// instants). randomInstant lands on them, or just before them, often.
var boundaries = []time.Time{
	time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
	time.Date(2000, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(1968, 3, 1, 0, 0, 0, 0, time.UTC),
	time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
	time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC), time.Date(2021, 1, 4, 0, 0, 0, 0, time.UTC),
	time.Date(1969, 12, 29, 0, 0, 0, 0, time.UTC), time.Date(2100, 3, 1, 0, 0, 0, 0, time.UTC),
	time.Date(2024, 10, 27, 1, 0, 0, 0, time.UTC),
}

func randomInstant(rng *rand.Rand) time.Time {
	if rng.IntN(4) == 0 {
		b := boundaries[rng.IntN(len(boundaries))]
		return b.Add([]time.Duration{0, -time.Nanosecond, -time.Millisecond, -time.Second, time.Hour - time.Nanosecond}[rng.IntN(5)])
	}
	lo := time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2035, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	t := time.Unix(lo+rng.Int64N(hi-lo), 0).UTC()
	switch rng.IntN(3) {
	case 0:
		t = t.Add(time.Duration(rng.IntN(1000)) * time.Millisecond)
	case 1:
		t = t.Add(time.Duration(rng.IntN(1e9)))
	}
	return t
}

func randomInt(rng *rand.Rand) any {
	switch rng.IntN(10) {
	case 0:
		return nil
	case 1:
		return int64(0)
	case 2:
		return []int64{math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, 1 << 62, -(1 << 62), 1<<53 + 1}[rng.IntN(6)]
	case 3, 4:
		return rng.Int64N(2_000_000_000) - 1_000_000_000
	}
	return rng.Int64N(400) - 100
}

func randomNumber(rng *rand.Rand) any {
	switch rng.IntN(10) {
	case 0:
		return nil
	case 1:
		return []float64{0, math.Copysign(0, -1), 2.5, -2.5, 0.5, -0.5, 1e300, -1e-300, 0.49999999999999994, 4.35}[rng.IntN(10)]
	case 2, 3:
		return randomInt(rng)
	case 4:
		return float64(rng.IntN(200)-100) / 4
	}
	return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(12)-4))
}

func randomString(rng *rand.Rand) any {
	switch rng.IntN(8) {
	case 0:
		return nil
	case 1:
		// Random runes from interesting ranges.
		ranges := [][2]rune{{0x20, 0x7e}, {0xa0, 0x24f}, {0x370, 0x3ff}, {0x2000, 0x206f}, {0x1f600, 0x1f64f}, {0x3040, 0x30ff}}
		n := rng.IntN(8)
		var b strings.Builder
		for range n {
			r := ranges[rng.IntN(len(ranges))]
			b.WriteRune(r[0] + rune(rng.IntN(int(r[1]-r[0]+1))))
		}
		return b.String()
	}
	return stringPool[rng.IntN(len(stringPool))]
}

func randomEntity(rng *rand.Rand) map[string]any {
	p := map[string]any{
		"i1": randomInt(rng), "i2": randomInt(rng),
		"x1": randomNumber(rng), "x2": randomNumber(rng),
		"s1": randomString(rng), "s2": randomString(rng),
		"kind": []any{nil, "a", "b", "é"}[rng.IntN(4)],
	}
	for _, name := range []string{"b1", "b2"} {
		p[name] = []any{nil, true, false}[rng.IntN(3)]
	}
	t := randomInstant(rng)
	zone := zones[rng.IntN(len(zones))]
	switch rng.IntN(6) {
	case 0:
		p["d1"] = nil
	case 1:
		p["d1"] = neo4j.LocalDateTime(t)
	case 2:
		// Midnight: the driver truncates pre-1970 dates with a time of day.
		p["d1"] = neo4j.Date(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC))
	default:
		p["d1"] = t.In(zone)
	}
	t2 := randomInstant(rng).In(zones[rng.IntN(3)])
	switch rng.IntN(8) {
	case 0:
		p["d2"] = nil
	case 1:
		p["d2"] = []string{"yesterday", "2024-01-01", "2024-01-01T10:00:00", "2024-01-01 10:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T10:00:00+19:00", ""}[rng.IntN(7)]
	case 2:
		p["d2"] = t2.Format("2006-01-02T15:04:05.000000000Z07:00")
	default:
		p["d2"] = t2.Format(time.RFC3339Nano)
	}
	if rng.IntN(6) > 0 {
		p["d3"] = randomInstant(rng).UnixMilli()
	}
	if rng.IntN(6) > 0 {
		p["d4"] = randomInstant(rng).Unix()
	}
	p["t1"], p["t2"], p["t3"] = randomText(rng, randomInstant(rng))
	p["t4"] = textOddities[rng.IntN(len(textOddities))]
	if u := randomInstant(rng); rng.IntN(3) > 0 && u.Year() >= 1000 {
		p["t4"] = u.Format(testLayout)
	}
	// The casts read s1 and s2: half the time one of the texts.
	for _, name := range []string{"s1", "s2"} {
		if rng.IntN(7) == 0 {
			u := randomInstant(rng)
			p[name] = []string{u.Format(testLayout), u.Format("2006/01/02"), "30/02/1996 10:00:00.000"}[rng.IntN(3)]
		} else if rng.IntN(2) == 0 {
			n, i, d := randomText(rng, randomInstant(rng))
			if s, ok := []any{n, i, d}[rng.IntN(3)].(string); ok {
				p[name] = s
			}
		}
	}
	for k, v := range p {
		if v == nil {
			delete(p, k) // missing and null are the same on a node
		}
	}
	return p
}

// textOddities are texts near the forms of internal/textvalue: markers,
// what Cypher's toFloat and toInteger would take but the forms do not
// (spaces, exponents, hex, a fraction for an integer), days the calendar
// lacks, zones out of range. Each must read alike in Go and on Neo4j.
var textOddities = []any{
	"NULL", "", "N/A", " 12", "12 ", "1e3", "0x1A", "+5", "-.5", "12.", ".", "-", "12.7", "007",
	"99999999999999999999", "123456789012345678", "1996-07-04", "1996-07-04 00:00:00.000", "1996-07-04T10:11",
	"1996-02-30", "2024-02-29 23:59:59.999999999", "1996-07-04 10:11:12+18:00", "1996-07-04T10:11:12+19:00",
	"1996-07-04  00:00", "1996-7-4", int64(12), 12.5, true, "16/07/1996 10:30:00.000", "30/02/1996 10:30:00.000", "16/07/96 10:30:00.000",
}

// randomText is a number, an integer and a datetime as text: usually t
// or a random number written in one of the forms, else an oddity.
func randomText(rng *rand.Rand, t time.Time) (n, i, d any) {
	odd := func() any { return textOddities[rng.IntN(len(textOddities))] }
	if n = odd(); rng.IntN(3) > 0 {
		x := randomNumber(rng)
		if f, ok := x.(float64); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
			n = strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	if i = odd(); rng.IntN(3) > 0 {
		if x, ok := randomInt(rng).(int64); ok {
			i = strconv.FormatInt(x, 10)
		}
	}
	if d = odd(); rng.IntN(3) > 0 {
		u := t.In(zones[rng.IntN(3)])
		d = u.Format([]string{"2006-01-02 15:04:05.000", "2006-01-02T15:04:05.999999999Z07:00", "2006-01-02", "2006-01-02 15:04", "2006-01-02T15:04:05"}[rng.IntN(5)])
	}
	return n, i, d
}

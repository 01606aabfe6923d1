package computed

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// exprGen writes random well-typed expressions over testEntity's fields,
// from the whole supported set except ** (whose last bit may differ
// between Java and Go and could flip a comparison built on it).
type exprGen struct{ rng *rand.Rand }

func (g *exprGen) pick(options ...func() string) string {
	return options[g.rng.IntN(len(options))]()
}

func (g *exprGen) any(d int) string {
	return g.pick(func() string { return g.num(d) }, func() string { return g.bool(d) },
		func() string { return g.str(d) }, func() string { return g.dt(d) }, func() string { return g.num(d) })
}

func (g *exprGen) num(d int) string {
	if d <= 0 {
		return g.pick(
			func() string { return []string{"i1", "i2", "x1", "x2", "line_count"}[g.rng.IntN(5)] },
			func() string { return strconv.Itoa(g.rng.IntN(20) - 5) },
			func() string { return []string{"0.5", "2.5", "1e3", "0.1", "3.0"}[g.rng.IntN(5)] },
		)
	}
	d--
	bin := func(op string) func() string {
		return func() string { return "(" + g.num(d) + " " + op + " " + g.num(d) + ")" }
	}
	fn := func(name string) func() string { return func() string { return name + "(" + g.num(d) + ")" } }
	return g.pick(bin("+"), bin("-"), bin("*"), bin("/"), bin("%"),
		func() string { return "-" + g.num(d) },
		fn("abs"), fn("ceil"), fn("floor"), fn("round"),
		func() string { return "min(" + g.num(d) + ", " + g.num(d) + ")" },
		func() string { return "max(" + g.num(d) + ", " + g.num(d) + ")" },
		func() string { return "len(" + g.str(d) + ")" },
		func() string { return "(" + g.bool(d) + " ? " + g.num(d) + " : " + g.num(d) + ")" },
		func() string { return "(" + g.num(d) + " ?? " + g.num(d) + ")" },
		func() string { return "days_since(" + g.dt(d) + ")" },
		func() string { return "days_between(" + g.dt(d) + ", " + g.dt(d) + ")" },
		func() string {
			return []string{"year", "month", "day", "hour", "weekday"}[g.rng.IntN(5)] + "(" + g.dt(d) + ")"
		},
		func() string { return g.num(0) },
	)
}

func (g *exprGen) bool(d int) string {
	if d <= 0 {
		return []string{"b1", "b2", "true", "false", "is_large"}[g.rng.IntN(5)]
	}
	d--
	cmp := []string{"<", "<=", ">", ">=", "==", "!="}
	return g.pick(
		func() string { return "(" + g.num(d) + " " + cmp[g.rng.IntN(6)] + " " + g.num(d) + ")" },
		func() string { return "(" + g.str(d) + " " + cmp[4+g.rng.IntN(2)] + " " + g.str(d) + ")" },
		func() string { return "(" + g.dt(d) + " " + cmp[g.rng.IntN(6)] + " " + g.dt(d) + ")" },
		func() string { return "(" + g.bool(d) + " and " + g.bool(d) + ")" },
		func() string { return "(" + g.bool(d) + " or " + g.bool(d) + ")" },
		func() string { return "not " + g.bool(d) },
		func() string { return "(" + g.any(d) + " == nil)" },
		func() string {
			return "(" + g.str(d) + " " + []string{"contains", "startsWith", "endsWith"}[g.rng.IntN(3)] + " " + g.str(d) + ")"
		},
		func() string {
			return "(" + g.str(d) + " matches " + strconv.Quote([]string{"^a", "^[a-z]+$", "^.b", "^[^a]*c", "^\\d+-", "^\\s*x"}[g.rng.IntN(6)]) + ")"
		},
		func() string { return "(" + g.num(d) + " in [0, 1, 2.5, -1])" },
		func() string { return "(" + g.str(d) + " in ['a', 'é', ''])" },
		func() string { return "(" + g.bool(d) + " ? " + g.bool(d) + " : " + g.bool(d) + ")" },
		func() string { return "(" + g.bool(d) + " ?? " + g.bool(d) + ")" },
	)
}

func (g *exprGen) str(d int) string {
	if d <= 0 {
		return g.pick(
			func() string { return []string{"s1", "s2", "kind"}[g.rng.IntN(3)] },
			func() string { return strconv.Quote(fmt.Sprint(stringPool[g.rng.IntN(len(stringPool))])) },
		)
	}
	d--
	return g.pick(
		func() string { return "(" + g.str(d) + " + " + g.str(d) + ")" },
		func() string { return "lower(" + g.str(d) + ")" },
		func() string { return "upper(" + g.str(d) + ")" },
		func() string { return "trim(" + g.str(d) + ")" },
		func() string { return "(" + g.bool(d) + " ? " + g.str(d) + " : " + g.str(d) + ")" },
		func() string { return "(" + g.str(d) + " ?? " + g.str(d) + ")" },
		func() string { return g.str(0) },
	)
}

func (g *exprGen) dt(d int) string {
	if d <= 0 || g.rng.IntN(3) > 0 {
		return []string{"d1", "d2", "d3", "d4", "now()"}[g.rng.IntN(5)]
	}
	d--
	return g.pick(
		func() string { return "(" + g.dt(d) + " ?? " + g.dt(d) + ")" },
		func() string { return "(" + g.bool(d) + " ? " + g.dt(d) + " : " + g.dt(d) + ")" },
		func() string {
			return "truncate(" + g.dt(d) + ", " + strconv.Quote(truncUnits[g.rng.IntN(len(truncUnits))]) + ")"
		},
	)
}

package computed

import "math"

func ceil(x float64) float64  { return math.Ceil(x) }
func floor(x float64) float64 { return math.Floor(x) }

// round is half away from zero (Go's math.Round, expr's round); the Cypher
// side writes round(x, 0, 'HALF_UP'), Java's HALF_UP being the same rule.
// Java rounds through BigDecimal, which has no negative zero, so a result of
// zero is +0.0 there (round(-0.3) < 0.0 is false); adding 0 does the same
// here, since -0.0 + 0 is +0.0.
func round(x float64) float64 { return math.Round(x) + 0 }

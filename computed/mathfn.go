package computed

import "math"

func ceil(x float64) float64  { return math.Ceil(x) }
func floor(x float64) float64 { return math.Floor(x) }

// round is half away from zero (Go's math.Round, expr's round); the Cypher
// side writes round(x, 0, 'HALF_UP'), Java's HALF_UP being the same rule.
func round(x float64) float64 { return math.Round(x) }

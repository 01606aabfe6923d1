package neo4jvalue_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/ragforge/ragforge/internal/cypher/neo4jvalue"
)

// TestAGoListOfFloatsGetsTheWordsOfNaNAndInfinity: a []float64 (a Go
// caller's, Neo4j's lists are []any) gives NaN and the infinities the
// words Neo4j's do, so it encodes; the first test covers Neo4j's own.
func TestAGoListOfFloatsGetsTheWordsOfNaNAndInfinity(t *testing.T) {
	b, err := json.Marshal(neo4jvalue.Value([]float64{1.5, math.NaN(), math.Inf(1), math.Inf(-1)}))
	if want := `[1.5,"NaN","Infinity","-Infinity"]`; err != nil || string(b) != want {
		t.Errorf("got %s (%v), want %s", b, err, want)
	}
}

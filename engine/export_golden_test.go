package engine

import (
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/golden/plancase"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/planner"
)

// What the golden row recorder (result_rows_neo4j_test.go, package
// engine_test, beside the Neo4j fixtures) needs of the offline replay.

// EncodeRows is encodeRows.
var EncodeRows = encodeRows

// RunParams is runParams.
var RunParams = runParams

// RowCap is e.rowCap.
func (e *Engine) RowCap(st *planner.Statement) int { return e.rowCap(st) }

// GoldenStatement plans c on goldenEngine (with driver d) and checks it is
// the case's statement.
func GoldenStatement(t testing.TB, c *plancase.Case, d neo4j.DriverWithContext) (*Engine, *planner.Statement) {
	t.Helper()
	e := goldenEngine(t, c)
	e.opts.Driver = d
	return e, goldenStatement(t, e, c)
}

// DecodeRows is decodeRows.
var DecodeRows = decodeRows

// VectorIndex is e.vectorIndex.
func (e *Engine) VectorIndex(name string) *model.VectorIndex { return e.vectorIndex(name) }

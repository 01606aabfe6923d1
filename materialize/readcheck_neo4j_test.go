package materialize

import (
	"context"
	"strings"
	"testing"

	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/model"
)

const writingBody = "OPTIONAL MATCH (n)-[:HAS_CHANGE]->(c:Change) SET c.touched = true RETURN count(c) AS change_count"

// TestApplyAndRefreshRefuseACypherFieldThatWritesBeforeWritingAnything:
// a `cypher:` body Neo4j does not classify as a read stops apply (also
// when only a materialized field reads it) and refresh, naming the field,
// before any value, state or index is written.
func TestApplyAndRefreshRefuseACypherFieldThatWritesBeforeWritingAnything(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := context.Background()
	seedScopes(t, d, 60)
	nothingWritten := func(when string) {
		t.Helper()
		if n := query1(t, d, "MATCH (c:Change) WHERE c.touched IS NOT NULL RETURN count(c)", nil); n != int64(0) {
			t.Errorf("%s: the writing body ran on %d nodes", when, n)
		}
		if n := query1(t, d, "MATCH (s:Scope) WHERE s.line_count IS NOT NULL OR s.busy IS NOT NULL RETURN count(s)", nil); n != int64(0) {
			t.Errorf("%s: %d nodes were written before the refusal", when, n)
		}
		if n := query1(t, d, "MATCH (s:_RagforgeMaterialization) RETURN count(s)", nil); n != int64(0) {
			t.Errorf("%s: %d state nodes were written", when, n)
		}
	}

	// The field itself is materialized (line_count, first in config
	// order, too: nothing of it may be written either).
	m := scopeModel(model.Always)
	m.Entities[0].Computed[2].Cypher = writingBody
	m.Entities[0].Computed[2].Materialized = model.Always
	_, err := newMaterializer(t, d, m).Apply(ctx, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "Scope.change_count") || !strings.Contains(err.Error(), "read") {
		t.Fatalf("apply of a writing cypher field: %v", err)
	}
	nothingWritten("apply")

	// Only a field reading it is materialized.
	m = scopeModel(model.Never)
	m.Entities[0].Computed[2].Cypher = writingBody
	m.Entities[0].Computed[2].Materialized = model.Never
	m.Entities[0].Computed[3].Materialized = model.Always // busy = change_count > 3
	_, err = newMaterializer(t, d, m).Apply(ctx, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "Scope.change_count") {
		t.Fatalf("apply of a field reading a writing cypher field: %v", err)
	}
	nothingWritten("apply of a dependent field")

	// Refresh of a field applied while its body was a read.
	m = scopeModel(model.Never)
	m.Entities[0].Computed[2].Materialized = model.Always
	if _, err := newMaterializer(t, d, m).Apply(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	before := query1(t, d, "MATCH (s:_RagforgeMaterialization {field: 'change_count'}) RETURN s.hash", nil)
	m.Entities[0].Computed[2].Cypher = writingBody
	_, err = newMaterializer(t, d, m).Refresh(ctx, nil)
	if err == nil || !strings.Contains(err.Error(), "Scope.change_count") {
		t.Fatalf("refresh of a writing cypher field: %v", err)
	}
	if n := query1(t, d, "MATCH (c:Change) WHERE c.touched IS NOT NULL RETURN count(c)", nil); n != int64(0) {
		t.Errorf("refresh: the writing body ran on %d nodes", n)
	}
	if after := query1(t, d, "MATCH (s:_RagforgeMaterialization {field: 'change_count'}) RETURN s.hash", nil); after != before {
		t.Errorf("refresh changed the state before refusing: hash %v → %v", before, after)
	}
}

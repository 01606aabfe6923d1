package write_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ragforge/ragforge/internal/graphschema/schemaapply"
	"github.com/ragforge/ragforge/internal/neo4jtest"
)

// BenchmarkWrites measures one write tool call end to end (catalog
// validation, key derivation, one write transaction on the loopback
// server) on a graph with the declared constraints and indexes:
//
//	go test ./internal/memory/write -run XXX -bench Writes -benchtime 300x -count 5
func BenchmarkWrites(b *testing.B) {
	d := neo4jtest.Open(b)
	m := memoryModel(b)
	if _, err := schemaapply.Apply(context.Background(), d, schemaapply.Declared(m), schemaapply.Options{Database: neo4jtest.Database()}); err != nil {
		b.Fatal(err)
	}
	e := newEngine(b, d, m, "")
	hub := mustWrite(b, e, "alice", "create_person", map[string]any{"name": "Hub", "canonical_name": "hub", "source": "test", "confidence": 1}).EntityKey
	for i := range 2000 { // other tenants' and alice's existing memories
		mustWrite(b, e, []string{"alice", "bob", "carol"}[i%3], "create_concept", map[string]any{"name": fmt.Sprintf("seed %d", i), "description": "seed", "source": "test", "confidence": 1})
	}
	b.Run("create_person", func(b *testing.B) {
		for i := range b.N {
			mustWrite(b, e, "alice", "create_person", map[string]any{"name": "P", "canonical_name": fmt.Sprintf("p %d %d", b.N, i), "notes": "n", "source": "bench", "confidence": 0.5})
		}
	})
	b.Run("create_person_retry", func(b *testing.B) {
		for range b.N {
			mustWrite(b, e, "alice", "create_person", map[string]any{"name": "Hub", "canonical_name": "hub", "notes": "again", "source": "test", "confidence": 1})
		}
	})
	b.Run("update_person", func(b *testing.B) {
		for i := range b.N {
			mustWrite(b, e, "alice", "update_person", map[string]any{"entity_key": hub, "notes": fmt.Sprint(i), "source": "test", "confidence": 1})
		}
	})
	b.Run("create_relationship", func(b *testing.B) {
		for i := range b.N {
			b.StopTimer()
			c := mustWrite(b, e, "alice", "create_concept", map[string]any{"name": fmt.Sprintf("c %d %d", b.N, i), "source": "test", "confidence": 1}).EntityKey
			b.StartTimer()
			mustWrite(b, e, "alice", "create_relationship", map[string]any{"from_entity_key": hub, "to_entity_key": c, "relationship_type": "thinks_about", "properties": map[string]any{"mood": "loves"}, "source": "test", "confidence": 1})
		}
	})
}

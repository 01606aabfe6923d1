package computed_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/computed"
	"github.com/ragforge/ragforge/config"
	"github.com/ragforge/ragforge/engine"
	"github.com/ragforge/ragforge/internal/memory/write"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/materialize"
	"github.com/ragforge/ragforge/model"
	"github.com/ragforge/ragforge/tenant"
	"github.com/ragforge/ragforge/tools"
)

func TestWritesRecomputeStoredFieldsWithoutCompiling(t *testing.T) {
	d := neo4jtest.Open(t)
	ctx := tenant.With(context.Background(), "alice")
	m, err := config.Load("../testdata/configs/valid/memory-graph.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Stored, days_since_update is recomputed by every write to a Person.
	m.Entity("Person").ComputedField("days_since_update").Materialized = model.Always
	cm, err := computed.CompileModel(m)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Now().Add(-10 * 24 * time.Hour)
	e, err := engine.New(ctx, m, engine.Options{Driver: d, Database: neo4jtest.Database(), Computed: cm, Now: func() time.Time { return clock },
		Tools: tools.Options{Capabilities: &tools.Capabilities{FullText: true}}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, args map[string]any) write.Result {
		t.Helper()
		raw, _ := json.Marshal(args)
		res, err := e.Execute(ctx, engine.Call{Name: name, Arguments: raw})
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return res.Custom.(write.Result)
	}
	key := run("create_person", map[string]any{"name": "Ann", "canonical_name": "ann", "source": "test", "confidence": 1}).EntityKey
	x, err := materialize.New(cm, d, materialize.Options{Database: neo4jtest.Database(), Grace: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Apply(context.Background(), nil, nil); err != nil {
		t.Fatal(err)
	}

	// Writes seven days later: each stores 3 days since the update.
	clock = clock.Add(7*24*time.Hour - time.Hour)
	if n := compilesDuring(func() {
		for i := range 5 {
			run("update_person", map[string]any{"entity_key": key, "notes": fmt.Sprint("note ", i), "source": "test", "confidence": 1})
			run("create_person", map[string]any{"name": fmt.Sprint("P", i), "canonical_name": fmt.Sprint("p", i), "source": "test", "confidence": 1})
		}
	}); n != 0 {
		t.Errorf("ten writes compiled %d entities; want 0", n)
	}
	res, err := neo4j.ExecuteQuery(context.Background(), d, "MATCH (p:Person) RETURN count(p) AS people, collect(DISTINCT coalesce(p.days_since_update, 'none')) AS days",
		nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Records[0].AsMap(); r["people"] != int64(6) || fmt.Sprint(r["days"]) != "[3]" {
		t.Errorf("after the writes: %v; want 6 people, each storing 3 days since its update", r)
	}
}

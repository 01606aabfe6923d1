package historytools_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/readonly"
	"github.com/ragforge/ragforge/internal/cypher/scope"
	"github.com/ragforge/ragforge/internal/history/historytools"
	"github.com/ragforge/ragforge/internal/neo4jtest"
	"github.com/ragforge/ragforge/tenant"
)

// statement is one statement a read transaction ran.
type statement struct {
	cypher string
	params map[string]any
}

// recorder keeps the statements of the read transactions run through a
// driver it wraps (the real one: every statement still runs on Neo4j).
type recorder struct {
	mu  sync.Mutex
	all []statement
}

type recordingDriver struct {
	neo4j.DriverWithContext
	r *recorder
}

func (d recordingDriver) NewSession(ctx context.Context, c neo4j.SessionConfig) neo4j.SessionWithContext {
	return recordingSession{d.DriverWithContext.NewSession(ctx, c), d.r}
}

type recordingSession struct {
	neo4j.SessionWithContext
	r *recorder
}

func (s recordingSession) ExecuteRead(ctx context.Context, work neo4j.ManagedTransactionWork, configurers ...func(*neo4j.TransactionConfig)) (any, error) {
	return s.SessionWithContext.ExecuteRead(ctx, func(tx neo4j.ManagedTransaction) (any, error) { return work(recordingTx{tx, s.r}) }, configurers...)
}

type recordingTx struct {
	neo4j.ManagedTransaction
	r *recorder
}

func (t recordingTx) Run(ctx context.Context, cypher string, params map[string]any) (neo4j.ResultWithContext, error) {
	t.r.mu.Lock()
	t.r.all = append(t.r.all, statement{cypher, params})
	t.r.mu.Unlock()
	return t.ManagedTransaction.Run(ctx, cypher, params)
}

// TestEveryStatementIsProvenInTheTenant runs every history tool on the
// memory graph in each way it writes statements (by key and by
// conditions, field tests on stored and computed fields and a
// relationship test, windows from now and from the latest change, empty
// answers) and proves on Neo4j's plan of each statement, as the engine
// proves the generated tools' (internal/cypher/scope), that every node it
// reads is compared with the bound tenant.
func TestEveryStatementIsProvenInTheTenant(t *testing.T) {
	d := neo4jtest.Open(t)
	m := example(t, "memory-graph")
	rec := &recorder{}
	clock := func() time.Time { return now }
	writer, e := historyEngine(t, d, m, clock), historyEngine(t, recordingDriver{d, rec}, m, clock)
	alice := tenant.With(context.Background(), "alice")
	keys := map[string]string{}
	for _, c := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"ada", "create_person", map[string]any{"name": "Ada", "canonical_name": "ada"}},
		{"chess", "create_concept", map[string]any{"name": "chess"}},
		{"", "create_relationship", map[string]any{"relationship_type": "involves"}},
	} {
		var w struct {
			EntityKey string `json:"entity_key"`
		}
		if c.name == "" {
			c.args["from_entity_key"], c.args["to_entity_key"] = keys["chess"], keys["ada"]
		}
		c.args["source"], c.args["confidence"] = "chat", 1
		if err := call(t, writer, alice, c.tool, c.args, &w); err != nil {
			t.Fatal(err)
		}
		keys[c.name] = w.EntityKey
	}
	chess := cond("name", "=", "chess")
	aboutAda := map[string]any{"via": "involves", "direction": "outgoing", "entity": "Person", "conditions": conds(cond("name", "=", "Ada"))}
	fresh := cond("days_since_update", ">=", 0)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{historytools.EntityHistory, map[string]any{"entity_type": "Concept", "key": keys["chess"]}},
		{historytools.EntityHistory, map[string]any{"entity_type": "Concept", "conditions": conds(chess, aboutAda)}},
		{historytools.CompareVersions, map[string]any{"entity_type": "Person", "conditions": conds(fresh)}},
		{historytools.RecentlyModified, map[string]any{}},
		{historytools.RecentlyModified, map[string]any{"entity_type": "Concept", "relative_to": "latest_change", "conditions": conds(chess)}},
		{historytools.RecentlyModified, map[string]any{"entity_type": "Person", "relative_period": "last_year", "kind": "deleted", "conditions": conds(fresh)}},
		{historytools.MostModified, map[string]any{"order_by": "churn"}},
		{historytools.MostModified, map[string]any{"entity_type": "Concept", "conditions": conds(aboutAda)}},
		{historytools.Statistics, map[string]any{"bucket": "day", "relative_period": "last_week", "relative_to": "latest_change"}},
		{historytools.Statistics, map[string]any{"entity_type": "Concept", "relative_period": "last_year", "conditions": conds(chess)}},
	} {
		var out any
		if err := call(t, e, alice, c.tool, c.args, &out); err != nil {
			t.Fatalf("%s %v: %v", c.tool, c.args, err)
		}
	}
	if len(rec.all) < 15 {
		t.Fatalf("recorded %d statements, fewer than the calls need", len(rec.all))
	}
	seen := map[string]bool{}
	for _, s := range rec.all {
		if seen[s.cypher] {
			continue
		}
		seen[s.cypher] = true
		res, err := neo4j.ExecuteQuery(context.Background(), d, "EXPLAIN "+s.cypher, s.params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(neo4jtest.Database()))
		if err != nil {
			t.Fatalf("EXPLAIN: %v\n%s", err, s.cypher)
		}
		if err := scope.Check(readonly.PlanOf(res.Summary.Plan()), m.Tenant.Field, tenant.Param); err != nil {
			t.Errorf("not proven in the tenant: %v\n%s", err, s.cypher)
		}
		for _, dep := range neo4jtest.Deprecations(res.Summary) {
			t.Errorf("Neo4j deprecates a construct (Cypher 25 removes it): %s\n%s", dep, s.cypher)
		}
	}
	t.Logf("%d distinct statements proven", len(seen))
}

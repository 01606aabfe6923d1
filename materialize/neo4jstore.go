package materialize

import (
	"context"
	"fmt"
	"strings"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/neo4jtx"
	"github.com/ragforge/ragforge/model"
)

// UsageLabel is the label of the nodes a [Neo4jStore] keeps counts on, one
// node per bucket (day, entity, field, kind). The leading underscore keeps
// it apart from any entity a config can declare.
const UsageLabel = "_RagforgeUsage"

// Neo4jStore keeps counts in the graph database, so every process of a
// deployment adds to the same buckets: each Add is one write transaction of
// MERGE … SET c.n = coalesce(c.n, 0) + $n over a uniqueness constraint on
// the bucket key, which makes concurrent increments of one bucket
// serialize instead of losing updates or duplicating the node.
type Neo4jStore struct {
	driver neo4j.DriverWithContext
	db     string
}

// NewNeo4jStore returns a store on driver's database db and creates the
// uniqueness constraint it relies on (idempotently).
func NewNeo4jStore(ctx context.Context, driver neo4j.DriverWithContext, db string) (*Neo4jStore, error) {
	s := &Neo4jStore{driver: driver, db: db}
	q := "CREATE CONSTRAINT ragforge_usage_key IF NOT EXISTS FOR (c:" + usageLabelQ + ") REQUIRE c.key IS UNIQUE"
	if _, err := neo4jtx.Query(ctx, driver, db, neo4j.AccessModeWrite, q, nil); err != nil {
		return nil, fmt.Errorf("materialize: usage store constraint: %w", err)
	}
	return s, nil
}

// bucketKey is the unique key of a bucket node; the parts are joined with
// NUL, which no identifier can hold.
func bucketKey(c Count) string {
	return strings.Join([]string{c.Day, c.Entity, c.Field, string(c.Kind)}, "\x00")
}

// Add implements Store.
func (s *Neo4jStore) Add(ctx context.Context, counts []Count) error {
	if err := validate(counts); err != nil {
		return err
	}
	m := map[key]int64{}
	merge(m, counts)
	rows := make([]any, 0, len(m))
	for _, c := range flatten(m) {
		rows = append(rows, map[string]any{"key": bucketKey(c), "day": c.Day, "entity": c.Entity, "field": c.Field, "kind": string(c.Kind), "n": c.N})
	}
	if len(rows) == 0 {
		return nil
	}
	q := "UNWIND $rows AS r MERGE (c:" + usageLabelQ + " {key: r.key}) " +
		"ON CREATE SET c.day = r.day, c.entity = r.entity, c.field = r.field, c.kind = r.kind " +
		"SET c.n = coalesce(c.n, 0) + r.n"
	_, err := neo4jtx.Query(ctx, s.driver, s.db, neo4j.AccessModeWrite, q, map[string]any{"rows": rows})
	if err != nil {
		return fmt.Errorf("materialize: adding usage counts: %w", err)
	}
	return nil
}

// Counts implements Store.
func (s *Neo4jStore) Counts(ctx context.Context) ([]Count, error) {
	q := "MATCH (c:" + usageLabelQ + ") RETURN c.day AS day, c.entity AS entity, c.field AS field, c.kind AS kind, c.n AS n"
	res, err := neo4jtx.Query(ctx, s.driver, s.db, neo4j.AccessModeRead, q, nil)
	if err != nil {
		return nil, fmt.Errorf("materialize: reading usage counts: %w", err)
	}
	out := make([]Count, 0, len(res))
	for _, r := range res {
		day, _ := r.AsMap()["day"].(string)
		ent, _ := r.AsMap()["entity"].(string)
		fld, _ := r.AsMap()["field"].(string)
		kind, _ := r.AsMap()["kind"].(string)
		n, _ := r.AsMap()["n"].(int64)
		out = append(out, Count{Day: day, Entity: ent, Field: fld, Kind: model.UseKind(kind), N: n})
	}
	sortCounts(out)
	return out, nil
}

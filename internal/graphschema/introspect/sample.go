package introspect

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/ragforge/ragforge/internal/cypher/ident"
)

// Value is one distinct stored value of a property and how many of the
// sampled nodes hold it.
type Value struct {
	Value any
	Count int64
}

// Sample reads the distinct values of a node property among the first
// nodes nodes of the label that hold it, most frequent first, at most
// values of them (so a sample of long unique texts stays small). It is how
// vet tells an ISO string from any string and epoch seconds from
// milliseconds, and how init finds enum candidates, without reading every
// node of a large label.
func Sample(ctx context.Context, d neo4j.DriverWithContext, database, label, property string, nodes, values int) ([]Value, error) {
	ql, err := ident.Quote(label)
	if err != nil {
		return nil, err
	}
	return sample(ctx, d, database, "(n:"+ql+")", property, nodes, values)
}

// SampleRelationship is Sample for a property of the relationships of
// one type: how vet and init read an order line's unitPrice held as text.
func SampleRelationship(ctx context.Context, d neo4j.DriverWithContext, database, relType, property string, rels, values int) ([]Value, error) {
	qt, err := ident.Quote(relType)
	if err != nil {
		return nil, err
	}
	return sample(ctx, d, database, "()-[n:"+qt+"]->()", property, rels, values)
}

// sample reads the distinct values of property of the n that pattern
// matches, as Sample describes.
func sample(ctx context.Context, d neo4j.DriverWithContext, database, pattern, property string, nodes, values int) ([]Value, error) {
	qp, err := ident.Quote(property)
	if err != nil {
		return nil, err
	}
	r := reader{d: d, db: database}
	recs, err := r.query(ctx, "MATCH "+pattern+" WHERE n."+qp+" IS NOT NULL WITH n."+qp+" AS v LIMIT $nodes RETURN v, count(*) AS c ORDER BY c DESC, v LIMIT $values",
		map[string]any{"nodes": int64(nodes), "values": int64(values)})
	if err != nil {
		return nil, err
	}
	out := make([]Value, len(recs))
	for i, rec := range recs {
		c, _ := rec.Values[1].(int64)
		out[i] = Value{Value: rec.Values[0], Count: c}
	}
	return out, nil
}

// CountHolding counts the nodes of a label (entityType NODE) or the
// relationships of a type (RELATIONSHIP) that hold a property: vet's
// warning about a property the config leaves out says how much data that
// hides.
func CountHolding(ctx context.Context, d neo4j.DriverWithContext, database, entityType, labelOrType, property string) (int64, error) {
	q, err := ident.Quote(labelOrType)
	if err != nil {
		return 0, err
	}
	qp, err := ident.Quote(property)
	if err != nil {
		return 0, err
	}
	pattern := "(x:" + q + ")"
	if entityType == "RELATIONSHIP" {
		pattern = "()-[x:" + q + "]->()"
	}
	return reader{d: d, db: database}.count(ctx, "MATCH "+pattern+" WHERE x."+qp+" IS NOT NULL RETURN count(x)")
}
